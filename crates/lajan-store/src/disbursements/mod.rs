//! Disbursements: batches of payouts stored as a draft with their items, submitted into one
//! payout per item, approved (against the ledger balance) or rejected for all their payouts at
//! once, and rolled up from their payouts' statuses as the executor settles them.

use crate::{Change, EventFor, IdempotentResponse, NewEvent, StoreResult};
use async_trait::async_trait;
use lajan_domain::client::Client;
use lajan_domain::disbursement::{Disbursement, DisbursementItem, DisbursementStatus, ItemDetail, ItemStatus};
use lajan_domain::pagination::{Page, PageRequest};
use lajan_domain::payout::PayoutDetail;
use lajan_domain::settings::Settings;
use lajan_domain::{Tenant, Timestamp};

/// Filters for the disbursements list.
#[derive(Debug, Clone, Default)]
pub struct DisbursementQuery {
    pub status: Option<DisbursementStatus>,
    /// Matches the name, case-insensitively.
    pub search: Option<String>,
    pub page: PageRequest,
}

/// What the ledger holds of a disbursement's asset, for the balance its approval needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Funds {
    /// The organization's sandbox account, read (and locked) in the approval's transaction.
    SandboxAccount,
    /// A balance read from the network at `at` (`None`: the account holds no trustline for the
    /// asset). Payouts settled since then are counted as still to pay, since the reading may
    /// not show them yet.
    Observed { balance: Option<i64>, at: Timestamp },
}

/// The events a disbursement's change records: its own, and one per payout it moves.
pub struct DisbursementEvents<'a> {
    pub disbursement: EventFor<'a, Disbursement>,
    /// The store sets the type of each payout event it records.
    pub payout: EventFor<'a, PayoutDetail>,
}

/// How a submitted disbursement starts, from the tenant's settings: its status (pending
/// approval, or approved) and the events its submission records, in order (see
/// `lajan_domain::disbursement::submission`).
pub type SubmissionRule<'a> = &'a (dyn Fn(&Settings) -> (DisbursementStatus, &'static [&'static str]) + Send + Sync);

/// A change to a disbursement: its events built from the set below, its key answered with the
/// disbursement.
pub type DisbursementChange<'a> = Change<'a, &'a DisbursementEvents<'a>, Disbursement>;

#[async_trait]
pub trait DisbursementStore: Send + Sync {
    /// Stores a draft and its items with `disbursement.created`, and, first, the clients its
    /// rows named by phone or email that the organization did not have (each with its event).
    async fn create_disbursement(
        &self,
        tenant: &Tenant,
        disbursement: &Disbursement,
        items: &[DisbursementItem],
        new_clients: &[(Client, NewEvent)],
        event: EventFor<'_, Disbursement>,
        idempotency: Option<IdempotentResponse<'_, Disbursement>>,
    ) -> StoreResult<Disbursement>;

    async fn get_disbursement(&self, tenant: &Tenant, id: &str) -> StoreResult<Option<Disbursement>>;

    async fn list_disbursements(&self, tenant: &Tenant, query: &DisbursementQuery) -> StoreResult<Page<Disbursement>>;

    /// A page of the items of disbursement `id` in row order, with their payouts; `NotFound`
    /// when the tenant has no such disbursement.
    async fn list_disbursement_items(
        &self,
        tenant: &Tenant,
        id: &str,
        status: Option<ItemStatus>,
        page: PageRequest,
    ) -> StoreResult<Page<ItemDetail>>;

    /// Every item of disbursement `id` (with `status`), in row order: the report.
    async fn disbursement_report(
        &self,
        tenant: &Tenant,
        id: &str,
        status: Option<ItemStatus>,
    ) -> StoreResult<Vec<ItemDetail>>;

    /// Submits a draft: one payout per item (`type=disbursement`, pending approval) and the
    /// events `rule` names for the tenant's settings, read in this transaction; when the rule
    /// approves at once, the approval's balance check and events run too (`funds` must then be
    /// given, else `Conflict`).
    async fn submit_disbursement(
        &self,
        id: &str,
        key_id: &str,
        rule: SubmissionRule<'_>,
        funds: Option<Funds>,
        change: DisbursementChange<'_>,
    ) -> StoreResult<Disbursement>;

    /// Approves a disbursement pending approval and every payout of it. Refused with
    /// `cannot_approve` when the tenant's settings require a distinct approver and `key_id`
    /// submitted it, and with `insufficient_balance` when `funds` do not cover the batch plus
    /// every approved payout of the asset not yet settled.
    async fn approve_disbursement(
        &self,
        id: &str,
        key_id: &str,
        funds: Funds,
        change: DisbursementChange<'_>,
    ) -> StoreResult<Disbursement>;

    /// Rejects a disbursement pending approval and every payout of it.
    async fn reject_disbursement(
        &self,
        id: &str,
        reason: Option<&str>,
        change: DisbursementChange<'_>,
    ) -> StoreResult<Disbursement>;

    /// Queues every failed payout of the disbursement again (`payout.retried` each).
    async fn retry_failed_disbursement(&self, id: &str, change: DisbursementChange<'_>) -> StoreResult<Disbursement>;

    /// Deletes a draft and its items.
    async fn delete_disbursement(&self, tenant: &Tenant, id: &str) -> StoreResult<()>;

    /// The disbursements whose payouts are being executed (approved or processing).
    async fn running_disbursements(&self) -> StoreResult<Vec<(Tenant, String)>>;

    /// Moves a disbursement to the status its items' payouts add up to, with the event of that
    /// move (see `lajan_domain::disbursement::roll_up`).
    async fn roll_up_disbursement(
        &self,
        tenant: &Tenant,
        id: &str,
        at: Timestamp,
        event: EventFor<'_, Disbursement>,
    ) -> StoreResult<Disbursement>;
}
