//! A loopback stand-in for a Twilio-compatible SMS provider.

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use axum::Router;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use base64::Engine as _;
use serde_json::json;
use tokio::task::JoinHandle;

const ACCOUNT_SID: &str = "AC123";
/// Distinctive, so a test can search logs and error texts for it to prove it never leaks.
const AUTH_TOKEN: &str = "tok_s3cret_never_logged";

/// A message the provider accepted (answered 201 for).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReceivedSms {
    /// The message sid the provider answered with (`SM` and 32 hex digits, unique per provider).
    pub sid: String,
    /// The posted `To`, `From` and `Body`, as sent.
    pub to: String,
    pub from: String,
    pub body: String,
    /// Every other form field posted, in order: Twilio takes optional ones such as
    /// `StatusCallback`. Empty for a plain send.
    pub other_params: Vec<(String, String)>,
}

/// An HTTP server on `127.0.0.1` answering `POST /2010-04-01/Accounts/{sid}/Messages.json` like
/// Twilio: 201 with a JSON message resource (`sid`, `status: "queued"`, ...) for a well-formed
/// request with the right credentials, Twilio's error bodies otherwise.
///
/// Checks, in order: the account in the path ([`SmsProvider::account_sid`], else 404), HTTP basic
/// auth with the account sid and [`SmsProvider::auth_token`] (else 401, code 20003), a
/// `application/x-www-form-urlencoded` body (else 415), then any answer scripted with
/// [`SmsProvider::respond_next`], then that `To`, `From` and `Body` are present (else 400, codes
/// 21604, 21603, 21602). Only 201s are recorded in [`SmsProvider::messages`].
///
/// Stops accepting connections when dropped: keep it alive for as long as the test sends.
pub struct SmsProvider {
    addr: SocketAddr,
    shared: Arc<Mutex<Shared>>,
    server: JoinHandle<()>,
}

#[derive(Default)]
struct Shared {
    received: Vec<ReceivedSms>,
    scripted: VecDeque<(StatusCode, String)>,
    delay: Duration,
    requests: usize,
    sids_issued: u64,
}

impl SmsProvider {
    /// Binds `127.0.0.1:0` and starts serving. Needs a tokio runtime.
    pub async fn start() -> SmsProvider {
        let shared = Arc::new(Mutex::new(Shared::default()));
        let app = Router::new()
            .route("/2010-04-01/Accounts/{account}/Messages.json", post(create_message))
            .fallback(not_found)
            .with_state(Arc::clone(&shared));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind the SMS provider on 127.0.0.1");
        let addr = listener.local_addr().expect("the SMS provider's address");
        let server = tokio::spawn(async move {
            axum::serve(listener, app).await.expect("the SMS provider stopped");
        });
        SmsProvider { addr, shared, server }
    }

    /// The base URL to configure the sender with: `http://127.0.0.1:{port}`, no trailing slash.
    pub fn base_url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// The only account sid the provider knows: `AC123`.
    pub fn account_sid(&self) -> &str {
        ACCOUNT_SID
    }

    /// The account's auth token, for basic auth; distinctive enough to search error texts for.
    pub fn auth_token(&self) -> &str {
        AUTH_TOKEN
    }

    /// The messages accepted so far, oldest first.
    pub fn messages(&self) -> Vec<ReceivedSms> {
        self.lock().received.clone()
    }

    /// How many requests reached the Messages endpoint, whatever they were answered: the number
    /// of attempts, for retry tests.
    pub fn requests(&self) -> usize {
        self.lock().requests
    }

    /// Answers the next `times` authenticated requests with `status` and the JSON `body` instead
    /// of accepting them, to imitate outages (503), throttling (429), rejections (400 with
    /// Twilio's `{"code":21211,"message":"Invalid 'To' Phone Number"}`) or odd replies. Calls
    /// queue up: `respond_next(2, 503, ..)` then `respond_next(1, 429, ..)` gives 503, 503, 429,
    /// then normal answers. Scripted answers are not recorded in [`SmsProvider::messages`].
    ///
    /// Panics if `status` is not a valid HTTP status code.
    pub fn respond_next(&self, times: usize, status: u16, body: impl Into<String>) {
        let status = StatusCode::from_u16(status).expect("respond_next: not an HTTP status code");
        let body = body.into();
        self.lock().scripted.extend(std::iter::repeat_n((status, body), times));
    }

    /// Holds back every answer from now on by `delay`, to imitate a provider too slow for the
    /// client's timeout. The request is handled (and a message recorded) first; only the answer is
    /// late, as when a provider took the message but its reply was lost.
    pub fn set_delay(&self, delay: Duration) {
        self.lock().delay = delay;
    }

    /// Reports message `sid`'s `status` (`sent`, `delivered`, `undelivered`, `failed`; with an
    /// `ErrorCode` when given) to the `StatusCallback` it was sent with, as Twilio does: a form
    /// POST signed with the account's auth token (`X-Twilio-Signature`, over the callback URL as
    /// given). `reach` is where that URL's host answers in the test (the app's base URL), as the
    /// proxy in front of a public URL routes it. Returns the answer's status.
    ///
    /// Panics if no accepted message has `sid` or it was sent without a `StatusCallback`.
    pub async fn report_status(&self, sid: &str, status: &str, error_code: Option<&str>, reach: &str) -> u16 {
        let sent = self.messages().into_iter().find(|m| m.sid == sid).expect("report_status: no message with that sid");
        let callback = sent
            .other_params
            .iter()
            .find(|(name, _)| name == "StatusCallback")
            .map(|(_, url)| url.clone())
            .expect("report_status: the message was sent without a StatusCallback");
        let mut params: Vec<(String, String)> = [
            ("AccountSid", ACCOUNT_SID),
            ("ApiVersion", "2010-04-01"),
            ("From", sent.from.as_str()),
            ("MessageSid", sid),
            ("MessageStatus", status),
            ("SmsSid", sid),
            ("SmsStatus", status),
            ("To", sent.to.as_str()),
        ]
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect();
        params.extend(error_code.map(|code| ("ErrorCode".to_owned(), code.to_owned())));
        let signature = lajan_services::messages::receipts::sms_signature(AUTH_TOKEN, &callback, &params);
        let public = url::Url::parse(&callback).expect("report_status: the StatusCallback is not a URL");
        let target = format!("{}{}?{}", reach.trim_end_matches('/'), public.path(), public.query().unwrap_or_default());
        let response = reqwest::Client::new()
            .post(target)
            .header("X-Twilio-Signature", signature)
            .form(&params)
            .send()
            .await
            .expect("report_status: the callback could not be posted");
        response.status().as_u16()
    }

    fn lock(&self) -> MutexGuard<'_, Shared> {
        self.shared.lock().expect("SMS provider lock")
    }
}

impl Drop for SmsProvider {
    fn drop(&mut self) {
        self.server.abort();
    }
}

fn json_response(status: StatusCode, body: String) -> Response {
    (status, [(header::CONTENT_TYPE, "application/json")], body).into_response()
}

/// Twilio's error body.
fn twilio_error(status: StatusCode, code: Option<u32>, message: &str) -> (StatusCode, String) {
    let mut body = json!({ "message": message, "status": status.as_u16() });
    if let Some(code) = code {
        body["code"] = json!(code);
        body["more_info"] = json!(format!("https://www.twilio.com/docs/errors/{code}"));
    }
    (status, body.to_string())
}

async fn not_found() -> Response {
    let (status, body) = twilio_error(StatusCode::NOT_FOUND, Some(20404), "The requested resource was not found");
    json_response(status, body)
}

async fn create_message(
    State(shared): State<Arc<Mutex<Shared>>>,
    Path(account): Path<String>,
    headers: HeaderMap,
    body: String,
) -> Response {
    let (status, body, delay) = {
        let mut shared = shared.lock().expect("SMS provider lock");
        shared.requests += 1;
        let (status, body) = answer(&mut shared, &account, &headers, &body);
        (status, body, shared.delay)
    };
    tokio::time::sleep(delay).await;
    json_response(status, body)
}

fn answer(shared: &mut Shared, account: &str, headers: &HeaderMap, body: &str) -> (StatusCode, String) {
    if account != ACCOUNT_SID {
        return twilio_error(StatusCode::NOT_FOUND, Some(20404), "The requested resource was not found");
    }
    if !authorized(headers) {
        return twilio_error(StatusCode::UNAUTHORIZED, Some(20003), "Authenticate");
    }
    let content_type = headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or_default();
    let essence = content_type.split(';').next().unwrap_or_default().trim();
    if !essence.eq_ignore_ascii_case("application/x-www-form-urlencoded") {
        let message = format!("Content-Type {content_type:?} is not application/x-www-form-urlencoded");
        return twilio_error(StatusCode::UNSUPPORTED_MEDIA_TYPE, None, &message);
    }
    let Ok(form) = serde_urlencoded::from_str::<Vec<(String, String)>>(body) else {
        return twilio_error(StatusCode::BAD_REQUEST, None, "The request body is not a valid form");
    };
    if let Some(scripted) = shared.scripted.pop_front() {
        return scripted;
    }

    let (mut to, mut from, mut text, mut other_params) = (None, None, None, Vec::new());
    for (name, value) in form {
        match name.as_str() {
            "To" => to = Some(value),
            "From" => from = Some(value),
            "Body" => text = Some(value),
            _ => other_params.push((name, value)),
        }
    }
    let Some(to) = to.filter(|v| !v.is_empty()) else {
        return twilio_error(StatusCode::BAD_REQUEST, Some(21604), "A 'To' phone number is required.");
    };
    let Some(from) = from.filter(|v| !v.is_empty()) else {
        return twilio_error(StatusCode::BAD_REQUEST, Some(21603), "A 'From' phone number is required.");
    };
    let Some(text) = text.filter(|v| !v.is_empty()) else {
        return twilio_error(StatusCode::BAD_REQUEST, Some(21602), "Message body is required.");
    };

    shared.sids_issued += 1;
    let sid = format!("SM{:032x}", shared.sids_issued);
    let resource = json!({
        "sid": sid,
        "account_sid": ACCOUNT_SID,
        "to": to,
        "from": from,
        "body": text,
        "status": "queued",
        "direction": "outbound-api",
        "num_segments": "1",
        "error_code": null,
        "error_message": null,
        "api_version": "2010-04-01",
        "uri": format!("/2010-04-01/Accounts/{ACCOUNT_SID}/Messages/{sid}.json"),
    });
    shared.received.push(ReceivedSms { sid, to, from, body: text, other_params });
    (StatusCode::CREATED, resource.to_string())
}

/// HTTP basic auth with the account sid as user and the auth token as password.
fn authorized(headers: &HeaderMap) -> bool {
    let Some(value) = headers.get(header::AUTHORIZATION).and_then(|v| v.to_str().ok()) else {
        return false;
    };
    let Some((scheme, credentials)) = value.split_once(' ') else {
        return false;
    };
    scheme.eq_ignore_ascii_case("basic")
        && base64::engine::general_purpose::STANDARD
            .decode(credentials.trim())
            .is_ok_and(|decoded| decoded == format!("{ACCOUNT_SID}:{AUTH_TOKEN}").as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The answers a wrong request gets, which the sender's own tests never provoke.
    #[tokio::test]
    async fn refuses_what_twilio_would() {
        let provider = SmsProvider::start().await;
        let client = reqwest::Client::new();
        let url = |account: &str| format!("{}/2010-04-01/Accounts/{account}/Messages.json", provider.base_url());
        let full = [("To", "+50937000000"), ("From", "+15005550006"), ("Body", "Bonjou")];
        let post =
            |account: &str, token: &str| client.post(url(account)).basic_auth(ACCOUNT_SID, Some(token.to_owned()));
        let answer = async |request: reqwest::RequestBuilder| {
            let response = request.send().await.unwrap();
            let status = response.status().as_u16();
            let body = response.bytes().await.unwrap();
            (status, serde_json::from_slice(&body).unwrap_or(serde_json::Value::Null))
        };

        let (status, body) = answer(post("AC999", AUTH_TOKEN).form(&full)).await;
        assert_eq!((status, body["code"].as_u64()), (404, Some(20404)), "{body}");
        let (status, body) = answer(post(ACCOUNT_SID, "wrong").form(&full)).await;
        assert_eq!((status, body["code"].as_u64()), (401, Some(20003)), "{body}");
        let (status, body) = answer(client.post(url(ACCOUNT_SID)).form(&full)).await;
        assert_eq!((status, body["code"].as_u64()), (401, Some(20003)), "{body}");
        let (status, body) = answer(post(ACCOUNT_SID, AUTH_TOKEN).json(&serde_json::json!({"To": "+1"}))).await;
        assert_eq!(status, 415, "{body}");
        let (status, body) = answer(post(ACCOUNT_SID, AUTH_TOKEN).form(&full[1..])).await;
        assert_eq!((status, body["code"].as_u64()), (400, Some(21604)), "{body}");
        let (status, body) = answer(post(ACCOUNT_SID, AUTH_TOKEN).form(&[full[0], full[1]])).await;
        assert_eq!((status, body["code"].as_u64()), (400, Some(21602)), "{body}");
        let (status, body) = answer(client.get(url(ACCOUNT_SID))).await;
        assert_eq!(status, 405, "{body}");
        assert!(provider.messages().is_empty());
        assert_eq!(provider.requests(), 6);

        let with_callback = [full[0], full[1], full[2], ("StatusCallback", "https://example.ht/cb")];
        let (status, body) = answer(post(ACCOUNT_SID, AUTH_TOKEN).form(&with_callback)).await;
        assert_eq!(status, 201, "{body}");
        let got = provider.messages().remove(0);
        assert_eq!(body["sid"].as_str(), Some(got.sid.as_str()));
        assert_eq!(body["to"].as_str(), Some("+50937000000"));
        assert_eq!(got.other_params, [("StatusCallback".to_owned(), "https://example.ht/cb".to_owned())]);
    }
}
