//! The value rules of request fields that are text, written into their schemas so generators
//! and fuzzers read what the server reads: which characters free text refuses (the same set as
//! `lajan_domain::validation::control_character`), that a required text is not blank, the
//! lengths (from the domain's own constants), and the shapes of emails, phone numbers, Stellar
//! addresses, asset codes and dates. Rules no schema can say (a checksum, a byte count, that an
//! id exists, a date in the future) are the server's alone, and `.ci/schemathesis.toml` says so
//! operation by operation.

use lajan_domain::client::PersonName;
use lajan_domain::{disbursement, invoice, payout, validation, webhook};
use serde_json::{Value, json};
use utoipa::openapi::schema::{KnownFormat, Schema, SchemaFormat};
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

const STELLAR_ACCOUNT: &str = "^G[A-Z2-7]{55}$";

/// `(schema, property, rule)` for every text property of a request body.
fn rules() -> Vec<(&'static str, &'static str, Value)> {
    let name = |required| text(PersonName::MAX_CHARS, false, required);
    let reason = || text(validation::MAX_REASON_CHARS, true, false);
    let email = json!({
        "pattern": r"^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$",
        "maxLength": 254,
    });
    let phone = json!({ "pattern": r"^\+[1-9][0-9]{7,14}$" });
    let account = json!({ "pattern": STELLAR_ACCOUNT });
    let asset_code = json!({ "pattern": "^[A-Za-z0-9]{1,12}$" });
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

/// Writes each rule into its property's schema (beside what the derive wrote). A rule naming a
/// property the document lacks is a mistake here, caught by the test of this module.
pub fn apply(openapi: &mut OpenApi) -> Vec<String> {
    let mut missing = Vec::new();
    let Some(components) = openapi.components.as_mut() else { return missing };
    for (schema, property, rule) in rules() {
        let target = match components.schemas.get_mut(schema) {
            Some(RefOr::T(Schema::Object(object))) => object.properties.get_mut(property),
            _ => None,
        };
        let Some(RefOr::T(Schema::Object(field))) = target else {
            missing.push(format!("{schema}.{property}"));
            continue;
        };
        if let Some(pattern) = rule["pattern"].as_str() {
            field.pattern = Some(pattern.to_owned());
        }
        if let Some(max) = rule["maxLength"].as_u64() {
            field.max_length = usize::try_from(max).ok();
        }
        if rule["format"] == "date" {
            field.format = Some(SchemaFormat::KnownFormat(KnownFormat::Date));
        }
    }
    missing
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_rule_names_a_property_of_the_document() {
        let mut document = crate::openapi::document();
        assert_eq!(super::apply(&mut document), Vec::<String>::new());
    }
}
