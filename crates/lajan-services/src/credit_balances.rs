//! A client's credit balance: what the organization holds for the client per currency, and the
//! moves that explain it.

use crate::{ServiceError, ServiceResult, Services};
use lajan_domain::Tenant;
use lajan_domain::credit_balance::{CreditBalance, CreditTransaction};
use lajan_domain::pagination::{Page, PageRequest};

impl Services {
    /// The tenant's client `id`'s credit balance in each currency it ever held one in;
    /// `NotFound` for a client that is not the tenant's.
    pub async fn client_credit_balances(&self, tenant: &Tenant, id: &str) -> ServiceResult<Vec<CreditBalance>> {
        self.store.client_credit_balances(tenant, id).await?.ok_or(ServiceError::NotFound("client"))
    }

    /// The moves of the tenant's client `id`'s credit balance, newest first; `NotFound` for a
    /// client that is not the tenant's.
    pub async fn client_credit_transactions(
        &self,
        tenant: &Tenant,
        id: &str,
        page: PageRequest,
    ) -> ServiceResult<Page<CreditTransaction>> {
        self.store.list_credit_transactions(tenant, id, page).await?.ok_or(ServiceError::NotFound("client"))
    }
}
