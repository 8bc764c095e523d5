//! Clients' credit balances: what the organization holds for each client per currency, and the
//! transactions that moved it (each with why, the invoice that made it, and the balance it left).
//! The balance moves only inside the transaction that changes an invoice's money.

use crate::StoreResult;
use async_trait::async_trait;
use lajan_domain::Tenant;
use lajan_domain::credit_balance::{CreditBalance, CreditTransaction};
use lajan_domain::pagination::{Page, PageRequest};

#[async_trait]
pub trait CreditBalanceStore: Send + Sync {
    /// The tenant's client `client_id`'s credit balance in each currency it ever held one in
    /// (zero included), by currency; `None` for a client that is not the tenant's.
    async fn client_credit_balances(&self, tenant: &Tenant, client_id: &str)
    -> StoreResult<Option<Vec<CreditBalance>>>;

    /// The moves of the tenant's client `client_id`'s credit balance, newest first; `None` for
    /// a client that is not the tenant's.
    async fn list_credit_transactions(
        &self,
        tenant: &Tenant,
        client_id: &str,
        page: PageRequest,
    ) -> StoreResult<Option<Page<CreditTransaction>>>;
}
