//! The shapes and bounds of identifiers, amounts, statuses and counts, written into the
//! document's schemas and parameters so a generator types them and a fuzzer checks them: every
//! id is its kind's prefix and 32 hex digits, every amount in an answer a decimal string with two
//! places, every status one of the domain's own values, every count at least 0. Text rules of
//! request bodies are in `openapi_rules`, which applies these too.

use lajan_domain::asset::ASSETS;
use lajan_domain::client::PersonName;
use lajan_domain::event::EVENT_TYPES;
use lajan_domain::id::IdKind;
use lajan_domain::payment::IntentStatus;
use lajan_domain::{disbursement, invoice, message, money, payout, validation, webhook};
use serde_json::{Value, json};

/// An id of `kind`: its prefix, then 32 lowercase hex digits.
pub(crate) fn id(kind: IdKind) -> Value {
    json!({ "pattern": format!("^{}[0-9a-f]{{32}}$", kind.prefix()) })
}

/// An amount as answers write it: `format: decimal` tells a generator to read it as an exact
/// decimal (the client libraries' `Decimal`), never a float.
fn amount() -> Value {
    json!({ "format": "decimal", "pattern": r"^[0-9]+\.[0-9]{2}$" })
}

/// An amount that moves a balance either way (a statement's or a credit balance's lines).
fn signed_amount() -> Value {
    json!({ "format": "decimal", "pattern": r"^-?[0-9]+\.[0-9]{2}$" })
}

fn one_of<'a>(values: impl IntoIterator<Item = &'a str>) -> Value {
    json!({ "enum": values.into_iter().collect::<Vec<_>>() })
}

fn count() -> Value {
    json!({ "minimum": 0 })
}

/// A Stellar account's public key (StrKey `G...`; the checksum is the server's).
pub(crate) fn account() -> Value {
    json!({ "pattern": "^G[A-Z2-7]{55}$" })
}

/// A Stellar asset code.
pub(crate) fn asset_code() -> Value {
    json!({ "pattern": "^[A-Za-z0-9]{1,12}$" })
}

fn tx_hash() -> Value {
    json!({ "pattern": "^[0-9a-f]{64}$" })
}

fn email() -> Value {
    json!({ "format": "email", "maxLength": 254 })
}

/// An E.164 phone number, as answers give it.
pub(crate) fn phone() -> Value {
    json!({ "pattern": r"^\+[1-9][0-9]{7,14}$" })
}

/// A phone number as requests take it: digits, with or without the country code, and the
/// spaces, dots, dashes, slashes and brackets people write between them.
pub(crate) fn typed_phone() -> Value {
    json!({ "pattern": r"^[0-9+ ().\-/\u00A0]*[0-9][0-9+ ().\-/\u00A0]*$", "maxLength": 32 })
}

fn invoice_number() -> Value {
    json!({ "pattern": "^INV-[0-9]{6,}$" })
}

fn tax_rate() -> Value {
    json!({ "minimum": 0, "maximum": 100 })
}

fn error_code() -> Value {
    json!({ "pattern": "^[a-z][a-z0-9_]*$" })
}

fn unique<'a>(values: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
    let mut seen: Vec<&str> = Vec::new();
    for value in values {
        if !seen.contains(&value) {
            seen.push(value);
        }
    }
    seen
}

fn chars(max: usize) -> Value {
    json!({ "maxLength": max })
}

/// `(schema, property, rule)` for the properties of answers, and the ids of request bodies.
pub(crate) fn rules() -> Vec<(&'static str, &'static str, Value)> {
    use IdKind::*;
    let name = || chars(PersonName::MAX_CHARS);
    let memo = || chars(payout::MEMO_BYTES);
    let currency = || one_of(money::Currency::ALL.iter().map(|c| c.code()));
    let approval = || one_of(payout::ApprovalStatus::ALL.iter().map(|s| s.as_str()));
    let execution = || one_of(payout::ExecStatus::ALL.iter().map(|s| s.as_str()));
    let invoice_status = || one_of(invoice::InvoiceStatus::ALL.iter().map(|s| s.as_str()));
    let intent_status = || one_of(IntentStatus::ALL.iter().map(|s| s.as_str()));
    let event_type = || one_of(EVENT_TYPES.iter().copied());
    let mut rules = vec![
        // Ids in request bodies.
        ("CreateDisbursementItem", "clientId", id(Client)),
        ("CreateInvoice", "clientId", id(Client)),
        ("UpdateInvoice", "clientId", id(Client)),
        ("CreatePayout", "clientId", id(Client)),
        ("LineItemBody", "quantity", json!({ "maximum": i64::MAX / 10_000 })),
        ("UpdateSettings", "timezone", chars(64)),
    ];
    for (schema, kind) in [
        ("AttemptView", Attempt),
        ("ClientContact", Client),
        ("ClientSummary", Client),
        ("ClientView", Client),
        ("PayoutClient", Client),
        ("PayoutClientSummary", Client),
        ("DeliveryView", Delivery),
        ("DisbursementItemView", DisbursementItem),
        ("DisbursementView", Disbursement),
        ("EventView", Event),
        ("IntentState", PaymentIntent),
        ("InvoiceSummary", Invoice),
        ("InvoiceView", Invoice),
        ("MessageView", Message),
        ("QueuedMessage", Message),
        ("PaymentLinkView", PaymentLink),
        ("PayoutSummary", Payout),
        ("PayoutView", Payout),
        ("SandboxPaymentView", LedgerPayment),
        ("WebhookEndpointView", WebhookEndpoint),
    ] {
        rules.push((schema, "id", id(kind)));
    }
    for (schema, property, kind) in [
        ("DeliveryView", "endpointId", WebhookEndpoint),
        ("DeliveryView", "eventId", Event),
        ("DisbursementItemView", "clientId", Client),
        ("DisbursementItemView", "payoutId", Payout),
        ("InvoiceSummary", "clientId", Client),
        ("InvoiceView", "clientId", Client),
        ("MessageView", "invoiceId", Invoice),
        ("MessageView", "clientId", Client),
        ("PayoutSummary", "clientId", Client),
        ("PayoutView", "clientId", Client),
    ] {
        rules.push((schema, property, id(kind)));
    }
    for (schema, property) in [
        ("BalanceView", "balance"),
        ("DisbursementItemView", "assetAmount"),
        ("DisbursementView", "amountSent"),
        ("DisbursementView", "totalAmount"),
        ("IntentState", "amount"),
        ("IntentState", "amountReceived"),
        ("InvoiceSummary", "amount"),
        ("InvoiceSummary", "total"),
        ("InvoiceView", "amountPaid"),
        ("InvoiceView", "subtotal"),
        ("InvoiceView", "tax"),
        ("InvoiceView", "total"),
        ("LineItemView", "amount"),
        ("LineItemView", "unitPrice"),
        ("PaymentLinkView", "amount"),
        ("PaymentLinkView", "amountPaid"),
        ("PayoutSummary", "assetAmount"),
        ("PayoutView", "assetAmount"),
        ("SandboxPaymentView", "amount"),
        ("InvoiceView", "amountRemaining"),
        ("InvoiceView", "amountCredited"),
        ("InvoiceView", "amountOverpaid"),
        ("InstallmentView", "amount"),
        ("InstallmentView", "amountCredited"),
        ("InstallmentView", "amountPaid"),
        ("InstallmentView", "amountRemaining"),
        ("CreditNoteView", "amount"),
        ("CreditLineView", "amount"),
        ("CreditBalanceView", "amount"),
        ("InvoicePaymentView", "amount"),
        ("InvoiceStatement", "amountRemaining"),
        ("ReminderView", "amountDue"),
    ] {
        rules.push((schema, property, amount()));
    }
    for (schema, property) in [
        ("CreditTransactionView", "amount"),
        ("CreditTransactionView", "balanceAfter"),
        ("StatementLineView", "amount"),
        // A payment beyond what is owed shows below zero until its `to_credit_balance` line.
        ("StatementLineView", "balance"),
    ] {
        rules.push((schema, property, signed_amount()));
    }
    for (schema, property) in [
        ("AttemptView", "attemptNumber"),
        ("AttemptView", "ledgerSeq"),
        ("DeliveryAttemptView", "attempt"),
        ("DeliveryAttemptView", "durationMs"),
        ("DeliveryView", "attemptCount"),
        ("DisbursementItemView", "row"),
        ("DisbursementView", "itemCount"),
        ("ItemCountsView", "awaitingRegistration"),
        ("ItemCountsView", "canceled"),
        ("ItemCountsView", "executing"),
        ("ItemCountsView", "failed"),
        ("ItemCountsView", "pending"),
        ("ItemCountsView", "rejected"),
        ("ItemCountsView", "sent"),
        ("PaginationView", "limit"),
        ("PaginationView", "page"),
        ("PaginationView", "total"),
        ("PaginationView", "totalPages"),
        ("PayoutCountsView", "all"),
        ("PayoutCountsView", "approved"),
        ("PayoutCountsView", "awaiting_registration"),
        ("PayoutCountsView", "canceled"),
        ("PayoutCountsView", "completed"),
        ("PayoutCountsView", "executing"),
        ("PayoutCountsView", "failed"),
        ("PayoutCountsView", "pending_approval"),
        ("PayoutCountsView", "rejected"),
        ("Recovered", "recovered"),
        ("SandboxPaymentView", "ledgerSeq"),
    ] {
        rules.push((schema, property, count()));
    }
    rules.extend([
        ("DeliveryAttemptView", "httpStatus", json!({ "minimum": 100, "maximum": 599 })),
        ("DeliveryAttemptView", "responseBody", chars(webhook::MAX_STORED_RESPONSE_BYTES)),
        ("DeliveryView", "status", one_of(webhook::DeliveryStatus::ALL.iter().map(|s| s.as_str()))),
        ("DeliveryView", "eventType", event_type()),
        ("EventView", "type", event_type()),
        ("ClientContact", "firstName", name()),
        ("ClientContact", "lastName", name()),
        ("ClientSummary", "firstName", name()),
        ("ClientSummary", "lastName", name()),
        ("ClientView", "firstName", name()),
        ("ClientView", "lastName", name()),
        ("PayoutClient", "firstName", name()),
        ("PayoutClient", "lastName", name()),
        ("PayoutClientSummary", "firstName", name()),
        ("PayoutClientSummary", "lastName", name()),
        ("ClientView", "walletAccountId", account()),
        ("PayoutClient", "walletAccountId", account()),
        ("PayoutClientSummary", "walletAccountId", account()),
        ("PayoutSummary", "walletAccountId", account()),
        ("PayoutView", "walletAccountId", account()),
        ("PayoutView", "assetIssuer", account()),
        ("DisbursementItemView", "walletAccountId", account()),
        ("DisbursementView", "assetIssuer", account()),
        ("SandboxPaymentView", "sourceAccount", account()),
        ("SandboxPaymentView", "destinationAccount", account()),
        ("BalanceList", "account", account()),
        ("PayoutSummary", "assetCode", asset_code()),
        ("PayoutView", "assetCode", asset_code()),
        ("DisbursementView", "assetCode", asset_code()),
        ("BalanceView", "assetCode", asset_code()),
        ("SandboxPaymentView", "assetCode", asset_code()),
        ("PayoutSummary", "memo", memo()),
        ("PayoutView", "memo", memo()),
        ("DisbursementItemView", "memo", memo()),
        ("SandboxPaymentView", "memo", memo()),
        ("DisbursementItemView", "externalId", chars(disbursement::MAX_EXTERNAL_ID_CHARS)),
        ("DisbursementView", "name", chars(disbursement::MAX_NAME_CHARS)),
        ("DisbursementView", "rejectReason", chars(validation::MAX_REASON_CHARS)),
        ("DisbursementView", "status", one_of(disbursement::DisbursementStatus::ALL.iter().map(|s| s.as_str()))),
        ("DisbursementView", "source", one_of(disbursement::DisbursementSource::ALL.iter().map(|s| s.as_str()))),
        ("DisbursementItemView", "approvalStatus", approval()),
        ("DisbursementItemView", "execStatus", execution()),
        ("PayoutSummary", "approvalStatus", approval()),
        ("PayoutSummary", "execStatus", execution()),
        ("PayoutView", "approvalStatus", approval()),
        ("PayoutView", "execStatus", execution()),
        ("PayoutSummary", "type", one_of(payout::PayoutType::ALL.iter().map(|s| s.as_str()))),
        ("PayoutView", "type", one_of(payout::PayoutType::ALL.iter().map(|s| s.as_str()))),
        ("InvoiceSummary", "status", invoice_status()),
        ("InvoiceView", "status", invoice_status()),
        ("SendResult", "status", invoice_status()),
        ("VoidResult", "status", invoice_status()),
        ("InvoiceSummary", "currency", currency()),
        ("InvoiceView", "currency", currency()),
        ("PaymentLinkView", "currency", currency()),
        ("SettingsView", "defaultCurrency", currency()),
        ("InvoiceSummary", "dueDate", json!({ "format": "date" })),
        ("InvoiceView", "dueDate", json!({ "format": "date" })),
        ("InvoiceView", "memo", chars(invoice::MAX_MEMO_CHARS)),
        ("LineItemView", "description", chars(invoice::MAX_DESCRIPTION_CHARS)),
        ("PaymentLinkView", "description", chars(invoice::MAX_DESCRIPTION_CHARS)),
        ("PaymentLinkView", "status", intent_status()),
        ("IntentState", "status", intent_status()),
        ("MessageView", "channel", one_of(message::Channel::ALL.iter().map(|c| c.as_str()))),
        ("MessageView", "status", one_of(message::MessageStatus::ALL.iter().map(|s| s.as_str()))),
        ("QueuedMessage", "channel", one_of(message::Channel::INVOICE.iter().map(|c| c.as_str()))),
        ("QueuedMessage", "status", one_of(message::MessageStatus::ALL.iter().map(|s| s.as_str()))),
        ("WebhookEndpointView", "url", chars(webhook::MAX_URL_CHARS)),
        ("WebhookEndpointView", "description", chars(webhook::MAX_DESCRIPTION_CHARS)),
        ("SettingsView", "timezone", chars(64)),
        ("AssetView", "code", one_of(ASSETS.iter().map(|a| a.code))),
        ("AssetView", "kind", one_of(unique(ASSETS.iter().map(|a| a.kind)))),
        ("AssetView", "name", chars(ASSETS.iter().map(|a| a.name.chars().count()).max().unwrap_or(0))),
        ("AssetView", "issuer", account()),
        ("AttemptView", "txHash", tx_hash()),
        ("DisbursementItemView", "txHash", tx_hash()),
        ("SandboxPaymentView", "txHash", tx_hash()),
        ("ClientContact", "email", email()),
        ("ClientView", "email", email()),
        ("PayoutClient", "email", email()),
        ("ClientView", "phoneNumber", phone()),
        ("PayoutClient", "phoneNumber", phone()),
        ("CreatedWebhookEndpointView", "secret", json!({ "pattern": "^whsec_[A-Za-z0-9+/]{43}=$" })),
        ("Deleted", "id", json!({ "pattern": "^[a-z]+_[0-9a-f]{32}$" })),
        ("InvoiceSummary", "invoiceNumber", invoice_number()),
        ("InvoiceView", "invoiceNumber", invoice_number()),
        // No multipleOf in answers: validators divide in binary floating point (0.0003 / 0.0001
        // is not 3 there), and would refuse true answers.
        ("LineItemView", "quantity", json!({ "exclusiveMinimum": 0 })),
        ("LineItemView", "taxRate", tax_rate()),
        ("SettingsView", "defaultTaxRate", tax_rate()),
        ("PaymentLinkRef", "url", json!({ "format": "uri" })),
        ("PaymentLinkView", "url", json!({ "format": "uri" })),
        ("ErrorBody", "statusCode", json!({ "minimum": 400, "maximum": 599 })),
        ("ErrorBody", "code", error_code()),
        ("FieldDetail", "code", error_code()),
        ("FieldDetail", "row", json!({ "minimum": 1 })),
    ]);
    rules
}

/// `(path prefix, parameter, rule)`: the ids in paths and queries, and every `search`.
pub(crate) fn parameter_rules() -> Vec<(&'static str, &'static str, Value)> {
    use IdKind::*;
    let search = || json!({ "maxLength": lajan_domain::pagination::MAX_SEARCH_CHARS, "pattern": "^[^\\x00]*$" });
    vec![
        ("/v1/clients", "search", search()),
        ("/v1/disbursements", "search", search()),
        ("/v1/invoices", "search", search()),
        ("/v1/payouts", "search", search()),
        ("/v1/invoices", "clientId", id(Client)),
        ("/v1/clients/{id}", "id", id(Client)),
        ("/v1/disbursements/{id}", "id", id(Disbursement)),
        ("/v1/events/{id}", "id", id(Event)),
        ("/v1/invoices/{id}", "id", id(Invoice)),
        ("/v1/payment-links/{id}", "id", id(PaymentLink)),
        ("/v1/payouts/{id}", "id", id(Payout)),
        ("/v1/sandbox/payment-intents/{id}", "id", id(PaymentIntent)),
        ("/v1/webhook-endpoints/{id}", "id", id(WebhookEndpoint)),
        ("/v1/webhook-endpoints/{id}/deliveries/{deliveryId}", "deliveryId", id(Delivery)),
    ]
}
