//! The console's stylesheet, script and icon, compiled into the binary and served from its own
//! origin (the content policy allows nothing else).

use axum::extract::Path;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

const FILES: &[(&str, &str, &str)] = &[
    ("console.css", "text/css; charset=utf-8", include_str!("../assets/console.css")),
    ("console.js", "text/javascript; charset=utf-8", include_str!("../assets/console.js")),
];

pub(crate) async fn serve(Path(file): Path<String>) -> Response {
    match FILES.iter().find(|(name, _, _)| *name == file) {
        Some((_, content_type, body)) => ([(header::CONTENT_TYPE, *content_type)], *body).into_response(),
        None => StatusCode::NOT_FOUND.into_response(),
    }
}

/// The icon every page links (`/favicon.svg`), also answered at `/favicon.ico`, where browsers
/// look when a page names none (an error page, the API reference): no page logs a 404 for it.
/// It is the same for everyone, so any cache may keep it for a day.
pub async fn favicon() -> Response {
    let headers = [
        (header::CONTENT_TYPE, HeaderValue::from_static("image/svg+xml")),
        (header::CACHE_CONTROL, HeaderValue::from_static("public, max-age=86400")),
    ];
    (headers, include_str!("../assets/favicon.svg")).into_response()
}
