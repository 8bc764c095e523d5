//! A client's statement: the client's invoices with what each still asks, what the client owes
//! in all and what the organization holds for them, for a clerk to hand over printed or as CSV.

use crate::{ServiceError, ServiceResult, Services};
use lajan_domain::Tenant;
use lajan_domain::client::Client;
use lajan_domain::credit_balance::CreditBalance;
use lajan_domain::invoice::{InvoiceDetail, InvoiceStatus};
use lajan_domain::money::Currency;
use lajan_domain::statement::owed_by_currency;

/// The most invoices a statement lists, newest first: more than an MFI's client holds over
/// years, and still a page a clerk can print.
pub const STATEMENT_INVOICES: u32 = 200;

/// The most open invoices what is owed is summed over when the client has more invoices than
/// a statement lists (far beyond any loan book's client).
const OPEN_INVOICES: u32 = 1_000;

/// A client's statement, read at one moment.
#[derive(Debug, Clone)]
pub struct ClientStatement {
    pub client: Client,
    /// The client's newest invoices, at most [`STATEMENT_INVOICES`].
    pub invoices: Vec<InvoiceDetail>,
    /// Whether the client has older invoices than those listed.
    pub older: bool,
    /// What the client owes, per currency, on every invoice (listed or older).
    pub owed: Vec<(Currency, i64)>,
    /// What the organization holds for the client, per currency, where it holds something.
    pub credit: Vec<CreditBalance>,
}

impl Services {
    /// The statement of the tenant's client `id` (an archived one included); `NotFound` for a
    /// client that is not the tenant's.
    pub async fn client_statement(&self, tenant: &Tenant, id: &str) -> ServiceResult<ClientStatement> {
        let client =
            self.store.get_client_including_archived(tenant, id).await?.ok_or(ServiceError::NotFound("client"))?;
        let listed = usize::try_from(STATEMENT_INVOICES).unwrap_or(usize::MAX);
        let mut invoices = self.store.client_invoices(tenant, id, &[], STATEMENT_INVOICES + 1).await?;
        let older = invoices.len() > listed;
        invoices.truncate(listed);
        let owed = if older {
            // Only open invoices owe anything: those of them older than the listed ones count too.
            let open: Vec<InvoiceStatus> = InvoiceStatus::ALL.iter().copied().filter(|s| s.is_payable()).collect();
            let open = self.store.client_invoices(tenant, id, &open, OPEN_INVOICES).await?;
            owed_by_currency(open.iter().map(|d| &d.invoice))
        } else {
            owed_by_currency(invoices.iter().map(|d| &d.invoice))
        };
        let balances = self.store.client_credit_balances(tenant, id).await?.unwrap_or_default();
        let credit = balances.into_iter().filter(|b| b.amount > 0).collect();
        Ok(ClientStatement { client, invoices, older, owed, credit })
    }
}
