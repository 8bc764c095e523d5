//! The events a change records: its type and the resource's view as of the change.

use crate::views::clients::ClientView;
use crate::views::disbursements::DisbursementView;
use crate::views::invoices::{InvoiceView, PaymentLinkView};
use crate::views::payouts::PayoutView;
use crate::views::settings::SettingsView;
use crate::views::webhooks::WebhookEndpointView;
use lajan_domain::client::Client;
use lajan_domain::disbursement::Disbursement;
use lajan_domain::invoice::InvoiceDetail;
use lajan_domain::payment::PaymentLink;
use lajan_domain::payout::PayoutDetail;
use lajan_domain::settings::Settings;
use lajan_domain::webhook::WebhookEndpoint;
use lajan_domain::{Actor, Timestamp};
use lajan_store::NewEvent;
use serde::Serialize;

fn event(event_type: &'static str, view: &impl Serialize) -> NewEvent {
    NewEvent { event_type, object: serde_json::to_value(view).unwrap_or_default() }
}

/// A client change: the client in full.
pub fn client_event(event_type: &'static str) -> impl Fn(&Client) -> NewEvent {
    move |c| event(event_type, &ClientView::from(c))
}

/// An invoice change: the invoice in full, as of the change.
pub fn invoice_event(event_type: &'static str, d: &InvoiceDetail, public_url: &str) -> NewEvent {
    event(event_type, &InvoiceView::from_detail(d, public_url))
}

/// A payment link change.
pub fn link_event(event_type: &'static str, l: &PaymentLink, public_url: &str) -> NewEvent {
    event(event_type, &PaymentLinkView::from_link(l, public_url, Timestamp::now()))
}

/// A payout change: the payout in full. The store sets the type of each event it records.
pub fn payout_event(d: &PayoutDetail) -> NewEvent {
    event("payout.created", &PayoutView::from_detail(d))
}

/// A disbursement change: the disbursement with its counts. The store sets the type.
pub fn disbursement_event(d: &Disbursement) -> NewEvent {
    event("disbursement.created", &DisbursementView::from(d))
}

/// A settings change: the settings after it, the key that made it (`updatedByKey`; null for a
/// console user's change, whom the event's `actor` names) and the previous value of each field
/// it changed (`previous`), as Stripe's `previous_attributes`.
pub fn settings_event(by: &Actor, before: &Settings, after: &Settings) -> NewEvent {
    let view = |s: &Settings| match serde_json::to_value(SettingsView::from(s)) {
        Ok(serde_json::Value::Object(fields)) => fields,
        _ => serde_json::Map::new(),
    };
    let (before, mut object) = (view(before), view(after));
    let previous: serde_json::Map<String, serde_json::Value> =
        before.into_iter().filter(|(field, value)| object.get(field) != Some(value)).collect();
    let key = match by {
        Actor::ApiKey(id) => serde_json::Value::from(id.as_str()),
        _ => serde_json::Value::Null,
    };
    object.insert("updatedByKey".into(), key);
    object.insert("previous".into(), previous.into());
    NewEvent { event_type: "settings.updated", object: object.into() }
}

/// A webhook endpoint's own event: the endpoint, without its secret.
pub fn webhook_endpoint_event(event_type: &'static str) -> impl Fn(&WebhookEndpoint) -> NewEvent {
    move |e| event(event_type, &WebhookEndpointView::from(e))
}
