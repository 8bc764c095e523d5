//! The invoice form (makers and admins), new and editing a draft: client, currency, due date,
//! memo, line items, instalments, and whether the first send pays from the client's credit
//! balance. Rows are added and removed by buttons that post the form back to itself (no script
//! needed); a row left blank is none. Saving goes through `create_invoice` (once however often
//! posted) or `update_invoice`, as the user.

use crate::guard::Makers;
use crate::guard::{Protected, Signed, filled};
use crate::lists;
use crate::numbers::TypedNumbers;
use crate::once::{self, Before};
use crate::pages::{self, render};
use crate::state::Console;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use lajan_domain::id::IdKind;
use lajan_domain::installment::InstallmentInput;
use lajan_domain::invoice::{InvoiceDetail, InvoiceStatus, LineItemInput};
use lajan_domain::money::Currency;
use lajan_domain::user::Duty;
use lajan_i18n::say;
use lajan_services::ServiceError;
use lajan_services::invoices::{InvoiceRequest, InvoiceUpdate};
use lajan_services::views::invoices::InvoiceView;
use lajan_store::{IdempotentResponse, StoreError};
use minijinja::context;
use serde::{Deserialize, Serialize};

/// Blank line rows a new invoice starts with.
const BLANK_LINES: usize = 3;

#[derive(Serialize, Default, Clone)]
pub(crate) struct Line {
    description: String,
    quantity: String,
    unit_price: String,
    tax_rate: String,
}

impl Line {
    fn is_blank(&self) -> bool {
        [&self.description, &self.quantity, &self.unit_price, &self.tax_rate].iter().all(|f| f.trim().is_empty())
    }
}

/// An instalment row: its due date and amount as typed.
#[derive(Serialize, Default, Clone)]
pub(crate) struct PlanRow {
    due_date: String,
    amount: String,
}

impl PlanRow {
    fn is_blank(&self) -> bool {
        self.due_date.trim().is_empty() && self.amount.trim().is_empty()
    }
}

#[derive(Serialize, Default)]
pub(crate) struct InvoiceForm {
    once: String,
    client: String,
    currency: String,
    due_date: String,
    memo: String,
    lines: Vec<Line>,
    installments: Vec<PlanRow>,
    apply_credit_balance: bool,
}

/// What the post asks for: save, or one more line or instalment row, or one row fewer.
enum Asked {
    Save,
    AddLine,
    /// Remove the row at this index; `None` for a row the form does not have (a forged or
    /// stale post), which saves nothing and shows the form again.
    RemoveLine(Option<usize>),
    AddInstallment,
    RemoveInstallment(Option<usize>),
}

/// The form from its posted fields: the line fields come once per row, in row order.
fn read(pairs: &[(String, String)]) -> (InvoiceForm, Asked) {
    let mut form = InvoiceForm::default();
    let mut asked = Asked::Save;
    let (mut descriptions, mut quantities, mut prices, mut rates) = (vec![], vec![], vec![], vec![]);
    let (mut due_dates, mut amounts) = (vec![], vec![]);
    for (name, value) in pairs {
        let value = value.clone();
        match name.as_str() {
            "once" => form.once = value,
            "client" => form.client = value,
            "currency" => form.currency = value,
            "due_date" => form.due_date = value,
            "memo" => form.memo = value,
            "description" => descriptions.push(value),
            "quantity" => quantities.push(value),
            "unit_price" => prices.push(value),
            "tax_rate" => rates.push(value),
            "installment_due" => due_dates.push(value),
            "installment_amount" => amounts.push(value),
            "apply_credit_balance" => form.apply_credit_balance = !value.is_empty(),
            "add_line" => asked = Asked::AddLine,
            "remove_line" => asked = Asked::RemoveLine(value.parse().ok()),
            "add_installment" => asked = Asked::AddInstallment,
            "remove_installment" => asked = Asked::RemoveInstallment(value.parse().ok()),
            _ => {}
        }
    }
    let rows = descriptions.len().max(quantities.len()).max(prices.len()).max(rates.len());
    let cell = |column: &mut Vec<String>, i: usize| column.get_mut(i).map(std::mem::take).unwrap_or_default();
    form.lines = (0..rows)
        .map(|i| Line {
            description: cell(&mut descriptions, i),
            quantity: cell(&mut quantities, i),
            unit_price: cell(&mut prices, i),
            tax_rate: cell(&mut rates, i),
        })
        .collect();
    let rows = due_dates.len().max(amounts.len());
    form.installments =
        (0..rows).map(|i| PlanRow { due_date: cell(&mut due_dates, i), amount: cell(&mut amounts, i) }).collect();
    (form, asked)
}

/// The rows that are lines, as the API's line items, their numbers read as typed.
fn line_items(form: &InvoiceForm, numbers: &mut TypedNumbers) -> Vec<LineItemInput> {
    let lines = form.lines.iter().filter(|l| !l.is_blank()).enumerate();
    lines
        .map(|(i, l)| LineItemInput {
            description: filled(&l.description),
            quantity: numbers.read(&format!("lineItems[{i}].quantity"), &l.quantity),
            unit_price: numbers.read(&format!("lineItems[{i}].unitPrice"), &l.unit_price),
            tax_rate: numbers.read(&format!("lineItems[{i}].taxRate"), &l.tax_rate),
        })
        .collect()
}

/// The rows that are instalments, as the API's plan (empty: due at once).
fn plan(form: &InvoiceForm, numbers: &mut TypedNumbers) -> Vec<InstallmentInput> {
    let rows = form.installments.iter().filter(|r| !r.is_blank()).enumerate();
    rows.map(|(i, r)| InstallmentInput {
        amount: numbers.read(&format!("installments[{i}].amount"), &r.amount),
        due_date: filled(&r.due_date),
    })
    .collect()
}

/// Where the form posts: a new invoice, or the draft `id`.
fn action_of(editing: Option<&str>) -> String {
    editing.map_or_else(|| "/console/invoices".to_owned(), |id| format!("/console/invoices/{id}/edit"))
}

async fn form_page(
    console: &Console,
    signed: &Signed,
    status: StatusCode,
    form: &InvoiceForm,
    editing: Option<&str>,
    errors: Vec<String>,
) -> Response {
    let clients = match lists::client_choices(console, &signed.session.tenant()).await {
        Ok(clients) => clients,
        Err(e) => return pages::failure(&e),
    };
    let currencies: Vec<&str> = Currency::ALL.iter().map(|c| c.code()).collect();
    let values = context! { frame => signed.frame(), form, clients, currencies, errors,
    action => action_of(editing), editing };
    render(status, "invoice_form.html", values)
}

/// `?client=` on the new invoice form: the client it is for (from the client's page).
#[derive(Deserialize)]
pub(crate) struct For {
    #[serde(default)]
    client: String,
}

pub(crate) async fn new(State(console): State<Console>, signed: Signed, Query(asked): Query<For>) -> Response {
    if let Some(refused) = signed.refused_unless(Duty::Prepare) {
        return refused;
    }
    let once = match once::new_key() {
        Ok(once) => once,
        Err(e) => return pages::failure(&e),
    };
    let lines = vec![Line::default(); BLANK_LINES];
    let form = InvoiceForm { once, client: asked.client, lines, ..Default::default() };
    form_page(&console, &signed, StatusCode::OK, &form, None, Vec::new()).await
}

/// A line added or removed: the same form again, one row more or fewer, nothing saved.
fn rearranged(form: &mut InvoiceForm, asked: &Asked) -> bool {
    match asked {
        Asked::Save => return false,
        Asked::AddLine => form.lines.push(Line::default()),
        Asked::RemoveLine(Some(i)) if *i < form.lines.len() => {
            form.lines.remove(*i);
        }
        Asked::AddInstallment => form.installments.push(PlanRow::default()),
        Asked::RemoveInstallment(Some(i)) if *i < form.installments.len() => {
            form.installments.remove(*i);
        }
        Asked::RemoveLine(_) | Asked::RemoveInstallment(_) => {}
    }
    true
}

pub(crate) async fn create(
    State(console): State<Console>,
    request: Protected<Vec<(String, String)>, Makers>,
) -> Response {
    let signed = &request.signed;
    let (mut form, asked) = read(&request.form);
    if rearranged(&mut form, &asked) {
        return form_page(&console, signed, StatusCode::OK, &form, None, Vec::new()).await;
    }
    let tenant = signed.session.tenant();
    let claim = match once::before(&console, &tenant, signed.frame(), "/console/invoices", &form.once).await {
        Ok(Before::Fresh(claim)) => claim,
        Ok(Before::Made(made)) => return made,
        Err(refused) => return refused,
    };
    let mut numbers = TypedNumbers::default();
    let invoice = InvoiceRequest {
        client_id: filled(&form.client),
        currency: filled(&form.currency),
        due_date: filled(&form.due_date),
        line_items: Some(line_items(&form, &mut numbers)),
        memo: filled(&form.memo),
        installments: Some(plan(&form, &mut numbers)),
        apply_credit_balance: form.apply_credit_balance,
        send_immediately: false,
    };
    let page_of = |d: &InvoiceDetail| format!("/console/invoices/{}", d.invoice.id);
    let body = |d: &InvoiceDetail| page_of(d).into_bytes();
    let answer = IdempotentResponse { claim: &claim, status: 303, body: &body };
    match console.services.create_invoice(&tenant, invoice, Some(answer)).await {
        Ok(made) => Redirect::to(&page_of(&made)).into_response(),
        Err(ServiceError::Store(StoreError::IdempotencyKeyTaken)) => once::taken(&console, &tenant, &claim).await,
        Err(ServiceError::Invalid(refusal)) => {
            form_page(&console, signed, StatusCode::BAD_REQUEST, &form, None, numbers.lines(&refusal)).await
        }
        Err(e) => pages::failure(&e),
    }
}

pub(crate) async fn edit(State(console): State<Console>, signed: Signed, Path(id): Path<String>) -> Response {
    if let Some(refused) = signed.refused_unless(Duty::Prepare) {
        return refused;
    }
    let tenant = signed.session.tenant();
    let read = || console.services.store.get_invoice(&tenant, &id);
    let detail = match pages::record(|| signed.frame(), IdKind::Invoice, &id, read).await {
        Ok(detail) => detail,
        Err(page) => return page,
    };
    if detail.invoice.status != InvoiceStatus::Draft {
        let text = say("only-draft-editable");
        let frame = signed.frame();
        return render(StatusCode::CONFLICT, "message.html", context! { frame, title => say("not-a-draft"), text });
    }
    let view = InvoiceView::from_detail(&detail, &console.services.config.public_url);
    let mut lines: Vec<Line> = view
        .line_items
        .iter()
        .map(|l| Line {
            description: l.description.clone(),
            quantity: l.quantity.to_string(),
            unit_price: l.unit_price.clone(),
            tax_rate: l.tax_rate.to_string(),
        })
        .collect();
    lines.push(Line::default());
    let installments =
        view.installments.iter().map(|i| PlanRow { due_date: i.due_date.clone(), amount: i.amount.clone() }).collect();
    let form = InvoiceForm {
        once: String::new(),
        client: view.client_id,
        currency: view.currency,
        // With a plan the due date is its last instalment's: left empty, it follows the plan.
        due_date: if view.installments.is_empty() { view.due_date } else { String::new() },
        memo: view.memo.unwrap_or_default(),
        lines,
        installments,
        apply_credit_balance: view.apply_credit_balance,
    };
    form_page(&console, &signed, StatusCode::OK, &form, Some(&id), Vec::new()).await
}

pub(crate) async fn update(
    State(console): State<Console>,
    Path(id): Path<String>,
    request: Protected<Vec<(String, String)>, Makers>,
) -> Response {
    let signed = &request.signed;
    let (mut form, asked) = read(&request.form);
    if rearranged(&mut form, &asked) {
        return form_page(&console, signed, StatusCode::OK, &form, Some(&id), Vec::new()).await;
    }
    // Saving the same changes twice leaves the draft as once: no key needed.
    let mut numbers = TypedNumbers::default();
    let changes = InvoiceUpdate {
        client_id: filled(&form.client),
        currency: filled(&form.currency),
        due_date: filled(&form.due_date),
        line_items: Some(line_items(&form, &mut numbers)),
        memo: Some(filled(&form.memo)),
        // The form shows the whole plan: what it holds now is the plan (none: due at once).
        installments: Some(plan(&form, &mut numbers)),
        apply_credit_balance: Some(form.apply_credit_balance),
    };
    match console.services.update_invoice(&signed.session.tenant(), &id, changes).await {
        Ok(_) => Redirect::to(&format!("/console/invoices/{id}")).into_response(),
        Err(ServiceError::NotFound(_)) => pages::not_found(signed.frame()),
        Err(ServiceError::Invalid(refusal)) => {
            form_page(&console, signed, StatusCode::BAD_REQUEST, &form, Some(&id), numbers.lines(&refusal)).await
        }
        Err(e) => pages::failure(&e),
    }
}
