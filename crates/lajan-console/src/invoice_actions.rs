//! What a maker does to an invoice from its page: send it (by email, SMS or both), void it
//! (once confirmed), record a payment received outside Lajan (one above what is owed once
//! confirmed), reverse a payment counted by
//! mistake, and issue or void a credit note, through the API's service methods as the user,
//! each followed by its page saying it was done. Sending, voiding or
//! reversing twice is refused by the state, as in the API; a payment or credit note form posted
//! twice makes one (its one-time key).

use crate::confirm::{self, Confirm};
use crate::domain_text;
use crate::guard::Makers;
use crate::guard::{Protected, Signed};
use crate::numbers::TypedNumbers;
use crate::once::{self, Before};
use crate::pages::{self, Frame, WayBack};
use crate::state::Console;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use lajan_domain::credit_note::CreditNoteInput;
use lajan_domain::id::IdKind;
use lajan_domain::invoice_payment::OutsidePaymentInput;
use lajan_domain::message::Channel;
use lajan_domain::money::{format_scaled, parse_amount};
use lajan_domain::validation::parse_reason;
use lajan_i18n::{say, say_with};
use lajan_services::ServiceError;
use lajan_store::credit_notes::CreditNoteOnInvoice;
use lajan_store::incoming_payments::PaymentOnInvoice;
use lajan_store::{IdempotentResponse, StoreError};
use serde::Deserialize;

#[derive(Deserialize)]
pub(crate) struct SendForm {
    /// `email`, `sms`, or empty for every channel the client can receive.
    #[serde(default)]
    channel: String,
}

#[derive(Deserialize)]
pub(crate) struct VoidForm {
    #[serde(default)]
    reason: String,
    /// Set by the confirmation page's button: voiding an invoice asks first.
    #[serde(default)]
    confirmed: Option<String>,
}

pub(crate) async fn send(
    State(console): State<Console>,
    Path(id): Path<String>,
    request: Protected<SendForm, Makers>,
) -> Response {
    let signed = &request.signed;
    let frame = signed.frame();
    let channels: Vec<Channel> = match request.form.channel.as_str() {
        "" => Vec::new(),
        one => match Channel::INVOICE.iter().find(|c| c.as_str() == one) {
            Some(channel) => vec![*channel],
            None => return not_done(frame, &id, StatusCode::BAD_REQUEST, &say("choose-channel")),
        },
    };
    let sent = console.services.send_invoice(&signed.session.tenant(), &id, &channels, None).await;
    finish(frame, &id, sent.map(drop), "sent")
}

pub(crate) async fn void(
    State(console): State<Console>,
    Path(id): Path<String>,
    request: Protected<VoidForm, Makers>,
) -> Response {
    let signed = &request.signed;
    let frame = signed.frame();
    let reason = match parse_reason(Some(&request.form.reason)) {
        Ok(reason) => reason.filter(|r| !r.is_empty()),
        Err(invalid) => {
            return not_done(frame, &id, StatusCode::BAD_REQUEST, &domain_text::field_lines(&invalid).join(" "));
        }
    };
    if request.form.confirmed.is_none() {
        return confirm_void(&console, signed, &id, &request.form.reason).await;
    }
    let voided = console.services.void_invoice(&signed.session.tenant(), &id, reason.as_deref(), None).await;
    finish(frame, &id, voided.map(drop), "voided")
}

/// The page asking to confirm voiding invoice `id`, naming its number and total.
async fn confirm_void(console: &Console, signed: &Signed, id: &str, reason: &str) -> Response {
    let tenant = signed.session.tenant();
    let read = || console.services.store.get_invoice(&tenant, id);
    let detail = match pages::record(|| signed.frame(), IdKind::Invoice, id, read).await {
        Ok(detail) => detail,
        Err(page) => return page,
    };
    let invoice = &detail.invoice;
    let total = confirm::money(&format_scaled(invoice.totals.total, 2), invoice.currency.code());
    let back = format!("/console/invoices/{id}");
    let text = say_with("confirm-void-invoice", &[("number", invoice.number.clone()), ("amount", total)]);
    let fields = vec![("reason", reason.to_owned())];
    confirm::page(signed.frame(), Confirm { text, fields, button: "confirm-yes-void", danger: true, back: &back })
}

#[derive(Deserialize)]
pub(crate) struct PaymentForm {
    #[serde(default)]
    amount: String,
    #[serde(default)]
    method: String,
    #[serde(default)]
    reference: String,
    /// The form's one-time key.
    #[serde(default)]
    once: String,
    /// Set by the confirmation page's button: a payment above what is owed asks first.
    confirmed: Option<String>,
}

pub(crate) async fn record_payment(
    State(console): State<Console>,
    Path(id): Path<String>,
    request: Protected<PaymentForm, Makers>,
) -> Response {
    let (signed, form) = (&request.signed, &request.form);
    if form.confirmed.is_none()
        && let Some(ask) = confirm_overpayment(&console, signed, &id, form).await
    {
        return ask;
    }
    let tenant = signed.session.tenant();
    let path = format!("/console/invoices/{id}/payments");
    let claim = match once::before(&console, &tenant, signed.frame(), &path, &form.once).await {
        Ok(Before::Fresh(claim)) => claim,
        Ok(Before::Made(made)) => return made,
        Err(refused) => return refused,
    };
    let mut numbers = TypedNumbers::default();
    let input = OutsidePaymentInput {
        amount: Some(numbers.read("amount", &form.amount).unwrap_or_default()),
        method: Some(form.method.clone()),
        reference: Some(form.reference.clone()).filter(|r| !r.trim().is_empty()),
        paid_at: None,
    };
    // A form posted again is answered as the first post was: the page saying it was done.
    let page = confirm::reported(&format!("/console/invoices/{id}"), "payment");
    let body = |_: &PaymentOnInvoice| page.clone().into_bytes();
    let answer = IdempotentResponse { claim: &claim, status: 303, body: &body };
    match console.services.record_invoice_payment(&tenant, &id, input, Some(answer)).await {
        Err(ServiceError::Store(StoreError::IdempotencyKeyTaken)) => once::taken(&console, &tenant, &claim).await,
        recorded => finish_typed(signed.frame(), &id, recorded.map(drop), "payment", &numbers),
    }
}

/// The page asking to confirm a payment above what invoice `id` owes (a typo of `99 999,00` for
/// `2 401,00` is the case it is for), naming the excess and that it goes to the client's credit
/// balance; `None` when the payment is not above it (or not an amount: the record refuses it).
async fn confirm_overpayment(console: &Console, signed: &Signed, id: &str, form: &PaymentForm) -> Option<Response> {
    let plain = TypedNumbers::default().read("amount", &form.amount)?;
    let amount = parse_amount("amount", &plain).ok()?;
    let detail = console.services.store.get_invoice(&signed.session.tenant(), id).await.ok()??;
    let owed = detail.invoice.amount_remaining();
    if amount <= owed {
        return None;
    }
    let unit = detail.invoice.currency.code();
    let money = |cents: i64| confirm::money(&format_scaled(cents, 2), unit);
    let client = format!("{} {}", detail.client.first_name, detail.client.last_name);
    let args = [
        ("amount", money(amount)),
        ("owed", money(owed)),
        ("excess", money(amount - owed)),
        ("number", detail.invoice.number.clone()),
        ("client", client),
    ];
    let text = say_with("confirm-overpayment", &args);
    let fields = vec![
        ("amount", form.amount.clone()),
        ("method", form.method.clone()),
        ("reference", form.reference.clone()),
        ("once", form.once.clone()),
    ];
    let back = format!("/console/invoices/{id}");
    Some(confirm::page(
        signed.frame(),
        Confirm { text, fields, button: "confirm-yes-record-payment", danger: false, back: &back },
    ))
}

#[derive(Deserialize)]
pub(crate) struct ReverseForm {
    #[serde(default)]
    reason: String,
}

pub(crate) async fn reverse_payment(
    State(console): State<Console>,
    Path((id, payment_id)): Path<(String, String)>,
    request: Protected<ReverseForm, Makers>,
) -> Response {
    let signed = &request.signed;
    let tenant = signed.session.tenant();
    let reason = Some(request.form.reason.as_str());
    let reversed = console.services.reverse_invoice_payment(&tenant, &id, &payment_id, reason, None).await;
    match reversed {
        Err(ServiceError::Invalid(invalid)) if invalid.code == "validation_error" => {
            not_done(signed.frame(), &id, StatusCode::BAD_REQUEST, &domain_text::field_lines(&invalid).join(" "))
        }
        reversed => finish(signed.frame(), &id, reversed.map(drop), "reversed"),
    }
}

#[derive(Deserialize)]
pub(crate) struct CreditNoteForm {
    #[serde(default)]
    amount: String,
    #[serde(default)]
    reason: String,
    #[serde(default)]
    memo: String,
    /// The form's one-time key.
    #[serde(default)]
    once: String,
}

pub(crate) async fn issue_credit_note(
    State(console): State<Console>,
    Path(id): Path<String>,
    request: Protected<CreditNoteForm, Makers>,
) -> Response {
    let (signed, form) = (&request.signed, &request.form);
    let tenant = signed.session.tenant();
    let path = format!("/console/invoices/{id}/credit-notes");
    let claim = match once::before(&console, &tenant, signed.frame(), &path, &form.once).await {
        Ok(Before::Fresh(claim)) => claim,
        Ok(Before::Made(made)) => return made,
        Err(refused) => return refused,
    };
    let mut numbers = TypedNumbers::default();
    let input = CreditNoteInput {
        amount: Some(numbers.read("amount", &form.amount).unwrap_or_default()),
        lines: None,
        reason: Some(form.reason.clone()),
        memo: Some(form.memo.clone()).filter(|m| !m.trim().is_empty()),
    };
    let page = confirm::reported(&format!("/console/invoices/{id}"), "credit-note");
    let body = |_: &CreditNoteOnInvoice| page.clone().into_bytes();
    let answer = IdempotentResponse { claim: &claim, status: 303, body: &body };
    match console.services.issue_credit_note(&tenant, &id, input, Some(answer)).await {
        Err(ServiceError::Store(StoreError::IdempotencyKeyTaken)) => once::taken(&console, &tenant, &claim).await,
        issued => finish_typed(signed.frame(), &id, issued.map(drop), "credit-note", &numbers),
    }
}

pub(crate) async fn void_credit_note(
    State(console): State<Console>,
    Path((id, credit_note_id)): Path<(String, String)>,
    request: Protected<VoidForm, Makers>,
) -> Response {
    let signed = &request.signed;
    let voided = console.services.void_credit_note(&signed.session.tenant(), &id, &credit_note_id, None).await;
    finish(signed.frame(), &id, voided.map(drop), "credit-note-voided")
}

/// Back to the invoice's page, saying `act` was done, when it was; else a page saying why not.
fn finish(frame: Frame, id: &str, done: Result<(), ServiceError>, act: &str) -> Response {
    finish_typed(frame, id, done, act, &TypedNumbers::default())
}

/// [`finish`] for a form with number fields, each read as `numbers` read it.
fn finish_typed(frame: Frame, id: &str, done: Result<(), ServiceError>, act: &str, numbers: &TypedNumbers) -> Response {
    match done {
        Ok(()) => Redirect::to(&confirm::reported(&format!("/console/invoices/{id}"), act)).into_response(),
        Err(ServiceError::NotFound(_)) => pages::not_found(frame),
        Err(ServiceError::Invalid(refusal)) => {
            not_done(frame, id, StatusCode::CONFLICT, &numbers.lines(&refusal).join(" "))
        }
        Err(e) => pages::failure(&e),
    }
}

fn not_done(frame: Frame, id: &str, status: StatusCode, text: &str) -> Response {
    let href = format!("/console/invoices/{id}");
    pages::refused(frame, status, &say("not-done"), text, WayBack { href: &href, label: say("back-to-invoice") })
}
