//! The events a change records: its type and the resource's view as of the change.

use crate::views::clients::ClientView;
use crate::views::disbursements::DisbursementView;
use crate::views::invoices::{InvoiceView, PaymentLinkView};
use crate::views::payouts::PayoutView;
use lajan_domain::Timestamp;
use lajan_domain::client::Client;
use lajan_domain::disbursement::Disbursement;
use lajan_domain::invoice::InvoiceDetail;
use lajan_domain::payment::PaymentLink;
use lajan_domain::payout::PayoutDetail;
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
