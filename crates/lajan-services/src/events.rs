//! The events a change records: its type and the resource's view as of the change.

use crate::views::clients::ClientView;
use crate::views::credit_notes::CreditNoteView;
use crate::views::disbursements::DisbursementView;
use crate::views::events::ActorView;
use crate::views::invitations::InvitedClientView;
use crate::views::invoice_payments::InvoicePaymentView;
use crate::views::invoices::{InvoiceView, PaymentLinkView};
use crate::views::messages::{MessageView, ReminderView};
use crate::views::payouts::PayoutView;
use crate::views::settings::{SettingsChangeView, SettingsView, changed_fields};
use crate::views::webhooks::WebhookEndpointView;
use lajan_domain::client::Client;
use lajan_domain::disbursement::Disbursement;
use lajan_domain::invitation::Invitation;
use lajan_domain::invoice::InvoiceDetail;
use lajan_domain::message::Message;
use lajan_domain::payment::PaymentLink;
use lajan_domain::payout::PayoutDetail;
use lajan_domain::settings::Settings;
use lajan_domain::settings_change::SettingsChange;
use lajan_domain::webhook::WebhookEndpoint;
use lajan_domain::{Actor, Timestamp};
use lajan_store::NewEvent;
use lajan_store::credit_notes::CreditNoteOnInvoice;
use lajan_store::incoming_payments::{PaidEvents, PaymentOnInvoice};
use lajan_store::reminders::SentReminder;
use serde::Serialize;

fn event(event_type: &'static str, view: &impl Serialize) -> NewEvent {
    NewEvent { event_type, object: serde_json::to_value(view).unwrap_or_default() }
}

/// A client change: the client in full.
pub fn client_event(event_type: &'static str) -> impl Fn(&Client) -> NewEvent {
    move |c| event(event_type, &ClientView::from(c))
}

/// A change of a client's invitation to register a wallet: the client with its invitation.
pub fn invitation_event(event_type: &'static str, client: &Client, invitation: &Invitation) -> NewEvent {
    event(event_type, &InvitedClientView::new(client, invitation))
}

/// An invoice change: the invoice in full, as of the change.
pub fn invoice_event(event_type: &'static str, d: &InvoiceDetail, public_url: &str) -> NewEvent {
    event(event_type, &InvoiceView::from_detail(d, public_url))
}

/// A payment of an invoice counted (`invoice.payment_received`) or reversed
/// (`invoice.payment_reversed`): the invoice as it stands with it (its `amountPaid` and
/// `amountRemaining`), and the payment.
pub fn invoice_payment_event(event_type: &'static str, r: &PaymentOnInvoice, public_url: &str) -> NewEvent {
    let payment = InvoicePaymentView::of(&r.payment, r.invoice.invoice.currency);
    invoice_with(event_type, &r.invoice, public_url, "payment", &payment)
}

/// An event whose object is the invoice as it stands with one more field: the thing that
/// changed it (a payment, a credit note, a reminder).
fn invoice_with(
    event_type: &'static str,
    d: &InvoiceDetail,
    public_url: &str,
    field: &str,
    value: &impl Serialize,
) -> NewEvent {
    let mut object = serde_json::to_value(InvoiceView::from_detail(d, public_url)).unwrap_or_default();
    if let serde_json::Value::Object(fields) = &mut object {
        fields.insert(field.into(), serde_json::to_value(value).unwrap_or_default());
    }
    NewEvent { event_type, object }
}

/// A credit note's event (`credit_note.created`, `credit_note.voided`): the invoice as it
/// stands with it (what it asks for now) and the `creditNote`, as a payment's event carries its
/// payment.
pub fn credit_note_event(event_type: &'static str, c: &CreditNoteOnInvoice, public_url: &str) -> NewEvent {
    let note = CreditNoteView::of(&c.credit_note, c.invoice.invoice.currency);
    invoice_with(event_type, &c.invoice, public_url, "creditNote", &note)
}

/// A payment reminder sent (`invoice.reminder_sent`): the invoice as it stands and the
/// `reminder` (what it reminded of, its messages).
pub fn reminder_event(d: &InvoiceDetail, sent: &SentReminder, public_url: &str) -> NewEvent {
    let reminder = ReminderView::of(&sent.reminder, &sent.messages);
    invoice_with("invoice.reminder_sent", d, public_url, "reminder", &reminder)
}

/// The events of a payment counted (`invoice.payment_received`, then `invoice.paid` or
/// `payment_link.paid` when it settles what it pays), for the store to record in its transaction.
pub(crate) struct PaidEventMakers {
    received: Box<dyn Fn(&PaymentOnInvoice) -> NewEvent + Send + Sync>,
    invoice: Box<dyn Fn(&InvoiceDetail) -> NewEvent + Send + Sync>,
    link: Box<dyn Fn(&PaymentLink) -> NewEvent + Send + Sync>,
}

impl PaidEventMakers {
    pub(crate) fn new(public_url: &str) -> Self {
        let (a, b, c) = (public_url.to_owned(), public_url.to_owned(), public_url.to_owned());
        PaidEventMakers {
            received: Box::new(move |r| invoice_payment_event("invoice.payment_received", r, &a)),
            invoice: Box::new(move |d| invoice_event("invoice.paid", d, &b)),
            link: Box::new(move |l| link_event("payment_link.paid", l, &c)),
        }
    }

    pub(crate) fn events(&self) -> PaidEvents<'_> {
        PaidEvents { received: &*self.received, invoice: &*self.invoice, link: &*self.link }
    }
}

/// A payment link change.
pub fn link_event(event_type: &'static str, l: &PaymentLink, public_url: &str) -> NewEvent {
    event(event_type, &PaymentLinkView::from_link(l, public_url, Timestamp::now()))
}

/// A message's move (`message.sent`, `message.delivered`, `message.failed`): the message as
/// it stands. The store sets the type.
pub fn message_event(m: &Message) -> NewEvent {
    event("message.sent", &MessageView::from(m))
}

/// A payout change: the payout in full. The store sets the type of each event it records.
pub fn payout_event(d: &PayoutDetail) -> NewEvent {
    event("payout.created", &PayoutView::from_detail(d))
}

/// A disbursement change: the disbursement with its counts. The store sets the type.
pub fn disbursement_event(d: &Disbursement) -> NewEvent {
    event("disbursement.created", &DisbursementView::from(d))
}

/// Whether a settings change needed, and had, a second person.
#[derive(Debug, Clone, Copy)]
pub enum SecondPerson<'a> {
    /// It relaxed nothing.
    NotNeeded,
    /// It relaxed the approval policy, and nobody else had approval rights to confirm it.
    NoneAvailable,
    /// It relaxed the approval policy; `requested_by` asked, the event's actor confirmed.
    Confirmed { requested_by: &'a Actor },
}

/// A settings change: the settings after it, the key that applied it (`updatedByKey`; null for
/// a console user, whom the event's `actor` names), the previous value of each field it changed
/// (`previous`, as Stripe's `previous_attributes`), who asked (`requestedBy`) and who confirmed
/// (`confirmedBy`), and `secondPerson`: `not_needed`, `none_available` or `confirmed`.
pub fn settings_event(by: &Actor, before: &Settings, after: &Settings, second: SecondPerson<'_>) -> NewEvent {
    let (previous, _) = changed_fields(before, after);
    let mut object = match serde_json::to_value(SettingsView::from(after)) {
        Ok(serde_json::Value::Object(fields)) => fields,
        _ => serde_json::Map::new(),
    };
    let key = match by {
        Actor::ApiKey(id) => serde_json::Value::from(id.as_str()),
        _ => serde_json::Value::Null,
    };
    let actor = |a: &Actor| serde_json::to_value(ActorView::from(a.clone())).unwrap_or_default();
    let (requested_by, confirmed_by, second) = match second {
        SecondPerson::NotNeeded => (actor(by), serde_json::Value::Null, "not_needed"),
        SecondPerson::NoneAvailable => (actor(by), serde_json::Value::Null, "none_available"),
        SecondPerson::Confirmed { requested_by } => (actor(requested_by), actor(by), "confirmed"),
    };
    object.insert("updatedByKey".into(), key);
    object.insert("previous".into(), previous.into());
    object.insert("requestedBy".into(), requested_by);
    object.insert("confirmedBy".into(), confirmed_by);
    object.insert("secondPerson".into(), second.into());
    NewEvent { event_type: "settings.updated", object: object.into() }
}

/// A settings change asked for (`settings.change_requested`) or cancelled
/// (`settings.change_cancelled`), as of `now`.
pub fn settings_change_event(event_type: &'static str, change: &SettingsChange, now: Timestamp) -> NewEvent {
    event(event_type, &SettingsChangeView::at(change, now))
}

/// A webhook endpoint's own event: the endpoint, without its secret.
pub fn webhook_endpoint_event(event_type: &'static str) -> impl Fn(&WebhookEndpoint) -> NewEvent {
    move |e| event(event_type, &WebhookEndpointView::from(e))
}
