//! The API reference at `/docs`: Swagger UI, bundled into the binary, reading the OpenAPI
//! document at `/v1/openapi.json`. `/docs` answers the page itself rather than a redirect to
//! `/docs/` (one round trip less, and the address people type is the page's).

use crate::openapi;
use crate::state::AppState;
use axum::extract::Path;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use std::sync::{Arc, LazyLock};
use utoipa_swagger_ui::Config;

const DOCUMENT: &str = "/v1/openapi.json";

static CONFIG: LazyLock<Arc<Config<'static>>> = LazyLock::new(|| Arc::new(Config::from(DOCUMENT)));
static OPENAPI: LazyLock<utoipa::openapi::OpenApi> = LazyLock::new(openapi::document);

pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route(DOCUMENT, get(|| async { Json(&*OPENAPI) }))
        .route("/docs", get(page))
        .route("/docs/", get(page))
        .route("/docs/{*file}", get(file))
}

/// Swagger UI's page. Its stylesheet and scripts are linked relative to it (`./swagger-ui.css`),
/// so the page names `/docs/` as its base: they load from `/docs` too.
async fn page() -> Response {
    match utoipa_swagger_ui::serve("index.html", CONFIG.clone()) {
        Ok(Some(index)) => {
            let html = String::from_utf8_lossy(&index.bytes).replacen("<head>", "<head>\n<base href=\"/docs/\">", 1);
            ([(header::CONTENT_TYPE, HeaderValue::from_static("text/html; charset=utf-8"))], html).into_response()
        }
        _ => StatusCode::NOT_FOUND.into_response(),
    }
}

async fn file(Path(file): Path<String>) -> Response {
    match utoipa_swagger_ui::serve(&file, CONFIG.clone()) {
        Ok(Some(found)) => ([(header::CONTENT_TYPE, found.content_type)], found.bytes.into_owned()).into_response(),
        _ => StatusCode::NOT_FOUND.into_response(),
    }
}
