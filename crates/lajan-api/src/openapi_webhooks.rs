//! The document's `webhooks` section (OpenAPI 3.1): one operation per event type, saying what
//! Lajan POSTs to a subscribed endpoint (the event, its object's schema, the signature headers)
//! and what the endpoint's answers mean.

use lajan_domain::event::EVENT_TYPES;
use serde_json::{Value, json};

/// The schema of `data.object` in events of `event_type`: the resource of its area, as the API
/// shows it; `settings.updated` adds who changed what.
pub(crate) fn object_schema(event_type: &str) -> Option<Value> {
    let area = event_type.split_once('.')?.0;
    if event_type.starts_with("settings.change_") {
        return Some(json!({ "$ref": "#/components/schemas/SettingsChangeView" }));
    }
    // The invoice as it stands with the thing that changed it.
    let invoice_with = |field: &str, schema: &str| {
        Some(json!({ "allOf": [{ "$ref": "#/components/schemas/InvoiceView" }, {
            "type": "object",
            "required": [field],
            "properties": { field: { "$ref": format!("#/components/schemas/{schema}") } },
        }]}))
    };
    match event_type {
        "credit_note.created" | "credit_note.voided" => return invoice_with("creditNote", "CreditNoteView"),
        "invoice.reminder_sent" => return invoice_with("reminder", "ReminderView"),
        "invoice.payment_received" | "invoice.payment_reversed" => {
            return invoice_with("payment", "InvoicePaymentView");
        }
        _ => {}
    }
    let name = match area {
        "client" => "ClientView",
        "invoice" => "InvoiceView",
        "message" => "MessageView",
        "payment_link" => "PaymentLinkView",
        "payout" => "PayoutView",
        "disbursement" => "DisbursementView",
        "settings" => "SettingsView",
        "webhook_endpoint" => "WebhookEndpointView",
        _ => return None,
    };
    if matches!(
        event_type,
        "client.invited" | "client.registered" | "client.verification_locked" | "client.verification_unlocked"
    ) {
        return Some(json!({ "$ref": "#/components/schemas/InvitedClientView" }));
    }
    let resource = json!({ "$ref": format!("#/components/schemas/{name}") });
    if event_type != "settings.updated" {
        return Some(resource);
    }
    Some(json!({ "allOf": [resource, {
        "type": "object",
        "required": ["updatedByKey", "previous", "requestedBy", "confirmedBy", "secondPerson"],
        "properties": {
            "updatedByKey": { "type": ["string", "null"], "description": "The id of the API key that applied the change; null for a console user." },
            "previous": {
                "type": "object",
                "description": "The value before the change of each field the change changed.",
            },
            "requestedBy": { "$ref": "#/components/schemas/ActorView" },
            "confirmedBy": {
                "oneOf": [{ "$ref": "#/components/schemas/ActorView" }, { "type": "null" }],
                "description": "The second person who confirmed a change of the approval policy.",
            },
            "secondPerson": {
                "type": "string",
                "enum": ["not_needed", "none_available", "confirmed"],
                "description": "not_needed: the change relaxed no approval rule. confirmed: another person or key with approval rights confirmed it. none_available: it relaxed the approval policy and applied at once, as nobody else had approval rights.",
            },
        },
    }]}))
}

/// When an event of `event_type` is recorded.
pub(crate) fn emitted_when(event_type: &str) -> Option<&'static str> {
    Some(match event_type {
        "client.created" => "POST /v1/clients created a client.",
        "client.updated" => "PUT /v1/clients/{id} changed a client.",
        "client.deleted" => "DELETE /v1/clients/{id} archived a client.",
        "client.invited" => {
            "An invitation to register a wallet went to the client (SMS, WhatsApp or email, in the client's language): after the first payout for them without a wallet was approved, on the resend schedule, or by POST /v1/clients/{id}/invite. The object is the client with its invitation."
        }
        "client.registered" => {
            "The receiver gave a wallet on the registration page (after confirming their phone or email and answering the organization's question): the client has it, and every approved payout waiting for it is on its way. The object is the client with its invitation."
        }
        "client.verification_locked" => {
            "The receiver gave a fifth wrong answer to the organization's question: the invitation is locked until POST /v1/clients/{id}/invitation/unlock. The object is the client with its invitation."
        }
        "client.verification_unlocked" => {
            "POST /v1/clients/{id}/invitation/unlock let a locked receiver try again. The object is the client with its invitation."
        }
        "invoice.created" => "POST /v1/invoices created an invoice.",
        "invoice.sent" => "POST /v1/invoices/{id}/send sent (or sent again) an invoice.",
        "invoice.viewed" => "The client first opened the hosted payment page of a sent invoice.",
        "invoice.payment_received" => {
            "A payment (sandbox simulation or live Stellar payment carrying the invoice's reference) was counted on an \
             invoice, whatever its size: the object is the invoice as it stands with it (amountPaid, \
             amountRemaining) and the payment. The payment that settles the invoice is followed by invoice.paid."
        }
        "invoice.payment_reversed" => {
            "POST /v1/invoices/{id}/payments/{paymentId}/reverse reversed a payment: it no longer counts, and a paid \
             invoice no longer paid in full is partially_paid again (sent if nothing paid is left). The object is the invoice as it stands with it and the \
             payment, with its reversal."
        }
        "credit_note.created" => {
            "POST /v1/invoices/{id}/credit-notes issued a credit note: the invoice asks for less (amountCredited). \
             The object is the invoice as it stands with it and the creditNote. One that leaves nothing owed is \
             followed by invoice.paid."
        }
        "credit_note.voided" => {
            "POST /v1/invoices/{id}/credit-notes/{creditNoteId}/void voided a credit note: the invoice asks for its \
             amount again. Same object as credit_note.created."
        }
        "invoice.paid" => "A payment (sandbox simulation or live Stellar payment) settled an invoice.",
        "invoice.overdue" => {
            "The overdue job found a sent, viewed or partially paid invoice past its due date (or past the due date of its oldest instalment left unpaid, which nextInstallment names)."
        }
        "invoice.reminder_sent" => {
            "A payment reminder went to the client (settings reminders: days from an unpaid instalment's or the invoice's due date, at the organization's time of day, in the client's language). The object is the invoice with the reminder: the instalment, offsetDays, amountDue and the messages it queued. Sent at most once per instalment and day; never once paid, voided or fully credited, or to a client with remindersEnabled false."
        }
        "invoice.voided" => "POST /v1/invoices/{id}/void voided an invoice.",
        "message.sent" => {
            "The email, SMS or WhatsApp provider took a message (providerId is its id for it). In the sandbox, recorded at once with message.delivered, simulated."
        }
        "message.delivered" => {
            "The provider reported that a message reached the phone (its delivery receipt). In the sandbox, at once, simulated."
        }
        "message.failed" => {
            "A message will not arrive: the provider refused it, the worker gave up retrying (status failed), or the carrier could not deliver it (status undeliverable). failureReason says why, in the provider's words."
        }
        "payment_link.created" => "POST /v1/payment-links created a payment link.",
        "payment_link.paid" => "A payment settled a payment link.",
        "payment_link.deactivated" => {
            "DELETE /v1/payment-links/{id} deleted a payment link (deactivated if it was active)."
        }
        "payout.created" => "POST /v1/payouts, or a disbursement's submission (one per item), created a payout.",
        "payout.approved" => "A payout was approved (on its own or with its disbursement).",
        "payout.rejected" => "A payout was rejected (on its own or with its disbursement).",
        "payout.retried" => "A failed payout was queued again (POST /v1/payouts/{id}/retry or retry-failed).",
        "payout.completed" => "The payout's transaction was applied on the ledger (execStatus sent).",
        "payout.failed" => "The payout failed for good (execStatus failed, with the attempt's error).",
        "payout.delayed" => {
            "An approved payout is still unsent LAJAN_PAYOUT_DELAY_ALERT_SECS (15 minutes) after its approval or \
             retry, the network refusing or not answering: raised once; it keeps being tried."
        }
        "payout.held" => {
            "An approved payout was held, nothing signed: its destination does not exist or does not trust the \
             asset (its hold says which). Raised once; it is checked again every few minutes and sent once the \
             receiver fixes it, or fails with the hold's code after registrationWindowDays."
        }
        "payout.approval_withdrawn" => {
            "An approved payout waiting for its client to register a wallet went back to pending approval: the \
             client's phone, email or question changed, or their invitation was unlocked, which changes who may \
             register the wallet it goes to. An approver decides again (under requireDistinctApprover, not the \
             one who made the change)."
        }
        "payout.canceled" => {
            "An approved payout waiting for its client to register a wallet was canceled: by \
             POST /v1/payouts/{id}/cancel (cancelReason requested), or because the client did not register within \
             registrationWindowDays (receiver_not_registered, made by Lajan)."
        }
        "disbursement.created" => "POST /v1/disbursements created a disbursement.",
        "disbursement.submitted" => "A disbursement was submitted: one payout per item, waiting for approval.",
        "disbursement.approved" => "A disbursement was approved, and its payouts with it.",
        "disbursement.rejected" => "A disbursement was rejected, and its payouts with it.",
        "disbursement.completed" => "The last payout of a disbursement settled, and all were sent.",
        "disbursement.partially_failed" => "The last payout of a disbursement settled; some were sent, some failed.",
        "disbursement.failed" => "The last payout of a disbursement settled, and all failed.",
        "settings.updated" => {
            "PUT /v1/settings changed the settings, or a second person confirmed a change of the approval policy."
        }
        "settings.change_requested" => {
            "PUT /v1/settings asked to relax the approval policy: it waits for a second person to confirm it."
        }
        "settings.change_cancelled" => "A change of the approval policy waiting for a second person was cancelled.",
        "webhook_endpoint.test" => "POST /v1/webhook-endpoints/{id}/test: sent to that endpoint alone.",
        "webhook_endpoint.disabled" => {
            "An endpoint answered 410, or failed for five days without a success, and was disabled."
        }
        _ => return None,
    })
}

/// `webhooks`: each event type's delivery, named by the type.
pub(crate) fn webhooks() -> Value {
    let header = |name: &str, description: &str| {
        json!({ "name": name, "in": "header", "required": true, "schema": { "type": "string" },
                "description": description })
    };
    let parameters = json!([
        header("webhook-id", "The event's id: the same on every try of it. Skip an id already processed."),
        header("webhook-timestamp", "When this try was signed, in Unix seconds. Refuse stale ones."),
        header(
            "webhook-signature",
            "Space-separated `v1,<base64 HMAC-SHA256>` signatures of `{webhook-id}.{webhook-timestamp}.{body}`, \
             keyed with the base64-decoded part of the endpoint's secret after `whsec_`: one, or two for the \
             24 hours after a rotation. Verify over the raw body with a Standard Webhooks library.",
        ),
    ]);
    let responses = json!({
        "2XX": { "description": "Delivered." },
        "410": { "description": "Gone: the delivery fails and the endpoint is disabled." },
        "default": {
            "description": "Anything else, or no answer within 15 s: tried again after 5 s, 5 min, 30 min, 2 h, 5 h, \
                            10 h and 10 h (+-20 %), then failed. 429 and 503 may set the wait with Retry-After.",
        },
    });
    EVENT_TYPES
        .iter()
        .filter_map(|event_type| {
            let object = object_schema(event_type)?;
            let event = json!({ "allOf": [
                { "$ref": "#/components/schemas/EventView" },
                { "type": "object", "properties": {
                    "type": { "const": event_type },
                    "data": { "type": "object", "required": ["object"], "properties": { "object": object } },
                }},
            ]});
            let operation_id: String = event_type
                .split(['.', '_'])
                .enumerate()
                .map(|(i, word)| match i {
                    0 => word.to_owned(),
                    _ => word[..1].to_uppercase() + &word[1..],
                })
                .chain(["Webhook".to_owned()])
                .collect();
            let operation = json!({ "post": {
                "operationId": operation_id,
                "summary": event_type,
                "description": emitted_when(event_type).unwrap_or_default(),
                "tags": ["Webhook events"],
                "security": [],
                "parameters": parameters,
                "requestBody": { "required": true, "content": { "application/json": { "schema": event } } },
                "responses": responses,
            }});
            Some((event_type.to_string(), operation))
        })
        .collect::<serde_json::Map<_, _>>()
        .into()
}
