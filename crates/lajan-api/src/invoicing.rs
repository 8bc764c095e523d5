//! How invoices, payment links and their events look from outside: the response views, the
//! event objects built from them, the payment-page URL, and the notification messages.

use lajan_domain::id::IdKind;
use lajan_domain::invoice::LineItem;
use lajan_domain::money::format_scaled;
use lajan_domain::{Invalid, Timestamp};
use lajan_store::NewEvent;
use lajan_store::invoices::{Channel, InvoiceDetail, NewMessage, PaymentLink};
use serde::Serialize;
use std::str::FromStr;
use utoipa::ToSchema;

/// Money as the API shows it: a decimal string with two places.
pub fn money(cents: i64) -> String {
    format_scaled(cents, 2)
}

/// An exact JSON number from its decimal text.
pub fn number(text: &str) -> serde_json::Number {
    serde_json::Number::from_str(text).unwrap_or_else(|_| serde_json::Number::from(0))
}

/// The hosted payment page of an intent.
pub fn pay_url(public_url: &str, intent_id: &str) -> String {
    format!("{public_url}/pay/{intent_id}")
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ClientSummary {
    pub id: String,
    pub first_name: String,
    pub last_name: String,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ClientContact {
    pub id: String,
    pub first_name: String,
    pub last_name: String,
    pub email: Option<String>,
}

/// A row of the invoices list.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InvoiceSummary {
    #[schema(example = "inv_01a1fc8be56c7228a813c8461b65a699")]
    pub id: String,
    #[schema(example = "INV-000042")]
    pub invoice_number: String,
    pub client_id: String,
    pub client: ClientSummary,
    /// The total, as a decimal string.
    #[schema(example = "1250.00")]
    pub amount: String,
    #[schema(example = "HTG")]
    pub currency: String,
    #[schema(example = "sent")]
    pub status: String,
    #[schema(example = "2026-12-01")]
    pub due_date: String,
    #[schema(value_type = String, format = DateTime)]
    pub created_at: Timestamp,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LineItemView {
    pub description: String,
    #[schema(value_type = f64, example = 3)]
    pub quantity: serde_json::Number,
    #[schema(example = "19.99")]
    pub unit_price: String,
    /// Percent applied to this line (the organization's default when the request named none).
    #[schema(value_type = f64, example = 0)]
    pub tax_rate: serde_json::Number,
    /// quantity x unitPrice, rounded half-up to the cent.
    #[schema(example = "59.97")]
    pub amount: String,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PaymentLinkRef {
    pub url: String,
    #[schema(value_type = Option<String>, format = DateTime)]
    pub expires_at: Option<Timestamp>,
}

/// An invoice in full.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InvoiceView {
    pub id: String,
    pub invoice_number: String,
    pub client_id: String,
    pub client: ClientContact,
    pub currency: String,
    pub status: String,
    pub due_date: String,
    #[schema(value_type = String, format = DateTime)]
    pub created_at: Timestamp,
    #[schema(value_type = String, format = DateTime)]
    pub updated_at: Timestamp,
    pub line_items: Vec<LineItemView>,
    pub subtotal: String,
    pub tax: String,
    pub total: String,
    /// Received so far through the payment link (may exceed the total after an overpayment).
    pub amount_paid: String,
    pub memo: Option<String>,
    pub payment_link: PaymentLinkRef,
    #[schema(value_type = Option<String>, format = DateTime)]
    pub sent_at: Option<Timestamp>,
    #[schema(value_type = Option<String>, format = DateTime)]
    pub paid_at: Option<Timestamp>,
}

fn line_view(l: &LineItem) -> LineItemView {
    LineItemView {
        description: l.description.clone(),
        quantity: number(&l.quantity_text()),
        unit_price: money(l.unit_price),
        tax_rate: number(&l.tax_rate.to_string()),
        amount: money(l.amount),
    }
}

impl InvoiceSummary {
    pub fn from_detail(d: &InvoiceDetail) -> Self {
        let i = &d.invoice;
        InvoiceSummary {
            id: i.id.clone(),
            invoice_number: i.number.clone(),
            client_id: i.client_id.clone(),
            client: ClientSummary {
                id: d.client.id.clone(),
                first_name: d.client.first_name.clone(),
                last_name: d.client.last_name.clone(),
            },
            amount: money(i.totals.total),
            currency: i.currency.code().to_owned(),
            status: i.status.as_str().to_owned(),
            due_date: i.due_date.to_string(),
            created_at: i.created_at,
        }
    }
}

impl InvoiceView {
    pub fn from_detail(d: &InvoiceDetail, public_url: &str) -> Self {
        let i = &d.invoice;
        InvoiceView {
            id: i.id.clone(),
            invoice_number: i.number.clone(),
            client_id: i.client_id.clone(),
            client: ClientContact {
                id: d.client.id.clone(),
                first_name: d.client.first_name.clone(),
                last_name: d.client.last_name.clone(),
                email: d.client.email.clone(),
            },
            currency: i.currency.code().to_owned(),
            status: i.status.as_str().to_owned(),
            due_date: i.due_date.to_string(),
            created_at: i.created_at,
            updated_at: i.updated_at,
            line_items: i.line_items.iter().map(line_view).collect(),
            subtotal: money(i.totals.subtotal),
            tax: money(i.totals.tax),
            total: money(i.totals.total),
            amount_paid: money(i.amount_paid),
            memo: i.memo.clone(),
            payment_link: PaymentLinkRef { url: pay_url(public_url, &d.intent.id), expires_at: d.intent.expires_at },
            sent_at: i.sent_at,
            paid_at: i.paid_at,
        }
    }
}

/// The event for an invoice change: the invoice in full, as of the change.
pub fn invoice_event(event_type: &'static str, d: &InvoiceDetail, public_url: &str) -> NewEvent {
    NewEvent { event_type, object: serde_json::to_value(InvoiceView::from_detail(d, public_url)).unwrap_or_default() }
}

/// A payment link as the payment-links area shows it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PaymentLinkView {
    #[schema(example = "pl_01a1fc8be56c7228a813c8461b65a699")]
    pub id: String,
    pub url: String,
    #[schema(example = "500.00")]
    pub amount: String,
    pub currency: String,
    pub description: String,
    /// active, inactive, expired or paid.
    pub status: String,
    /// Received so far (may exceed the amount).
    pub amount_paid: String,
    #[schema(value_type = Option<String>, format = DateTime)]
    pub expires_at: Option<Timestamp>,
    #[schema(value_type = String, format = DateTime)]
    pub created_at: Timestamp,
}

impl PaymentLinkView {
    pub fn from_link(l: &PaymentLink, public_url: &str, now: Timestamp) -> Self {
        PaymentLinkView {
            id: l.id.clone(),
            url: pay_url(public_url, &l.intent.id),
            amount: money(l.amount),
            currency: l.currency.code().to_owned(),
            description: l.description.clone(),
            status: l.intent.effective_status(now).as_str().to_owned(),
            amount_paid: money(l.intent.amount_received),
            expires_at: l.expires_at,
            created_at: l.created_at,
        }
    }
}

pub fn link_event(event_type: &'static str, l: &PaymentLink, public_url: &str) -> NewEvent {
    NewEvent {
        event_type,
        object: serde_json::to_value(PaymentLinkView::from_link(l, public_url, Timestamp::now())).unwrap_or_default(),
    }
}

/// The email and SMS for an invoice, on the channels requested that the client can receive.
/// `requested` empty means every channel the client can receive.
pub fn invoice_messages(
    d: &InvoiceDetail,
    organization: &str,
    public_url: &str,
    requested: &[Channel],
) -> Result<Vec<NewMessage>, Invalid> {
    use lajan_worker::notify::render::{InvoiceNotice, invoice_email, invoice_sms};
    let notice = InvoiceNotice {
        organization: organization.to_owned(),
        invoice_number: d.invoice.number.clone(),
        amount_due: money((d.invoice.totals.total - d.invoice.amount_paid).max(0)),
        currency: d.invoice.currency.code().to_owned(),
        due_date: d.invoice.due_date.to_string(),
        pay_url: pay_url(public_url, &d.intent.id),
        memo: d.invoice.memo.clone(),
    };
    let wanted = |c: Channel| requested.is_empty() || requested.contains(&c);
    let mut messages = Vec::new();
    if let (true, Some(email)) = (wanted(Channel::Email), &d.client.email) {
        let m = invoice_email(&notice, email);
        messages.push(NewMessage {
            id: IdKind::Message.generate(),
            channel: Channel::Email,
            recipient: m.to,
            subject: Some(m.subject),
            body_text: m.text,
            body_html: Some(m.html),
        });
    }
    if let (true, Some(phone)) = (wanted(Channel::Sms), &d.client.phone_number) {
        let m = invoice_sms(&notice, phone);
        messages.push(NewMessage {
            id: IdKind::Message.generate(),
            channel: Channel::Sms,
            recipient: m.to,
            subject: None,
            body_text: m.body,
            body_html: None,
        });
    }
    if messages.is_empty() {
        let asked = if requested.is_empty() {
            "email or sms".to_owned()
        } else {
            requested.iter().map(|c| c.as_str()).collect::<Vec<_>>().join(" or ")
        };
        return Err(Invalid::new(
            "no_channel_available",
            format!("The client has no contact for {asked}: add an email or phone number to the client"),
        ));
    }
    Ok(messages)
}
