//! Loopback stand-ins for the services this crate delivers through. This crate's tests use them,
//! and so do the tests of crates that send through it: they prove that an invoice email or SMS
//! really arrives, not just that a sender was called.
//!
//! - [`SmtpSink`]: an SMTP server on 127.0.0.1 that records each message, and can refuse
//!   recipients, demand or fail AUTH, or never answer.
//! - [`SmsProvider`]: an HTTP server for the one Twilio endpoint
//!   [`HttpSmsSender`](crate::notify::HttpSmsSender) uses, checking the account path and the basic
//!   auth the way Twilio does, with scripted failures for retry tests.
//! - [`WebhookReceiver`]: an HTTP server that records webhook POSTs and answers as scripted.
//! - [`wait_for`]: polls until background delivery has happened.
//!
//! Both servers decode what arrives on their own, independently of lettre and reqwest, so a test
//! checks what was on the wire rather than what the sending library meant to send.
//!
//! Compiled only with the `testing` feature; enable it from `[dev-dependencies]`, never from
//! `[dependencies]`. The helpers panic on anything a test should not have to handle (a port that
//! cannot be bound, a message that is not MIME), since that is how a test reports failure.

mod mime;
mod sms;
mod smtp;
mod webhook_receiver;

use std::time::Duration;

pub use sms::{ReceivedSms, SmsProvider};
pub use smtp::{ReceivedEmail, SmtpMode, SmtpSink};
pub use webhook_receiver::{ReceivedWebhook, WebhookReceiver};

/// How often [`wait_for`] probes: short enough not to slow tests, long enough not to spin.
const POLL_INTERVAL: Duration = Duration::from_millis(10);

/// Calls `probe` until it returns `Some` or `timeout` has passed, and returns what it found.
///
/// For deliveries made in the background (a worker task, a spawned send): poll the server for the
/// message instead of sleeping a fixed time, so the test is fast when things work and fails with
/// `None` rather than hanging when they do not. `probe` runs at least once, and once more at the
/// deadline. For an invoice email, say:
/// `wait_for(|| sink.messages().into_iter().next(), Duration::from_secs(5)).await`.
pub async fn wait_for<T>(mut probe: impl FnMut() -> Option<T>, timeout: Duration) -> Option<T> {
    let deadline = tokio::time::Instant::now() + timeout;
    loop {
        if let Some(found) = probe() {
            return Some(found);
        }
        let now = tokio::time::Instant::now();
        if now >= deadline {
            return None;
        }
        tokio::time::sleep(POLL_INTERVAL.min(deadline - now)).await;
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::wait_for;

    #[tokio::test]
    async fn wait_for_polls_until_found_or_timed_out() {
        let mut calls = 0;
        let found = wait_for(
            || {
                calls += 1;
                (calls == 3).then_some("there")
            },
            Duration::from_secs(5),
        )
        .await;
        assert_eq!((found, calls), (Some("there"), 3));

        let started = std::time::Instant::now();
        assert_eq!(wait_for(|| None::<()>, Duration::from_millis(50)).await, None);
        assert!(started.elapsed() >= Duration::from_millis(50));
    }
}
