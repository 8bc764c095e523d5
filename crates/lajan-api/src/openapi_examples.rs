//! An example on every request body and response of the document. Bodies and successful
//! answers are real ones, recorded by the API test `openapi_examples.rs` into
//! `openapi/examples.json`; an error answer without a recorded one shows the error shape with the
//! first code its description names.

use serde_json::{Map, Value, json};
use utoipa::openapi::path::Operation;
use utoipa::openapi::{Content, OpenApi, RefOr};

const RECORDED: &str = include_str!("../openapi/examples.json");

/// Puts the examples in, and answers what still has none (`"METHOD /path status"`, or `request`
/// in place of the status), which the test of this module wants empty.
pub(crate) fn apply(openapi: &mut OpenApi) -> Vec<String> {
    let recorded: Map<String, Value> = serde_json::from_str(RECORDED).unwrap_or_default();
    let mut missing = Vec::new();
    for (path, item) in openapi.paths.paths.iter_mut() {
        let operations =
            [("GET", &mut item.get), ("POST", &mut item.post), ("PUT", &mut item.put), ("DELETE", &mut item.delete)];
        for (method, operation) in operations {
            let Some(operation) = operation.as_mut() else { continue };
            let name = format!("{method} {path}");
            let example = recorded.get(&name).cloned().unwrap_or(Value::Null);
            add(operation, &example, &name, &mut missing);
        }
    }
    missing
}

fn add(operation: &mut Operation, example: &Value, name: &str, missing: &mut Vec<String>) {
    if let Some(body) = operation.request_body.as_mut() {
        for (content_type, content) in body.content.iter_mut() {
            let key = if content_type == "text/csv" { "requestCsv" } else { "request" };
            match example.get(key) {
                Some(value) => content.example = Some(value.clone()),
                None => missing.push(format!("{name} {key}")),
            }
        }
    }
    for (status, response) in operation.responses.responses.iter_mut() {
        let RefOr::T(response) = response else { continue };
        for (content_type, content) in response.content.iter_mut() {
            let key = if content_type == "text/csv" { format!("{status} text/csv") } else { status.clone() };
            if let Some(value) = example["responses"].get(&key) {
                content.example = Some(value.clone());
            } else if is_error(content) {
                content.example = Some(error_example(status, &response.description));
            } else {
                missing.push(format!("{name} {key}"));
            }
        }
    }
}

fn is_error(content: &Content) -> bool {
    matches!(&content.schema, Some(RefOr::Ref(r)) if r.ref_location.ends_with("/ErrorBody"))
}

/// The error body for `status` with the first code `description` names ("code: what it means;
/// other_code: ..."), and that meaning as its message.
fn error_example(status: &str, description: &str) -> Value {
    let status_code: u16 = status.parse().unwrap_or(400);
    let reason =
        axum::http::StatusCode::from_u16(status_code).ok().and_then(|s| s.canonical_reason()).unwrap_or("Error");
    let is_code = |word: &str| word.contains('_') || matches!(word, "unauthorized" | "forbidden" | "conflict");
    let words = description.split(|c: char| !(c.is_ascii_lowercase() || c == '_'));
    let code = words.into_iter().find(|w| is_code(w)).unwrap_or("validation_error");
    let meaning = description
        .split(';')
        .find_map(|part| part.trim().strip_prefix(code).and_then(|rest| rest.strip_prefix(':')))
        .map(str::trim)
        .filter(|m| !m.is_empty())
        .unwrap_or(reason);
    let mut message: String = meaning.chars().take(1).flat_map(char::to_uppercase).collect();
    message.push_str(&meaning[meaning.chars().next().map_or(0, char::len_utf8)..]);
    json!({ "statusCode": status_code, "error": reason, "code": code, "message": message })
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_body_and_answer_of_the_document_has_an_example() {
        let mut document = crate::openapi::document();
        assert_eq!(super::apply(&mut document), Vec::<String>::new());
    }

    #[test]
    fn an_error_example_names_the_first_code_and_its_meaning() {
        let example = super::error_example("403", "forbidden: the key lacks the scope; conflict: lost a race");
        assert_eq!(example["code"], "forbidden");
        assert_eq!(example["error"], "Forbidden");
        assert_eq!(example["message"], "The key lacks the scope");
        let ordered = super::error_example("400", "checked in this order: missing_recipient, invalid_client");
        assert_eq!(ordered["code"], "missing_recipient");
    }
}
