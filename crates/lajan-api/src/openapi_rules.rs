//! The value rules of request fields that are text, written into their schemas so generators
//! and fuzzers read what the server reads: which characters free text refuses (the same set as
//! `lajan_domain::validation::control_character`), that a required text is not blank, the
//! lengths (from the domain's own constants), and the shapes of emails, phone numbers, Stellar
//! addresses, asset codes and dates. Rules no schema can say (a checksum, a byte count, that an
//! id exists, a date in the future) are the server's alone, and `.ci/schemathesis.toml` says so
//! operation by operation.

use crate::openapi_limits::{account, asset_code, typed_phone};
use lajan_domain::client::PersonName;
use lajan_domain::{disbursement, invoice, invoice_payment, payout, validation, webhook};
use serde_json::{Value, json};
use utoipa::openapi::schema::{Object, Schema};
use utoipa::openapi::{OpenApi, RefOr};

/// Characters no text field takes, as a regex class body: C0 and C1 controls, DEL, and the
/// invisible formatting characters `control_character` names.
fn refused(lines: bool) -> String {
    let controls = if lines { r"\x00-\x08\x0B\x0C\x0E-\x1F" } else { r"\x00-\x1F\u2028\u2029" };
    // The tag characters are written as themselves: a regex reads them on any engine.
    format!(
        r"{controls}\x7F-\x9F\u00AD\u115F\u1160\u180E\u200B\u202A-\u202E\u2060-\u2064\u2066-\u206F\u3164\uFEFF\uFFA0\uFFF9-\uFFFB{}-{}",
        '\u{E0000}', '\u{E007F}'
    )
}

/// Free text: without the refused characters; when `required`, with something other than
/// spaces (the server trims, and empty after trimming is "must not be empty").
fn text(max_chars: usize, lines: bool, required: bool) -> Value {
    let no = refused(lines);
    let pattern = if required { format!(r"^[^{no}]*[^\s{no}][^{no}]*$") } else { format!("^[^{no}]*$") };
    json!({ "pattern": pattern, "maxLength": max_chars })
}

/// `(schema, property, rule)` for every text property of a request body.
fn rules() -> Vec<(&'static str, &'static str, Value)> {
    let name = |required| text(PersonName::MAX_CHARS, false, required);
    let reason = || text(validation::MAX_REASON_CHARS, true, false);
    // Spaces around the address are dropped (the whitespace that is not a control character).
    let space = r"[ \u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]*";
    let email = json!({
        "pattern": format!(r"^{space}[A-Za-z0-9!#$%&'*+/=?^_`{{|}}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{{|}}~-]+)*@[A-Za-z0-9]([A-Za-z0-9-]{{0,61}}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{{0,61}}[A-Za-z0-9])?)+{space}$"),
        "maxLength": 254,
    });
    let (phone, account, asset_code) = (typed_phone(), account(), asset_code());
    let memo = text(payout::MEMO_BYTES, false, false);
    let due_date = json!({ "format": "date" });
    vec![
        ("CreateClient", "firstName", name(true)),
        ("CreateClient", "lastName", name(true)),
        ("CreateClient", "email", email.clone()),
        ("CreateClient", "phoneNumber", phone.clone()),
        ("CreateClient", "walletAccountId", account.clone()),
        ("UpdateClient", "firstName", name(true)),
        ("UpdateClient", "lastName", name(true)),
        ("UpdateClient", "email", email),
        ("UpdateClient", "phoneNumber", phone),
        ("UpdateClient", "walletAccountId", account.clone()),
        ("CreateDisbursement", "name", text(disbursement::MAX_NAME_CHARS, false, true)),
        ("CreateDisbursement", "assetCode", asset_code.clone()),
        ("CreateDisbursement", "assetIssuer", account.clone()),
        ("CreateDisbursementItem", "walletAccountId", account.clone()),
        ("CreateDisbursementItem", "memo", memo.clone()),
        ("CreateDisbursementItem", "externalId", {
            let no = refused(false);
            json!({ "pattern": format!(r"^$|^[^{no}]*[^\s{no}][^{no}]*$"), "maxLength": disbursement::MAX_EXTERNAL_ID_CHARS })
        }),
        ("RejectDisbursement", "reason", reason()),
        ("CreateInvoice", "dueDate", due_date.clone()),
        ("CreateInvoice", "memo", text(invoice::MAX_MEMO_CHARS, true, false)),
        ("UpdateInvoice", "dueDate", due_date),
        ("UpdateInvoice", "memo", text(invoice::MAX_MEMO_CHARS, true, false)),
        ("LineItemBody", "description", text(invoice::MAX_DESCRIPTION_CHARS, false, true)),
        ("VoidInvoice", "reason", reason()),
        ("RecordPayment", "method", json!({ "enum": ["cash", "moncash", "natcash", "bank_transfer"] })),
        ("ReversePayment", "reason", text(invoice_payment::REVERSAL_REASON_CHARS, true, true)),
        ("CreatePaymentLink", "description", text(invoice::MAX_DESCRIPTION_CHARS, false, true)),
        ("CreatePayout", "assetCode", asset_code.clone()),
        ("CreatePayout", "assetIssuer", account.clone()),
        ("CreatePayout", "walletAccountId", account),
        ("CreatePayout", "memo", memo),
        ("RejectPayout", "reason", reason()),
        ("TopUp", "assetCode", asset_code),
        ("CreateWebhookEndpoint", "description", text(webhook::MAX_DESCRIPTION_CHARS, false, false)),
        ("UpdateWebhookEndpoint", "description", text(webhook::MAX_DESCRIPTION_CHARS, false, false)),
    ]
}

/// Writes each rule, and those of `openapi_limits`, into its property's or parameter's schema
/// (beside what the derive wrote; an `enum` of a nullable field keeps `null`). A rule naming a
/// property or parameter the document lacks is a mistake here, caught by the test of this module.
pub(crate) fn apply(openapi: &mut OpenApi) -> Vec<String> {
    let mut missing = Vec::new();
    if let Some(components) = openapi.components.as_mut() {
        for (schema, property, rule) in rules().into_iter().chain(crate::openapi_limits::rules()) {
            let target = match components.schemas.get_mut(schema) {
                Some(RefOr::T(Schema::Object(object))) => object.properties.get_mut(property),
                Some(RefOr::T(Schema::AllOf(all))) => all.items.iter_mut().find_map(|part| match part {
                    RefOr::T(Schema::Object(object)) => object.properties.get_mut(property),
                    _ => None,
                }),
                _ => None,
            };
            let applied = match target {
                Some(RefOr::T(Schema::Object(field))) => merge(field, &rule),
                _ => false,
            };
            if !applied {
                missing.push(format!("{schema}.{property}"));
            }
        }
    }
    let csv = rules().into_iter().filter(|(schema, _, _)| *schema == "CreateDisbursement");
    let csv = csv.map(|(_, property, rule)| ("/v1/disbursements", property, rule));
    for (path, name, rule) in crate::openapi_limits::parameter_rules().into_iter().chain(csv) {
        let mut found = false;
        for (_, item) in openapi.paths.paths.iter_mut().filter(|(p, _)| p.starts_with(path)) {
            for operation in [&mut item.get, &mut item.post, &mut item.put, &mut item.delete].into_iter().flatten() {
                for parameter in operation.parameters.iter_mut().flatten().filter(|p| p.name == name) {
                    if let Some(RefOr::T(Schema::Object(field))) = parameter.schema.as_mut() {
                        found |= merge(field, &rule);
                    }
                }
            }
        }
        if !found {
            missing.push(format!("{path} {name}"));
        }
    }
    missing
}

/// `rule`'s keywords over `field`'s; false when the result is no schema (nothing changes then).
fn merge(field: &mut Object, rule: &Value) -> bool {
    let Ok(Value::Object(mut merged)) = serde_json::to_value(&*field) else { return false };
    let nullable = merged.get("type").and_then(Value::as_array).is_some_and(|t| t.iter().any(|t| t == "null"));
    for (keyword, value) in rule.as_object().into_iter().flatten() {
        let mut value = value.clone();
        if let (true, "enum", Value::Array(values)) = (nullable, keyword.as_str(), &mut value) {
            values.push(Value::Null);
        }
        merged.insert(keyword.clone(), value);
    }
    match serde_json::from_value(Value::Object(merged)) {
        Ok(object) => {
            *field = object;
            true
        }
        Err(_) => false,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_rule_names_a_property_of_the_document() {
        let mut document = crate::openapi::document();
        assert_eq!(super::apply(&mut document), Vec::<String>::new());
    }
}
