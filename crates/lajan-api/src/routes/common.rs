//! What every area's routes share: the page parameters and the idempotency header as the
//! document shows them, the pagination object of lists, a resource id from the path, and the
//! answer of a DELETE, and the host a request was addressed to.

use crate::error::ApiError;
use axum::extract::{FromRequestParts, Path};
use axum::http::request::Parts;
use axum::http::{HeaderMap, header};
use lajan_domain::FieldError;
use lajan_domain::id::IdKind;
use lajan_domain::pagination::Page;
use serde::Serialize;
use utoipa::ToSchema;

/// `page`, `limit` and the cursors, as every list documents them (read by the `Pagination`
/// extractor).
#[derive(Debug, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code)]
pub(crate) struct PageParams {
    /// Page number, from 1 (default 1); past the last page, an empty page. Pages deep into a
    /// long list cost more the deeper they are: walk it with `startingAfter` instead.
    #[param(value_type = Option<i64>, minimum = 1, maximum = 4294967295.0)]
    page: Option<u32>,
    /// Page size, 1 to 100 (default 20); anything else is 400 `invalid_pagination`.
    #[param(value_type = Option<i64>, minimum = 1, maximum = 100)]
    limit: Option<u32>,
    /// A keyset page: the items listed after the one with this id (older ones, in the same
    /// newest-first order), each page costing the same however deep. Pass the last id of a page
    /// to get the next while `pagination.hasMore`. An id that is not in this list is 400
    /// `invalid_pagination`; not with `endingBefore`, nor with a `page` past 1.
    #[param(rename = "startingAfter", pattern = r"^[\x21-\x7E]{1,255}$", min_length = 1, max_length = 255)]
    starting_after: Option<String>,
    /// A keyset page: the items listed before the one with this id (newer ones, still newest
    /// first); pass the first id of a page to get the previous one, or the newest id seen to
    /// poll for what came after it.
    #[param(rename = "endingBefore", pattern = r"^[\x21-\x7E]{1,255}$", min_length = 1, max_length = 255)]
    ending_before: Option<String>,
}

/// The `Idempotency-Key` header, as every POST documents it.
#[derive(Debug, utoipa::IntoParams)]
#[into_params(parameter_in = Header)]
#[allow(dead_code)]
pub(crate) struct IdempotencyKeyHeader {
    /// Makes the request safe to retry: 1 to 255 visible ASCII characters, kept 24 h per organization and environment. The first completed response is stored (with the change it made, in its transaction) and replayed with `Idempotent-Replayed: true`; the same key with another request is 422; while the first still runs, 409.
    #[param(rename = "Idempotency-Key", pattern = r"^[\x21-\x7E]{1,255}$", min_length = 1, max_length = 255)]
    idempotency_key: Option<String>,
}

/// The pagination object of every list response.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct PaginationView {
    /// How many items the list holds with these filters; at most 10,000 when
    /// `totalIsEstimate`.
    pub total: u64,
    /// The page number asked for (1 for a cursor page).
    pub page: u32,
    pub limit: u32,
    /// The pages of `limit` items that `total` makes.
    pub total_pages: u64,
    /// `true` when this total was counted only up to 10,000 and more items match (a search, or
    /// filters no count is kept for): `total` is then that bound, and pages go on past
    /// `totalPages`. Counts that are kept (a list unfiltered, or by its status or type) are
    /// always exact.
    pub total_is_estimate: bool,
    /// Whether another page follows this one: older items, or newer ones for `endingBefore`.
    pub has_more: bool,
}

impl PaginationView {
    pub(crate) fn of<T>(page: &Page<T>) -> Self {
        PaginationView {
            total: page.total,
            page: page.request.page,
            limit: page.request.limit,
            total_pages: page.total_pages(),
            total_is_estimate: page.total_is_estimate,
            has_more: page.has_more,
        }
    }
}

/// The `{id}` of a resource path. Ids are opaque: one that cannot be read finds nothing (404).
pub(crate) struct ResourceId(pub String);

impl<S: Send + Sync> FromRequestParts<S> for ResourceId {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        Path::<String>::from_request_parts(parts, state)
            .await
            .map(|Path(id)| ResourceId(id))
            .map_err(|_| ApiError::not_found("resource"))
    }
}

/// The body of a successful DELETE.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct Deleted {
    pub id: String,
    pub deleted: bool,
}

/// The host (with its port, if any) a request was addressed to: its `Host` header, or the
/// URI's authority in HTTP/2. Which organization's home domain a wallet reached depends on it.
pub(crate) fn request_host(headers: &axum::http::HeaderMap, uri: &axum::http::Uri) -> Option<String> {
    let from_header = headers.get(axum::http::header::HOST).and_then(|h| h.to_str().ok());
    from_header.or_else(|| uri.authority().map(|a| a.as_str())).map(str::to_ascii_lowercase)
}

/// Whether the caller asked for CSV: `text/csv` among the types it accepts.
pub(crate) fn wants_csv(headers: &HeaderMap) -> bool {
    headers.get_all(header::ACCEPT).iter().filter_map(|v| v.to_str().ok()).any(|accept| {
        accept
            .split(',')
            .any(|t| t.split(';').next().is_some_and(|essence| essence.trim().eq_ignore_ascii_case("text/csv")))
    })
}

/// A CSV report as a download named `filename`.
pub(crate) fn csv_attachment(csv: Vec<u8>, filename: &str) -> axum::response::Response {
    use axum::http::HeaderValue;
    use axum::response::IntoResponse;
    let mut response = csv.into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/csv; charset=utf-8"));
    if let Ok(value) = HeaderValue::from_str(&format!("attachment; filename=\"{filename}\"")) {
        headers.insert(header::CONTENT_DISPOSITION, value);
    }
    response
}

/// The error of a list filter `field` that should name one of `kind` (`noun`: "a client"), or
/// `None` when it does or is absent.
pub(crate) fn id_filter_error(field: &str, noun: &str, kind: IdKind, given: Option<&str>) -> Option<FieldError> {
    given
        .filter(|id| !kind.is_id(id))
        .map(|_| FieldError::new(field, format!("must be {noun} id ({} and 32 hex digits)", kind.prefix())))
}
