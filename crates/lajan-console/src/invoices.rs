//! The invoices pages: the list (by status and client, with search) and one invoice with its
//! line items, instalments, credit notes and payments (with the forms that issue one and record
//! one received outside Lajan), payment link and timeline.

use crate::confirm::Done;
use crate::guard::Signed;
use crate::lists::{self, BadQuery, ListQuery, given};
use crate::pages::{self, Refused, render};
use crate::state::Console;
use crate::timeline;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use lajan_domain::id::IdKind;
use lajan_domain::invoice::InvoiceStatus;
use lajan_domain::pagination::PageRequest;
use lajan_i18n::say;
use lajan_services::views::credit_notes::CreditNoteView;
use lajan_services::views::invoice_payments::InvoicePaymentView;
use lajan_services::views::invoices::{InvoiceSummary, InvoiceView};
use lajan_services::views::messages::MessageView;
use lajan_store::invoices::InvoiceQuery;
use lajan_store::messages::MessageQuery;
use minijinja::context;

pub(crate) async fn list(
    State(console): State<Console>,
    signed: Signed,
    Query(query): Query<ListQuery>,
) -> Result<Response, Refused> {
    let found = console.services.store.list_invoices(&signed.session.tenant(), &invoice_query(&query)?).await?;
    let invoices: Vec<InvoiceSummary> = found.items.iter().map(InvoiceSummary::from_detail).collect();
    let statuses: Vec<&str> = InvoiceStatus::ALL.iter().map(|s| s.as_str()).collect();
    let frame = signed.frame();
    Ok(render(StatusCode::OK, "invoices.html", context! { frame, invoices, statuses, ..query.shown(&found) }))
}

/// The list's query as the store reads it; a filter that names nothing is a 400 page.
fn invoice_query(query: &ListQuery) -> Result<InvoiceQuery, BadQuery> {
    let client_id = given(&query.client).map(str::to_owned);
    if client_id.as_deref().is_some_and(|id| !IdKind::Client.is_id(id)) {
        return Err(BadQuery { title: say("no-such-client"), text: say("choose-client-from-page") });
    }
    Ok(InvoiceQuery {
        status: lists::filter(&query.status, "no-such-status")?,
        client_id,
        search: query.search()?,
        page: query.page()?,
    })
}

pub(crate) async fn detail(
    State(console): State<Console>,
    signed: Signed,
    Path(id): Path<String>,
    Query(done): Query<Done>,
) -> Response {
    let tenant = signed.session.tenant();
    let read = || console.services.store.get_invoice(&tenant, &id);
    let detail = match pages::record(|| signed.frame(), IdKind::Invoice, &id, read).await {
        Ok(detail) => detail,
        Err(page) => return page,
    };
    let frame = signed.frame();
    let (invoice, currency) =
        (InvoiceView::from_detail(&detail, &console.services.config.public_url), detail.invoice.currency);
    // Sending would be refused: the page says why before anyone tries.
    let no_contact = !detail.client.reachable();
    let events = match timeline::of(&console.services, &tenant, &id).await {
        Ok(events) => events,
        Err(e) => return pages::failure(&e),
    };
    // The invoice is read already: its payments alone, not the invoice again.
    let payments = match console.services.store.list_invoice_payments(&tenant, &id, PageRequest::default()).await {
        Ok(page) => page.items.iter().map(|p| InvoicePaymentView::of(p, currency)).collect::<Vec<_>>(),
        Err(e) => return pages::failure(&e.into()),
    };
    let credit_notes = match console.services.store.invoice_credit_notes(&tenant, &id).await {
        Ok(notes) => notes.iter().map(|n| CreditNoteView::of(n, currency)).collect::<Vec<_>>(),
        Err(e) => return pages::failure(&e.into()),
    };
    // The statement a clerk hands over, printed under the organization's name.
    let statement = match crate::statements::invoice_statement(&console, &signed, &id).await {
        Ok(found) => found.map(|(_, lines)| lines).unwrap_or_default(),
        Err(Refused(page)) => return page,
    };
    let organization = match crate::statements::organization_name(&console, &signed).await {
        Ok(name) => name,
        Err(Refused(page)) => return page,
    };
    let about = MessageQuery { invoice_id: Some(id.clone()), page: PageRequest::numbered(1, 10), ..Default::default() };
    let (messages, more_messages) = match console.services.store.list_messages(&tenant, &about).await {
        Ok(page) => (page.items.iter().map(MessageView::from).collect::<Vec<_>>(), page.total_pages() > 1),
        Err(e) => return pages::failure(&e.into()),
    };
    // The forms' one-time keys: a payment or credit note posted twice is made once.
    let (payment_once, credit_once) = match (crate::once::new_key(), crate::once::new_key()) {
        (Ok(payment), Ok(credit)) => (payment, credit),
        (Err(e), _) | (_, Err(e)) => return pages::failure(&e),
    };
    // Quantities and tax rates are exact JSON numbers, which only serde_json can print.
    let lines: Vec<_> = invoice
        .line_items
        .iter()
        .map(|l| {
            context! { description => l.description, quantity => l.quantity.to_string(), unit_price => l.unit_price,
            tax_rate => l.tax_rate.to_string(), amount => l.amount }
        })
        .collect();
    let page = context! { frame, invoice, lines, events, payments, payment_once, credit_notes, credit_once, messages,
    more_messages, no_contact, statement, organization, notice => done.notice() };
    render(StatusCode::OK, "invoice.html", page)
}
