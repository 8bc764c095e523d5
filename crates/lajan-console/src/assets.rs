//! The console's stylesheet and script, compiled into the binary and served from its own
//! origin (the content policy allows nothing else).

use axum::extract::Path;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};

const FILES: &[(&str, &str, &str)] = &[
    ("console.css", "text/css; charset=utf-8", include_str!("../assets/console.css")),
    ("console.js", "text/javascript; charset=utf-8", include_str!("../assets/console.js")),
];

pub async fn serve(Path(file): Path<String>) -> Response {
    match FILES.iter().find(|(name, _, _)| *name == file) {
        Some((_, content_type, body)) => ([(header::CONTENT_TYPE, *content_type)], *body).into_response(),
        None => StatusCode::NOT_FOUND.into_response(),
    }
}
