//! Payout use cases: create one (validated in the documented order, recipient and issuer
//! resolved, approved at once when the organization asks for no approval), and approve, reject
//! or retry one. Execution is the worker's (`lajan_worker::executor`).

use crate::events::payout_event;
use crate::{ServiceError, ServiceResult, Services, assets};
use lajan_domain::client::{Client, WalletAddress};
use lajan_domain::id::IdKind;
use lajan_domain::money::parse_amount;
use lajan_domain::payout::{
    ApprovalStatus, AssetCode, Payout, PayoutAction, PayoutDetail, PayoutType, initial_approval, parse_memo,
};
use lajan_domain::settings::Settings;
use lajan_domain::stellar_memo::StellarMemo;
use lajan_domain::{FieldError, Invalid, Tenant, Timestamp};
use lajan_store::{Change, IdempotentResponse};

/// A payout as a caller asks for it, before validation. `asset_amount` is the number's exact
/// decimal text.
#[derive(Debug, Clone, Default)]
pub struct PayoutRequest {
    pub client_id: Option<String>,
    pub wallet_account_id: Option<String>,
    pub asset_amount: Option<String>,
    pub asset_code: Option<String>,
    pub asset_issuer: Option<String>,
    pub memo: Option<String>,
}

/// The wallet a payout pays, checked in the documented order: `missing_recipient` (neither
/// given), `invalid_client` (`client_id` names no client: `client` is the one found, if any),
/// `no_wallet` (the client has no wallet, phone number or email, and no wallet was given),
/// `invalid_wallet` (not an account, or, when both are given, not the client's: a payout's
/// records never name one person while paying another). `None`: the client has no wallet yet
/// but can be invited to register one, and the payout waits for it.
pub(crate) fn recipient(
    client_id: Option<&str>,
    wallet: Option<&str>,
    client: Option<&Client>,
) -> Result<Option<WalletAddress>, Invalid> {
    let given = match (client_id, wallet, client) {
        (None, None, _) => return Err(Invalid::new("missing_recipient", "Give a clientId or a walletAccountId")),
        (Some(id), _, None) => return Err(Invalid::new("invalid_client", format!("No client with id {id:?}"))),
        (_, Some(given), _) => given,
        (_, None, Some(c)) => match (&c.wallet_account_id, c.reachable()) {
            (Some(theirs), _) => theirs,
            (None, true) => return Ok(None),
            (None, false) => return Err(Invalid::new("no_wallet", NO_WALLET)),
        },
    };
    let parsed =
        WalletAddress::parse(given).map_err(|e| Invalid::new("invalid_wallet", format!("walletAccountId {e}")))?;
    let Some(client) = client.filter(|_| wallet.is_some()) else { return Ok(Some(parsed)) };
    if client.wallet_account_id.as_deref() == Some(parsed.as_str()) {
        return Ok(Some(parsed));
    }
    let theirs = match &client.wallet_account_id {
        Some(w) => format!("the client's wallet is {w}"),
        None => "the client has none".to_owned(),
    };
    Err(Invalid::new(
        "invalid_wallet",
        format!(
            "walletAccountId differs from the client's wallet ({theirs}): give the clientId alone to pay the \
             client, or the walletAccountId alone to pay that wallet"
        ),
    ))
}

/// The memo `client`'s wallet needs, when `wallet` is that wallet.
fn memo_for(client: &Client, wallet: Option<&WalletAddress>) -> Option<StellarMemo> {
    let theirs = wallet.is_some_and(|w| client.wallet_account_id.as_deref() == Some(w.as_str()));
    client.wallet_memo.clone().filter(|_| theirs)
}

/// Every bad field of a request at once: the first, in the documented order, gives the refusal
/// its code and message (as the API always answered), and `details` names each bad field with
/// its own code, so a form shows them all in one answer.
fn all_at_once(found: impl Iterator<Item = Invalid>) -> Invalid {
    let mut first: Option<Invalid> = None;
    let mut details = Vec::new();
    for invalid in found {
        if invalid.details.is_empty() {
            let field = match invalid.code {
                "missing_recipient" | "invalid_client" | "no_wallet" => "clientId",
                "invalid_wallet" => "walletAccountId",
                "invalid_amount" => "assetAmount",
                "invalid_asset_code" => "assetCode",
                "invalid_memo" => "memo",
                _ => "assetIssuer",
            };
            let rule = invalid.message.strip_prefix(field).map_or(invalid.message.as_str(), str::trim_start);
            details.push(FieldError { code: Some(invalid.code), ..FieldError::new(field, rule) });
        } else {
            details.extend(invalid.details.iter().cloned());
        }
        first.get_or_insert(invalid);
    }
    let first = first.unwrap_or_else(|| Invalid::new("validation_error", "the payout is invalid"));
    Invalid { details, ..first }
}

const NO_WALLET: &str = "This client has no walletAccountId, phoneNumber or email to be invited at; \
     add one or give a wallet";

impl Services {
    /// Validates a payout request in the documented order (missing_recipient, invalid_client,
    /// no_wallet, invalid_wallet, invalid_amount, invalid_asset_code, invalid_memo,
    /// invalid_asset_issuer) and records it with `payout.created` (and `payout.approved` when
    /// the organization requires no approval, as its settings say inside the store's
    /// transaction), answering `idempotency` in the same transaction.
    pub async fn create_payout(
        &self,
        tenant: &Tenant,
        request: PayoutRequest,
        idempotency: Option<IdempotentResponse<'_, PayoutDetail>>,
    ) -> ServiceResult<PayoutDetail> {
        let payout = self.new_payout(tenant, request).await?;
        let rule = |s: &Settings| initial_approval(s.payout_approval_required);
        let d = self.store.create_payout(tenant, &payout, &rule, &payout_event, idempotency).await?;
        self.nudge_for(&d);
        Ok(d)
    }

    /// The direct payout a request stands for, validated and not yet stored (its approval is
    /// decided by the store from the settings).
    async fn new_payout(&self, tenant: &Tenant, r: PayoutRequest) -> ServiceResult<Payout> {
        let client = match &r.client_id {
            None => None,
            Some(id) => self.store.get_client(tenant, id).await?,
        };
        let required = |field: &str| Invalid::fields(vec![FieldError::new(field, "is required")]);
        let wallet = recipient(r.client_id.as_deref(), r.wallet_account_id.as_deref(), client.as_ref());
        let amount =
            r.asset_amount.as_deref().map_or_else(|| Err(required("assetAmount")), |a| parse_amount("assetAmount", a));
        let code = r.asset_code.as_deref().map_or_else(|| Err(required("assetCode")), AssetCode::parse);
        let memo = r.memo.as_deref().map(parse_memo).transpose();
        let issuer = match &code {
            Ok(code) => self.payout_issuer(tenant, code, r.asset_issuer.as_deref()),
            Err(_) => Ok(None),
        };
        let (wallet, amount, code, memo, issuer) = match (wallet, amount, code, memo, issuer) {
            (Ok(w), Ok(a), Ok(c), Ok(m), Ok(i)) => (w, a, c, m, i),
            (w, a, c, m, i) => {
                let found = [w.err(), a.err(), c.err(), m.err(), i.err()];
                return Err(all_at_once(found.into_iter().flatten()).into());
            }
        };
        let memo = memo.filter(|m| !m.is_empty());
        let wallet_memo = client.as_ref().and_then(|c| memo_for(c, wallet.as_ref()));
        let now = Timestamp::now();
        Ok(Payout {
            id: IdKind::Payout.generate(),
            payout_type: PayoutType::Direct,
            client_id: client.map(|c| c.id),
            wallet_account_id: wallet.clone(),
            asset_amount: amount,
            asset_code: code,
            asset_issuer: issuer,
            memo,
            wallet_memo,
            disbursement_id: None,
            approval: ApprovalStatus::Pending,
            exec: Payout::first_exec(wallet.as_ref()),
            created_by_key: tenant.actor.id().to_owned(),
            approval_withdrawn_by: None,
            created_at: now,
            updated_at: now,
        })
    }

    /// The issuer a payout pays in: the one given (never for XLM), else the configured one.
    pub(crate) fn payout_issuer(
        &self,
        tenant: &Tenant,
        code: &AssetCode,
        given: Option<&str>,
    ) -> Result<Option<WalletAddress>, Invalid> {
        let invalid = |message: String| Invalid::new("invalid_asset_issuer", message);
        match (given, code.is_native()) {
            (Some(_), true) => Err(invalid("XLM is the native asset and has no issuer".into())),
            (None, true) => Ok(None),
            (Some(given), false) => {
                Ok(Some(WalletAddress::parse(given).map_err(|e| invalid(format!("assetIssuer {e}")))?))
            }
            (None, false) => {
                let configured = assets::issuer(tenant.env, code.as_str(), &self.config.live_asset_issuers)
                    .ok_or_else(|| invalid(format!("No issuer is configured for {code}: give assetIssuer")))?;
                // Checked when the configuration was loaded; a bad one refuses the payout.
                let issuer = WalletAddress::parse(&configured)
                    .map_err(|e| invalid(format!("The configured issuer of {code} {e}")))?;
                Ok(Some(issuer))
            }
        }
    }

    /// Approves, rejects (with an optional reason) or retries a payout under its row lock; an
    /// organization whose settings require a distinct approver (read in the same transaction)
    /// refuses approval by the key or user that created it.
    pub async fn act_on_payout(
        &self,
        tenant: &Tenant,
        id: &str,
        action: PayoutAction,
        reason: Option<&str>,
        idempotency: Option<IdempotentResponse<'_, PayoutDetail>>,
    ) -> ServiceResult<PayoutDetail> {
        let now = Timestamp::now();
        let d = self
            .store
            .payout_action(
                id,
                action,
                tenant.actor.id(),
                reason,
                Change { tenant, at: now, events: &payout_event, idempotency },
            )
            .await
            .map_err(ServiceError::not_found_as("payout"))?;
        let settled = matches!(action, PayoutAction::Cancel | PayoutAction::Reject);
        if let Some(batch) = d.payout.disbursement_id.clone().filter(|_| settled) {
            // Its disbursement may be done now that this item will never be paid.
            self.roll_up_disbursements(Some(vec![(d.tenant.clone(), batch)])).await?;
        }
        self.nudge_for(&d);
        Ok(d)
    }

    /// Wakes the worker that acts next on `d`: the executor, or the invitations when its
    /// receiver has no wallet yet.
    fn nudge_for(&self, d: &PayoutDetail) {
        self.nudges.payouts_due();
        if d.payout.wallet_account_id.is_none() {
            self.nudges.invitations_due();
        }
    }
}

/// Payouts canceled for want of a registration in one store transaction; more wait for the next.
const CANCELED_PER_TRANSACTION: i64 = 500;

impl Services {
    /// Cancels (`receiver_not_registered`, `payout.canceled`) the approved payouts whose client
    /// did not register a wallet within the organization's `registrationWindowDays` of the
    /// approval, and rolls up the disbursements they belonged to. Answers how many.
    pub async fn cancel_unregistered_payouts(&self, now: Timestamp) -> lajan_store::StoreResult<usize> {
        let mut canceled = 0;
        loop {
            let batch = self.store.cancel_unregistered_payouts(now, CANCELED_PER_TRANSACTION, &payout_event).await?;
            let mut disbursements: Vec<(Tenant, String)> = Vec::new();
            for d in &batch {
                if let Some(id) = &d.payout.disbursement_id
                    && !disbursements.iter().any(|(_, seen)| seen == id)
                {
                    disbursements.push((d.tenant.clone(), id.clone()));
                }
            }
            if !disbursements.is_empty() {
                self.roll_up_disbursements(Some(disbursements)).await?;
            }
            canceled += batch.len();
            if batch.len() < usize::try_from(CANCELED_PER_TRANSACTION).unwrap_or(usize::MAX) {
                return Ok(canceled);
            }
        }
    }
}

/// Approved payouts alerted as delayed in one store transaction; more wait for the next.
const DELAYED_PER_TRANSACTION: i64 = 500;

impl Services {
    /// Raises `payout.delayed`, once each, for the approved payouts still unsent `alert_after_ms`
    /// after their approval (or their last manual retry): they keep being tried, and someone
    /// should look. Answers how many were alerted.
    pub async fn alert_delayed_payouts(&self, now: Timestamp, alert_after_ms: i64) -> lajan_store::StoreResult<usize> {
        let unsent_before = now.plus_millis(alert_after_ms.saturating_neg());
        let mut alerted = 0;
        loop {
            let delayed =
                self.store.alert_delayed_payouts(unsent_before, now, DELAYED_PER_TRANSACTION, &payout_event).await?;
            for d in &delayed {
                let last = d.attempts.last();
                tracing::warn!(
                    payout = %d.payout.id,
                    org = %d.tenant.org_id,
                    env = d.tenant.env.as_str(),
                    last_error = last.and_then(|a| a.error_code.as_deref()).unwrap_or("none"),
                    "payout still unsent past the delay alert: payout.delayed raised; it keeps being tried"
                );
            }
            alerted += delayed.len();
            if delayed.len() < usize::try_from(DELAYED_PER_TRANSACTION).unwrap_or(usize::MAX) {
                return Ok(alerted);
            }
        }
    }
}
