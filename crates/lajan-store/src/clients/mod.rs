//! Clients: the people an organization bills and pays. Archived clients leave the lists but stay
//! readable, since invoices and payouts keep pointing at them.

use crate::{EventFor, IdempotentResponse, NewEvent, StoreResult};
use async_trait::async_trait;
use lajan_domain::client::{Client, ClientPatch};
use lajan_domain::pagination::{Page, PageRequest};
use lajan_domain::payout::PayoutDetail;
use lajan_domain::stellar_memo::StellarMemo;
use lajan_domain::{Tenant, Timestamp};

/// A wallet given to a client: its address, and the memo it needs when it is a custodial wallet
/// or an exchange. The payouts waiting for the client take both.
#[derive(Debug, Clone, Copy)]
pub struct ClientWallet<'a> {
    pub address: &'a str,
    pub memo: Option<&'a StellarMemo>,
}

/// What a client's change may do to the payouts waiting for them.
#[derive(Clone, Copy, Default)]
pub struct WaitingPayouts<'a> {
    /// A wallet given may send approved payouts waiting for it (the caller may approve payouts);
    /// otherwise such a change is refused (`forbidden`).
    pub may_release_approved: bool,
    /// A change of who receives what waits (phone, email, the question) takes approved payouts
    /// waiting for the registration back to pending approval, each with this event
    /// (`payout.approval_withdrawn`); without it such a change is refused (`forbidden`).
    pub withdrawn: Option<EventFor<'a, PayoutDetail>>,
}

/// Filters for the clients list.
#[derive(Debug, Clone, Default)]
pub struct ClientQuery {
    /// Matches name, email, phone number or wallet address, case-insensitively.
    pub search: Option<String>,
    pub page: PageRequest,
}

#[async_trait]
pub trait ClientStore: Send + Sync {
    async fn create_client(
        &self,
        tenant: &Tenant,
        client: &Client,
        event: &NewEvent,
        idempotency: Option<IdempotentResponse<'_, Client>>,
    ) -> StoreResult<()>;
    /// A client that is not archived.
    async fn get_client(&self, tenant: &Tenant, id: &str) -> StoreResult<Option<Client>>;
    /// The clients among `ids` that exist and are not archived, in no particular order: a batch
    /// resolves thousands of rows in a few queries.
    async fn get_clients(&self, tenant: &Tenant, ids: &[String]) -> StoreResult<Vec<Client>>;
    /// The clients (not archived) whose phone number is among `phones` or whose email is among
    /// `emails` (compared without case), in no particular order: a disbursement's rows find
    /// their receivers in a few indexed queries.
    async fn clients_by_contact(
        &self,
        tenant: &Tenant,
        phones: &[String],
        emails: &[String],
    ) -> StoreResult<Vec<Client>>;
    /// A client even when archived, for the resources that reference it.
    async fn get_client_including_archived(&self, tenant: &Tenant, id: &str) -> StoreResult<Option<Client>>;
    async fn list_clients(&self, tenant: &Tenant, query: &ClientQuery) -> StoreResult<Page<Client>>;
    /// Applies `patch`; writes the event only when something changed. `NotFound` if archived or
    /// absent. A client with a wallet after it releases its payouts waiting for one, in the same
    /// transaction (see `payouts/registration_sql.rs`): the client, and how many were released.
    /// `Rejected` (`forbidden`) when an approved one waits and not `may_release_approved`.
    async fn update_client(
        &self,
        tenant: &Tenant,
        id: &str,
        patch: &ClientPatch,
        waiting: WaitingPayouts<'_>,
        at: Timestamp,
        event: EventFor<'_, Client>,
    ) -> StoreResult<(Client, u64)>;
    /// Archives the client. `NotFound` if archived or absent.
    async fn archive_client(
        &self,
        tenant: &Tenant,
        id: &str,
        at: Timestamp,
        event: EventFor<'_, Client>,
    ) -> StoreResult<Client>;
}
