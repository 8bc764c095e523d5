//! One webhook POST as Standard Webhooks says: the signature, the request (no redirects
//! followed, a deadline on the whole exchange) and what came back, kept small.

use base64::Engine;
use base64::engine::general_purpose::STANDARD as BASE64;
use hmac::{Hmac, Mac};
use lajan_domain::network::non_public;
use lajan_services::error::error_chain;
use sha2::Sha256;
use std::time::{Duration, Instant};

/// How much of a receiver's answer is read; the rest is left unread.
const READ_LIMIT: usize = 64 * 1024;
/// How much of it is kept with the attempt.
const KEEP_LIMIT: usize = lajan_domain::webhook::MAX_STORED_RESPONSE_BYTES;

/// `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` under the key the `whsec_` secret encodes;
/// `None` when the secret is not one (the store only holds secrets Lajan generated).
pub fn signature(secret: &str, msg_id: &str, timestamp: i64, body: &[u8]) -> Option<String> {
    let key = BASE64.decode(secret.strip_prefix("whsec_")?).ok()?;
    let mut mac = Hmac::<Sha256>::new_from_slice(&key).ok()?;
    mac.update(format!("{msg_id}.{timestamp}.").as_bytes());
    mac.update(body);
    Some(format!("v1,{}", BASE64.encode(mac.finalize().into_bytes())))
}

/// What one POST came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// The receiver's HTTP status, when it answered.
    pub status: Option<u16>,
    /// `Retry-After`, in milliseconds from now, when it sent one that reads.
    pub retry_after_ms: Option<i64>,
    /// The first 4 KiB of its body, when it came from a public address.
    pub body: Option<String>,
    /// Why there was no answer (timeout, connection refused), when there was none.
    pub error: Option<String>,
    pub duration_ms: i64,
}

/// POSTs `body` (an event) to `url` as message `msg_id`, signed with each of `secrets` (the
/// signatures space-separated, as Standard Webhooks allows during a rotation), within `timeout`.
pub async fn post(
    http: &reqwest::Client,
    url: &str,
    secrets: &[String],
    msg_id: &str,
    body: Vec<u8>,
    timeout: Duration,
) -> Answer {
    let started = Instant::now();
    let timestamp = jiff::Timestamp::now().as_second();
    let signatures: Option<Vec<String>> =
        secrets.iter().map(|secret| signature(secret, msg_id, timestamp, &body)).collect();
    let Some(signature) = signatures.filter(|s| !s.is_empty()).map(|s| s.join(" ")) else {
        return Answer::failed("the endpoint's secret is not a whsec_ key", started);
    };
    let request = http
        .post(url)
        .header(reqwest::header::CONTENT_TYPE, "application/json")
        .header("webhook-id", msg_id)
        .header("webhook-timestamp", timestamp.to_string())
        .header("webhook-signature", signature)
        .body(body);
    let exchange = async {
        let mut response = request.send().await?;
        let status = response.status().as_u16();
        // What a private address answers (a sandbox endpoint on the operator's network) is never
        // read, so a webhook cannot be used to read an internal service's pages.
        let public_peer = response.remote_addr().is_some_and(|peer| non_public(peer.ip()).is_none());
        let retry_after_ms = response
            .headers()
            .get(reqwest::header::RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| retry_after_ms(v, jiff::Timestamp::now()));
        let mut read = Vec::new();
        while public_peer && read.len() < READ_LIMIT {
            match response.chunk().await? {
                Some(chunk) => read.extend_from_slice(&chunk),
                None => break,
            }
        }
        Ok::<_, reqwest::Error>((status, retry_after_ms, read))
    };
    match tokio::time::timeout(timeout, exchange).await {
        Ok(Ok((status, retry_after_ms, read))) => Answer {
            status: Some(status),
            retry_after_ms,
            body: (!read.is_empty()).then(|| kept(&read)),
            error: None,
            duration_ms: elapsed_ms(started),
        },
        Ok(Err(e)) if e.is_timeout() => Answer::failed(&timed_out(timeout), started),
        Ok(Err(e)) if e.is_connect() => Answer::failed(&format!("could not connect: {}", error_chain(&e)), started),
        Ok(Err(e)) => Answer::failed(&error_chain(&e), started),
        Err(_) => Answer::failed(&timed_out(timeout), started),
    }
}

impl Answer {
    /// Not sent at all, for `why`.
    pub fn refused(why: String) -> Self {
        Answer { status: None, retry_after_ms: None, body: None, error: Some(why), duration_ms: 0 }
    }

    fn failed(error: &str, started: Instant) -> Self {
        Answer {
            status: None,
            retry_after_ms: None,
            body: None,
            error: Some(error.to_owned()),
            duration_ms: elapsed_ms(started),
        }
    }
}

fn timed_out(timeout: Duration) -> String {
    format!("no answer within {} ms", timeout.as_millis())
}

fn elapsed_ms(started: Instant) -> i64 {
    i64::try_from(started.elapsed().as_millis()).unwrap_or(i64::MAX)
}

/// The first [`KEEP_LIMIT`] bytes of `read` as text, cut on a character boundary.
fn kept(read: &[u8]) -> String {
    let text = String::from_utf8_lossy(&read[..read.len().min(KEEP_LIMIT)]);
    let mut end = text.len().min(KEEP_LIMIT);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text[..end].to_owned()
}

/// `Retry-After` as milliseconds from `now`: delay-seconds or an HTTP date (RFC 9110).
fn retry_after_ms(value: &str, now: jiff::Timestamp) -> Option<i64> {
    let value = value.trim();
    if let Ok(seconds) = value.parse::<i64>() {
        return (seconds >= 0).then(|| seconds.saturating_mul(1000));
    }
    let at = jiff::fmt::rfc2822::DateTimeParser::new().parse_timestamp(value).ok()?;
    Some((at.as_millisecond() - now.as_millisecond()).max(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signs_as_the_standard_webhooks_example_does() {
        // The example of the Standard Webhooks specification (spec/standard-webhooks.md).
        let body = br#"{"test": 2432232314}"#;
        let signed =
            signature("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, body);
        assert_eq!(signed.as_deref(), Some("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="));
        assert_eq!(signature("not-a-secret", "m", 1, body), None);
    }

    #[test]
    fn reads_retry_after_as_seconds_or_a_date() {
        let now = jiff::Timestamp::from_second(784_111_777).unwrap();
        assert_eq!(retry_after_ms("120", now), Some(120_000));
        assert_eq!(retry_after_ms("Mon, 07 Nov 1994 08:49:37 GMT", now), Some(86_400_000));
        assert_eq!(retry_after_ms("Sat, 05 Nov 1994 08:49:37 GMT", now), Some(0), "a past date means now");
        assert_eq!(retry_after_ms("-1", now), None);
        assert_eq!(retry_after_ms("soon", now), None);
    }

    #[test]
    fn keeps_four_kib_on_a_character_boundary() {
        let read = "é".repeat(3000).into_bytes();
        let text = kept(&read);
        assert!(text.len() <= KEEP_LIMIT && text.chars().all(|c| c == 'é'), "{}", text.len());
    }
}
