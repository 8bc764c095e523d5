//! Disbursement use cases: create a draft (every row validated with the payout rules, every bad
//! row reported at once), submit it into payouts, approve it against the ledger balance, reject
//! it, retry its failed items, delete a draft, and roll the running ones up as their payouts
//! settle.

use crate::events::{client_event, disbursement_event, payout_event};
use crate::payouts::recipient;
use crate::{ServiceError, ServiceResult, Services};
use lajan_domain::client::{Client, VerificationInput};
use lajan_domain::disbursement::{
    Disbursement, DisbursementItem, DisbursementSource, DisbursementStatus, ItemCounts, MAX_ITEMS, parse_external_id,
    parse_name, roll_up, submission,
};
use lajan_domain::id::IdKind;
use lajan_domain::money::{MAX_CENTS, format_scaled, parse_amount};
use lajan_domain::payout::{AssetCode, parse_memo};
use lajan_domain::settings::Settings;
use lajan_domain::{FieldError, Invalid, Tenant, Timestamp};
use lajan_store::disbursements::{DisbursementChange, DisbursementEvents, Funds};
use lajan_store::{Change, IdempotentResponse, StoreResult};
use std::collections::{HashMap, HashSet};

/// One item as a caller gives it, before validation; `asset_amount` is the exact decimal text.
#[derive(Debug, Clone, Default)]
pub struct ItemRequest {
    /// Its row as the caller counts them, from 1.
    pub row: u32,
    pub client_id: Option<String>,
    pub wallet_account_id: Option<String>,
    pub asset_amount: Option<String>,
    pub memo: Option<String>,
    pub external_id: Option<String>,
    /// Instead of a client or a wallet: the receiver's contact, found among the organization's
    /// clients or made a client with the names, language default and verification given here.
    pub phone_number: Option<String>,
    pub email: Option<String>,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub verification: Option<VerificationInput>,
}

/// A disbursement as a caller asks for it. `row_errors` are rows the caller's format already
/// refused (a CSV row with too many cells), reported with the others.
#[derive(Debug, Clone)]
pub struct DisbursementRequest {
    pub name: Option<String>,
    pub asset_code: Option<String>,
    pub asset_issuer: Option<String>,
    pub source: DisbursementSource,
    pub items: Vec<ItemRequest>,
    pub row_errors: Vec<FieldError>,
}

const EVENTS: DisbursementEvents<'static> =
    DisbursementEvents { disbursement: &disbursement_event, payout: &payout_event };

/// A change to a disbursement now, with its events and the request's key.
fn change<'a>(tenant: &'a Tenant, idempotency: Option<IdempotentResponse<'a, Disbursement>>) -> DisbursementChange<'a> {
    Change { tenant, at: Timestamp::now(), events: &EVENTS, idempotency }
}

impl Services {
    /// Validates the batch (name, assetCode, assetIssuer, 1 to 10,000 items) and then every
    /// row, and stores the draft with `disbursement.created`. Any bad row makes the answer one
    /// `invalid_items` listing every bad row, and nothing is stored.
    pub async fn create_disbursement(
        &self,
        tenant: &Tenant,
        request: DisbursementRequest,
        idempotency: Option<IdempotentResponse<'_, Disbursement>>,
    ) -> ServiceResult<Disbursement> {
        let name = parse_name(request.name.as_deref()).map_err(|e| ServiceError::field("name", e))?;
        let code = request.asset_code.as_deref().ok_or_else(|| ServiceError::field("assetCode", "is required"))?;
        let code = AssetCode::parse(code)?;
        let issuer = self.payout_issuer(tenant, &code, request.asset_issuer.as_deref())?;
        let count = request.items.len() + request.row_errors.len();
        if count == 0 {
            return Err(ServiceError::field("items", "must hold at least one item"));
        }
        if count > MAX_ITEMS {
            return Err(ServiceError::field(
                "items",
                format!("holds {count} items; a disbursement holds at most {MAX_ITEMS}: split it in several"),
            ));
        }
        let (items, new_clients) = self.validate_items(tenant, request.items, request.row_errors).await?;
        let total = items.iter().try_fold(0i64, |sum, i| sum.checked_add(i.asset_amount).filter(|t| *t <= MAX_CENTS));
        let total_amount = total.ok_or_else(|| {
            ServiceError::field(
                "items",
                format!("add up to more than {}, the most a Stellar account can hold", format_scaled(MAX_CENTS, 2)),
            )
        })?;
        let now = Timestamp::now();
        let d = Disbursement {
            id: IdKind::Disbursement.generate(),
            name,
            asset_code: code,
            asset_issuer: issuer,
            status: DisbursementStatus::Draft,
            source: request.source,
            item_count: items.len() as u64,
            total_amount,
            amount_sent: 0,
            counts: ItemCounts::default(),
            created_by_key: tenant.actor.id().to_owned(),
            submitted_by_key: None,
            approved_by_key: None,
            reject_reason: None,
            created_at: now,
            updated_at: now,
            submitted_at: None,
            approved_at: None,
        };
        let created = client_event("client.created");
        let new_clients: Vec<_> = new_clients
            .into_iter()
            .map(|c| {
                let e = created(&c);
                (c, e)
            })
            .collect();
        Ok(self.store.create_disbursement(tenant, &d, &items, &new_clients, &disbursement_event, idempotency).await?)
    }

    /// Every row checked with a single payout's rules, in its order (missing_recipient,
    /// invalid_client, no_wallet, invalid_wallet, invalid_amount, invalid_memo), then its
    /// externalId (invalid_external_id, duplicate_external_id): the first problem of each row.
    /// A row naming its receiver by phone or email pays the client found or made for it: the
    /// items, and the clients to make with them.
    async fn validate_items(
        &self,
        tenant: &Tenant,
        mut requests: Vec<ItemRequest>,
        mut bad: Vec<FieldError>,
    ) -> ServiceResult<(Vec<DisbursementItem>, Vec<Client>)> {
        let wanted: HashSet<&String> = requests.iter().filter_map(|r| r.client_id.as_ref()).collect();
        let wanted: Vec<String> = wanted.into_iter().cloned().collect();
        let mut clients: HashMap<String, Client> =
            self.store.get_clients(tenant, &wanted).await?.into_iter().map(|c| (c.id.clone(), c)).collect();
        let contacts_refused = bad.len();
        let receivers = self.receivers_of(tenant, &requests, &mut bad).await?;
        let refused_rows: HashSet<Option<u32>> = bad[contacts_refused..].iter().map(|e| e.row).collect();
        requests.retain(|r| !refused_rows.contains(&Some(r.row)));
        for r in &mut requests {
            if let Some(client) = receivers.by_row.get(&r.row) {
                r.client_id = Some(client.id.clone());
                clients.insert(client.id.clone(), client.clone());
            }
        }
        let mut first_row_of: HashMap<String, u32> = HashMap::new();
        let mut items = Vec::with_capacity(requests.len());
        for r in requests {
            match item(&r, &clients, &mut first_row_of) {
                Ok(item) => items.push(item),
                Err(e) => bad.push(e),
            }
        }
        if bad.is_empty() {
            return Ok((items, receivers.new));
        }
        bad.sort_by_key(|e| e.row);
        let message = match bad.as_slice() {
            [one] => format!("Row {} is invalid: {}", one.row.unwrap_or(0), one.message),
            _ => format!("{} rows are invalid; each is listed in details", bad.len()),
        };
        Err(Invalid { code: "invalid_items", message, details: bad }.into())
    }

    /// Submits a draft: one payout per item, approved at once (with the balance check) when
    /// the organization asks for no approval.
    pub async fn submit_disbursement(
        &self,
        tenant: &Tenant,
        id: &str,
        idempotency: Option<IdempotentResponse<'_, Disbursement>>,
    ) -> ServiceResult<Disbursement> {
        let d = self.store.get_disbursement(tenant, id).await?.ok_or(ServiceError::NotFound("disbursement"))?;
        // The balance is only read when the settings say the submission approves; the store
        // reads them again in its transaction.
        let approves = !self.store.get_settings(tenant).await?.payout_approval_required;
        let funds = if approves { Some(self.funds(tenant, &d).await?) } else { None };
        let rule = |s: &Settings| submission(s.payout_approval_required);
        let submitted = self
            .store
            .submit_disbursement(id, tenant.actor.id(), &rule, funds, change(tenant, idempotency))
            .await
            .map_err(ServiceError::not_found_as("disbursement"))?;
        self.nudges.payouts_due();
        self.nudges.invitations_due();
        Ok(submitted)
    }

    /// Approves a disbursement and all its payouts, when the ledger balance covers it.
    pub async fn approve_disbursement(
        &self,
        tenant: &Tenant,
        id: &str,
        idempotency: Option<IdempotentResponse<'_, Disbursement>>,
    ) -> ServiceResult<Disbursement> {
        let d = self.store.get_disbursement(tenant, id).await?.ok_or(ServiceError::NotFound("disbursement"))?;
        let funds = self.funds(tenant, &d).await?;
        let approved = self
            .store
            .approve_disbursement(id, tenant.actor.id(), funds, change(tenant, idempotency))
            .await
            .map_err(ServiceError::not_found_as("disbursement"))?;
        self.nudges.payouts_due();
        // Items paid by phone or email invite their receivers now.
        self.nudges.invitations_due();
        Ok(approved)
    }

    /// Rejects a disbursement and all its payouts, with an optional reason.
    pub async fn reject_disbursement(
        &self,
        tenant: &Tenant,
        id: &str,
        reason: Option<&str>,
        idempotency: Option<IdempotentResponse<'_, Disbursement>>,
    ) -> ServiceResult<Disbursement> {
        self.store
            .reject_disbursement(id, reason, change(tenant, idempotency))
            .await
            .map_err(ServiceError::not_found_as("disbursement"))
    }

    /// Queues every failed item's payout again.
    pub async fn retry_failed_disbursement(
        &self,
        tenant: &Tenant,
        id: &str,
        idempotency: Option<IdempotentResponse<'_, Disbursement>>,
    ) -> ServiceResult<Disbursement> {
        let retried = self
            .store
            .retry_failed_disbursement(id, change(tenant, idempotency))
            .await
            .map_err(ServiceError::not_found_as("disbursement"))?;
        self.nudges.payouts_due();
        Ok(retried)
    }

    pub async fn delete_disbursement(&self, tenant: &Tenant, id: &str) -> ServiceResult<()> {
        self.store.delete_disbursement(tenant, id).await.map_err(ServiceError::not_found_as("disbursement"))
    }

    /// Moves each of these running disbursements (every running one when `None`) to the status
    /// its payouts add up to, with its event. Returns how many moved.
    pub async fn roll_up_disbursements(&self, which: Option<Vec<(Tenant, String)>>) -> StoreResult<usize> {
        let which = match which {
            Some(list) => list,
            None => self.store.running_disbursements().await?,
        };
        let mut moved = 0;
        for (tenant, id) in which {
            let Some(d) = self.store.get_disbursement(&tenant, &id).await? else { continue };
            // Most steps change nothing: only a move takes the write lock.
            if roll_up(d.status, &d.counts).0 == d.status {
                continue;
            }
            let now = Timestamp::now();
            let after = self.store.roll_up_disbursement(&tenant, &id, now, &disbursement_event).await?;
            moved += usize::from(after.status != d.status);
        }
        Ok(moved)
    }

    /// What the account paying `d` holds of its asset: the sandbox account (read in the
    /// approval's transaction), or the live distribution account as Horizon reports it now.
    async fn funds(&self, tenant: &Tenant, d: &Disbursement) -> ServiceResult<Funds> {
        let code = d.asset_code.as_str();
        let issuer = d.asset_issuer.as_ref().map(|i| i.as_str().to_owned());
        if !tenant.env.is_live() {
            // The sandbox account holds each registry asset from the sandbox issuer only.
            return Ok(if issuer == lajan_ledger::sandbox::issuer(code) {
                Funds::SandboxAccount
            } else {
                Funds::Observed { balance: None, at: Timestamp::now() }
            });
        }
        let ledger = self.ledgers.of(tenant).ok_or_else(|| {
            ServiceError::Unavailable("No live Stellar network is configured to read the balance from".into())
        })?;
        let at = Timestamp::now();
        let balance = ledger.balance(tenant, code, issuer.as_deref()).await.map_err(|e| match e {
            lajan_ledger::LedgerFault::Store(e) => ServiceError::Store(e),
            lajan_ledger::LedgerFault::Unavailable(reason) | lajan_ledger::LedgerFault::Invalid(reason) => {
                ServiceError::Unavailable(format!("The balance could not be read from the network: {reason}"))
            }
        })?;
        Ok(Funds::Observed { balance, at })
    }
}

/// One row validated into an item, or its first problem.
fn item(
    r: &ItemRequest,
    clients: &HashMap<String, Client>,
    first_row_of: &mut HashMap<String, u32>,
) -> Result<DisbursementItem, FieldError> {
    let row = r.row;
    let client = r.client_id.as_ref().and_then(|id| clients.get(id));
    let wallet = recipient(r.client_id.as_deref(), r.wallet_account_id.as_deref(), client).map_err(|e| {
        let field = if matches!(e.code, "invalid_client" | "no_wallet") { "clientId" } else { "walletAccountId" };
        FieldError::in_row(row, field, e)
    })?;
    let at = |field: &'static str| move |e: Invalid| FieldError::in_row(row, field, e);
    let amount = r
        .asset_amount
        .as_deref()
        .ok_or_else(|| Invalid::new("validation_error", "assetAmount is required"))
        .and_then(|a| parse_amount("assetAmount", a))
        .map_err(at("assetAmount"))?;
    let memo = r.memo.as_deref().map(parse_memo).transpose().map_err(at("memo"))?.filter(|m| !m.is_empty());
    let external_id = match r.external_id.as_deref() {
        None => None,
        Some(raw) => parse_external_id(raw).map_err(at("externalId"))?,
    };
    if let Some(id) = &external_id {
        if let Some(first) = first_row_of.get(id) {
            let message = format!("externalId {id:?} is already on row {first}; each item needs its own");
            return Err(FieldError::in_row(row, "externalId", Invalid::new("duplicate_external_id", message)));
        }
        first_row_of.insert(id.clone(), row);
    }
    Ok(DisbursementItem {
        id: IdKind::DisbursementItem.generate(),
        row,
        external_id,
        client_id: client.map(|c| c.id.clone()),
        wallet_account_id: wallet,
        asset_amount: amount,
        memo,
    })
}
