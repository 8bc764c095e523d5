//! Request extractors whose rejections use the API's error shape: JSON bodies (415, 413,
//! `invalid_json`, `validation_error` with the failing field's path) and pagination.

use crate::error::ApiError;
use crate::serve::BodyTimeout;
use axum::body::Bytes;
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::header::CONTENT_TYPE;
use axum::http::request::Parts;
use axum::http::{HeaderMap, StatusCode};
use lajan_domain::FieldError;
use lajan_domain::pagination::{PageRequest, RawPage};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer};

/// Largest request body accepted, in bytes.
pub(crate) const MAX_BODY_BYTES: usize = 1024 * 1024;

/// Largest body of the one operation that takes uploads (a disbursement's items, JSON or CSV).
pub(crate) const MAX_UPLOAD_BYTES: usize = 5 * 1024 * 1024;

/// A JSON request body. Requires `Content-Type: application/json`.
pub(crate) struct ApiJson<T>(pub T);

/// Whether the request says its body is JSON (`application/json`, any parameters, any case).
pub(crate) fn is_json(headers: &HeaderMap) -> bool {
    content_type_is(headers, "application/json")
}

/// Whether the request's `Content-Type` is `essence` (a type/subtype), with any parameters and
/// in any case.
pub(crate) fn content_type_is(headers: &HeaderMap, essence: &str) -> bool {
    headers
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|given| given.trim().eq_ignore_ascii_case(essence))
}

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for ApiJson<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        if !is_json(req.headers()) {
            return Err(unsupported_media_type());
        }
        let bytes = read_body(req, state).await?;
        parse_json(&bytes).map(ApiJson)
    }
}

/// An optional JSON body, for actions (`send`, `void`): an empty body means `T::default()`;
/// a body that is present must be JSON like any other.
pub(crate) struct OptionalJson<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned + Default> FromRequest<S> for OptionalJson<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let json = is_json(req.headers());
        let bytes = read_body(req, state).await?;
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Ok(OptionalJson(T::default()));
        }
        if !json {
            return Err(unsupported_media_type());
        }
        parse_json(&bytes).map(OptionalJson)
    }
}

/// A body of any type, read whole within the route's limit (413 beyond), for operations that
/// take more than JSON.
pub(crate) struct RawBody(pub Bytes);

impl<S: Send + Sync> FromRequest<S> for RawBody {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        read_body(req, state).await.map(RawBody)
    }
}

/// The body, within the route's limit ([`MAX_BODY_BYTES`] unless the route says otherwise; 413
/// beyond).
async fn read_body<S: Send + Sync>(req: Request, state: &S) -> Result<Bytes, ApiError> {
    Bytes::from_request(req, state).await.map_err(|rejection| {
        if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::payload_too_large()
        } else if BodyTimeout::caused(&rejection) {
            ApiError::new(StatusCode::REQUEST_TIMEOUT, "request_timeout", "The request body did not arrive in time")
        } else {
            ApiError::bad_request("invalid_json", "The request body could not be read")
        }
    })
}

fn unsupported_media_type() -> ApiError {
    ApiError::new(
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
        "unsupported_media_type",
        "Send the body as JSON with Content-Type: application/json",
    )
}

/// Parses a JSON body, naming the failing field's path when the JSON is fine but a value is not.
pub(crate) fn parse_json<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    let invalid_json =
        |message: &str| ApiError::bad_request("invalid_json", format!("The request body is not valid JSON: {message}"));
    // serde reads a struct from an array of its fields in order too, so `[]` would pass as `{}`
    // (found by Schemathesis): every body Lajan takes is an object.
    if bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'[') {
        return Err(ApiError::validation(vec![FieldError::new("body", "must be a JSON object")]));
    }
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let value = serde_path_to_error::deserialize(&mut de).map_err(|err| {
        let path = err.path().to_string();
        let inner = err.into_inner();
        let message = strip_position(&inner.to_string());
        if inner.classify() != serde_json::error::Category::Data {
            return invalid_json(&message);
        }
        // The path already ends with an unknown field's own name.
        let field = if path == "." { "body".to_owned() } else { path };
        ApiError::validation(vec![FieldError::new(field, message)])
    })?;
    de.end().map_err(|e| invalid_json(&strip_position(&e.to_string())))?;
    Ok(value)
}

/// serde_json appends " at line L column C"; callers want the message alone.
fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(i) => message[..i].to_owned(),
        None => message.to_owned(),
    }
}

/// For PATCH-like bodies: tells an absent field (`None`) from an explicit `null` (`Some(None)`).
/// Use with `#[serde(default, deserialize_with = "nullable")]`.
pub(crate) fn nullable<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<Option<T>>, D::Error> {
    Option::<T>::deserialize(d).map(Some)
}

/// For PUT fields that keep their value when left out and cannot be cleared: `null` is refused,
/// naming the field, instead of being read as "left out".
/// Use with `#[serde(default, deserialize_with = "not_null")]`.
pub(crate) fn not_null<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
    match Option::<T>::deserialize(d)? {
        Some(value) => Ok(Some(value)),
        None => Err(serde::de::Error::custom("cannot be null; leave the field out to keep its value")),
    }
}

/// A JSON number, kept as its exact text (never through `f64`). Anything else in its place is
/// refused with a message saying a number was expected and what came instead.
#[derive(Debug, Clone)]
pub(crate) struct ExactNumber(serde_json::Number);

impl ExactNumber {
    pub(crate) fn text(&self) -> String {
        self.0.to_string()
    }
}

impl<'de> Deserialize<'de> for ExactNumber {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde_json::Value;
        let got = match Value::deserialize(d)? {
            Value::Number(n) => return Ok(ExactNumber(n)),
            Value::Null => "null",
            Value::Bool(_) => "a boolean",
            Value::String(_) => "a string",
            Value::Array(_) => "an array",
            Value::Object(_) => "an object",
        };
        Err(serde::de::Error::custom(format!("must be a number, not {got}")))
    }
}

/// A list's `search`, at most [`MAX_SEARCH_CHARS`](lajan_domain::pagination::MAX_SEARCH_CHARS)
/// characters and without a NUL (no text Lajan keeps holds one, and neither PostgreSQL text
/// nor an FTS5 query can carry it), else 400 `validation_error` naming it.
pub(crate) fn search_text(search: Option<String>) -> Result<Option<String>, ApiError> {
    use lajan_domain::pagination::MAX_SEARCH_CHARS;
    let refused = |message: String| Err(ApiError::validation(vec![lajan_domain::FieldError::new("search", message)]));
    if search.as_ref().is_some_and(|s| s.chars().count() > MAX_SEARCH_CHARS) {
        return refused(format!("must be at most {MAX_SEARCH_CHARS} characters"));
    }
    if search.as_ref().is_some_and(|s| s.contains('\0')) {
        return refused("must not contain a NUL character".to_owned());
    }
    Ok(search)
}

/// `?page=&limit=` or a cursor (`startingAfter`, `endingBefore`), validated: anything but
/// integers in range and one cursor is 400 `invalid_pagination`.
#[derive(Debug, Clone)]
pub(crate) struct Pagination(pub PageRequest);

impl<S: Send + Sync> FromRequestParts<S> for Pagination {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        let (mut page, mut limit, mut after, mut before) = (None, None, None, None);
        for (key, value) in query_pairs(parts.uri.query())? {
            match key.as_str() {
                "page" => page = Some(value),
                "limit" => limit = Some(value),
                "startingAfter" => after = Some(value),
                "endingBefore" => before = Some(value),
                _ => {}
            }
        }
        let raw = RawPage {
            page: page.as_deref(),
            limit: limit.as_deref(),
            starting_after: after.as_deref(),
            ending_before: before.as_deref(),
        };
        Ok(Pagination(PageRequest::parse_raw(raw)?))
    }
}

/// The decoded `key=value` pairs of a query string (`application/x-www-form-urlencoded`: `+` is
/// a space, `%XX` a byte). A name or value whose bytes are not UTF-8 is 400 `validation_error`
/// naming it, never replaced by look-alike characters; a `%` not followed by two hex digits is
/// kept as written.
pub(crate) fn query_pairs(query: Option<&str>) -> Result<Vec<(String, String)>, ApiError> {
    let decode = |raw: &str, field: &str| {
        let spaced = raw.replace('+', " ");
        percent_encoding::percent_decode_str(&spaced).decode_utf8().map(|text| text.into_owned()).map_err(|_| {
            ApiError::validation(vec![FieldError::new(field, "is percent-encoded bytes that are not UTF-8 text")])
        })
    };
    let Some(query) = query else { return Ok(Vec::new()) };
    let mut pairs = Vec::new();
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (raw_key, raw_value) = pair.split_once('=').unwrap_or((pair, ""));
        let key = decode(raw_key, "query")?;
        let value = decode(raw_value, &key)?;
        pairs.push((key, value));
    }
    Ok(pairs)
}

/// A query-string filter struct; an ill-typed parameter is `validation_error` naming it.
/// Parameters the struct does not name are ignored (`page` and `limit` are read by
/// [`Pagination`]) unless it denies unknown fields, as a create's does.
pub(crate) struct ApiQuery<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequestParts<S> for ApiQuery<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        let pairs = query_pairs(parts.uri.query())?;
        let map: serde_json::Map<String, serde_json::Value> =
            pairs.into_iter().map(|(k, v)| (k, serde_json::Value::String(v))).collect();
        serde_path_to_error::deserialize(serde_json::Value::Object(map)).map(ApiQuery).map_err(|e| {
            let field = e.path().to_string();
            ApiError::validation(vec![FieldError::new(field, strip_position(&e.into_inner().to_string()))])
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields, rename_all = "camelCase")]
    #[allow(dead_code)]
    struct Body {
        first_name: Option<String>,
        items: Option<Vec<Item>>,
    }

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Item {
        quantity: Option<u32>,
    }

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Amounts {
        amount: Option<ExactNumber>,
        #[serde(default, deserialize_with = "not_null")]
        kept: Option<String>,
    }

    #[test]
    fn numbers_and_nulls_say_what_they_expected() {
        let ok = parse_json::<Amounts>(br#"{"amount": 19.990, "kept": "x"}"#).unwrap();
        assert_eq!(ok.amount.map(|n| n.text()).as_deref(), Some("19.990"), "the exact text");
        assert!(parse_json::<Amounts>(br#"{"amount": null}"#).unwrap().amount.is_none());
        for (body, message) in [
            (&br#"{"amount": {"a": 1}}"#[..], "must be a number, not an object"),
            (br#"{"amount": "10.00"}"#, "must be a number, not a string"),
            (br#"{"amount": [1]}"#, "must be a number, not an array"),
        ] {
            let e = parse_json::<Amounts>(body).unwrap_err();
            assert_eq!((e.details[0].field.as_str(), e.details[0].message.as_str()), ("amount", message));
        }
        let e = parse_json::<Amounts>(br#"{"kept": null}"#).unwrap_err();
        assert_eq!(e.details[0].field, "kept");
        assert_eq!(e.details[0].message, "cannot be null; leave the field out to keep its value");
        assert!(parse_json::<Amounts>(br#"{}"#).unwrap().kept.is_none());
    }

    #[test]
    fn query_strings_decode_strictly() {
        let pairs = query_pairs(Some("name=June%20stipends&memo=a+b&x&pct=100%&e=%C3%A9")).unwrap();
        let got: Vec<(&str, &str)> = pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        assert_eq!(got, vec![("name", "June stipends"), ("memo", "a b"), ("x", ""), ("pct", "100%"), ("e", "é")]);
        let e = query_pairs(Some("assetCode=USDC&name=%FF%FE")).unwrap_err();
        assert_eq!((e.code, e.details[0].field.as_str()), ("validation_error", "name"));
        assert_eq!(query_pairs(Some("%C3=1")).unwrap_err().details[0].field, "query");
        assert!(query_pairs(None).unwrap().is_empty());
    }

    #[test]
    fn json_errors_name_the_field() {
        let e = parse_json::<Body>(br#"{"firstName": 3}"#).unwrap_err();
        assert_eq!((e.code, e.details[0].field.as_str()), ("validation_error", "firstName"));
        let e = parse_json::<Body>(br#"{"items": [{"quantity": "x"}]}"#).unwrap_err();
        assert_eq!(e.details[0].field, "items[0].quantity");
        for not_an_object in [&b"[]"[..], b"  [] "] {
            let e = parse_json::<Body>(not_an_object).unwrap_err();
            assert_eq!((e.status.as_u16(), e.details[0].message.as_str()), (400, "must be a JSON object"));
        }
        let e = parse_json::<Body>(br#"{"nope": 1}"#).unwrap_err();
        assert_eq!(e.details[0].field, "nope");
        let e = parse_json::<Body>(br#"{"items": [{"extra": 1}]}"#).unwrap_err();
        assert_eq!(e.details[0].field, "items[0].extra");
        let e = parse_json::<Body>(br#"[]"#).unwrap_err();
        assert_eq!(e.details[0].field, "body");
        for bad in [&b"{"[..], b"", b"{} x", b"{'a':1}"] {
            assert_eq!(parse_json::<Body>(bad).unwrap_err().code, "invalid_json");
        }
        assert!(parse_json::<Body>(br#"{"firstName": "A"}"#).is_ok());
    }
}
