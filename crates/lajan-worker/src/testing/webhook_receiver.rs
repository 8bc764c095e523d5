//! A loopback webhook receiver: records every POST with its headers and body, and answers as
//! scripted (a status, headers such as `Location` or `Retry-After`, a body, a delay).

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderName, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};
use tokio::task::JoinHandle;

/// One POST as it arrived.
#[derive(Debug, Clone)]
pub struct ReceivedWebhook {
    pub path: String,
    pub headers: HeaderMap,
    pub body: Bytes,
    pub at: Instant,
}

impl ReceivedWebhook {
    /// A header's value as text; empty when absent.
    pub fn header(&self, name: &str) -> String {
        self.headers.get(name).and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned()
    }

    /// The body as JSON. Panics when it is not.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).expect("a webhook body is JSON")
    }
}

/// A scripted answer.
#[derive(Debug, Clone)]
struct Scripted {
    status: StatusCode,
    headers: Vec<(String, String)>,
    body: String,
}

#[derive(Default)]
struct Shared {
    received: Vec<ReceivedWebhook>,
    scripted: VecDeque<Scripted>,
    delay: Duration,
}

/// Answers 200 `ok` to every POST on any path unless scripted otherwise. Stops when dropped.
pub struct WebhookReceiver {
    addr: SocketAddr,
    shared: Arc<Mutex<Shared>>,
    server: JoinHandle<()>,
}

impl WebhookReceiver {
    /// Binds `127.0.0.1:0` and starts serving. Needs a tokio runtime.
    pub async fn start() -> WebhookReceiver {
        let shared = Arc::new(Mutex::new(Shared::default()));
        let app = Router::new().route("/{*path}", post(receive)).with_state(Arc::clone(&shared));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind the webhook receiver");
        let addr = listener.local_addr().expect("the webhook receiver's address");
        let server = tokio::spawn(async move {
            axum::serve(listener, app).await.expect("the webhook receiver stopped");
        });
        WebhookReceiver { addr, shared, server }
    }

    /// `http://127.0.0.1:{port}{path}`.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// Everything received so far, oldest first.
    pub fn received(&self) -> Vec<ReceivedWebhook> {
        self.lock().received.clone()
    }

    /// Answers the next `times` POSTs with `status`, `headers` and `body` (they are recorded too).
    pub fn respond_next(&self, times: usize, status: u16, headers: &[(&str, &str)], body: &str) {
        let status = StatusCode::from_u16(status).expect("respond_next: not an HTTP status code");
        let scripted = Scripted {
            status,
            headers: headers.iter().map(|(n, v)| ((*n).to_owned(), (*v).to_owned())).collect(),
            body: body.to_owned(),
        };
        self.lock().scripted.extend(std::iter::repeat_n(scripted, times));
    }

    /// Holds back every answer by `delay` from now on.
    pub fn set_delay(&self, delay: Duration) {
        self.lock().delay = delay;
    }

    fn lock(&self) -> MutexGuard<'_, Shared> {
        self.shared.lock().expect("webhook receiver lock")
    }
}

impl Drop for WebhookReceiver {
    fn drop(&mut self) {
        self.server.abort();
    }
}

async fn receive(
    State(shared): State<Arc<Mutex<Shared>>>,
    uri: axum::http::Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let (answer, delay) = {
        let mut shared = shared.lock().expect("webhook receiver lock");
        shared.received.push(ReceivedWebhook { path: uri.path().to_owned(), headers, body, at: Instant::now() });
        (shared.scripted.pop_front(), shared.delay)
    };
    if !delay.is_zero() {
        tokio::time::sleep(delay).await;
    }
    let Some(answer) = answer else { return (StatusCode::OK, "ok").into_response() };
    let mut response = (answer.status, answer.body).into_response();
    for (name, value) in answer.headers {
        if let (Ok(name), Ok(value)) = (HeaderName::try_from(name), HeaderValue::try_from(value)) {
            response.headers_mut().insert(name, value);
        }
    }
    response
}
