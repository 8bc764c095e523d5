//! Delivery receipts: the SMS provider's status callbacks (Twilio's `StatusCallback`), checked
//! against the provider's signature and applied to the message they are about, forward only.

use crate::events::message_event;
use crate::{ServiceError, ServiceResult, Services};
use base64::Engine as _;
use hmac::{Hmac, Mac};
use lajan_domain::message::MessageStatus;
use lajan_domain::{Invalid, Timestamp};
use lajan_store::messages::ProviderReport;
use secrecy::{ExposeSecret, SecretString};
use sha1::Sha1;

/// Where the provider calls back, under the public URL; the query names our message
/// (`?message=msg_...`), so a receipt that overtakes the worker's own record still finds it.
pub const SMS_CALLBACK_PATH: &str = "/callbacks/sms";

/// The SMS provider account whose callbacks are accepted: the one the worker sends through.
#[derive(Debug, Clone)]
pub struct SmsAccount {
    pub account_sid: String,
    /// Keys the callbacks' signatures. Never logged.
    pub auth_token: SecretString,
}

/// A status callback as it arrived.
pub struct SmsCallback<'a> {
    /// The request's path and query, as the provider was given them.
    pub path_and_query: &'a str,
    /// The form parameters, as posted.
    pub params: &'a [(String, String)],
    /// `X-Twilio-Signature`.
    pub signature: Option<&'a str>,
}

fn signed_text(url: &str, params: &[(String, String)]) -> String {
    let mut sorted: Vec<&(String, String)> = params.iter().collect();
    sorted.sort();
    sorted.iter().fold(url.to_owned(), |text, (name, value)| text + name + value)
}

fn mac_of(auth_token: &str, url: &str, params: &[(String, String)]) -> Option<Hmac<Sha1>> {
    let mut mac = Hmac::<Sha1>::new_from_slice(auth_token.as_bytes()).ok()?;
    mac.update(signed_text(url, params).as_bytes());
    Some(mac)
}

/// The provider's signature of a POST to `url` with form `params` (`X-Twilio-Signature`):
/// base64 of the HMAC-SHA1, keyed with the account's auth token, of the URL followed by each
/// parameter's name and value, sorted by name.
pub fn sms_signature(auth_token: &str, url: &str, params: &[(String, String)]) -> String {
    let digest = mac_of(auth_token, url, params).map(|m| m.finalize().into_bytes().to_vec()).unwrap_or_default();
    base64::engine::general_purpose::STANDARD.encode(digest)
}

/// Whether `signature` is the provider's for this request, compared in constant time.
pub fn sms_signature_matches(auth_token: &str, url: &str, params: &[(String, String)], signature: &str) -> bool {
    let Ok(given) = base64::engine::general_purpose::STANDARD.decode(signature.trim()) else { return false };
    mac_of(auth_token, url, params).is_some_and(|m| m.verify_slice(&given).is_ok())
}

/// What the provider's `MessageStatus` says of a message; `None` for a step on the way
/// (`queued`, `accepted`, `scheduled`, `sending`) that changes nothing Lajan shows.
fn status_of(provider_status: &str) -> Option<MessageStatus> {
    match provider_status {
        "sent" => Some(MessageStatus::Sent),
        "delivered" | "read" => Some(MessageStatus::Delivered),
        "undelivered" => Some(MessageStatus::Undeliverable),
        "failed" | "canceled" => Some(MessageStatus::Failed),
        _ => None,
    }
}

/// The reason a provider's error code gives, in its documented words where Lajan knows them.
fn reason_of(code: &str) -> String {
    let words = match code {
        "30001" => "Queue overflow",
        "30002" => "Account suspended",
        "30003" => "Unreachable destination handset",
        "30004" => "Message blocked",
        "30005" => "Unknown destination handset",
        "30006" => "Landline or unreachable carrier",
        "30007" => "Message filtered by the carrier",
        "30008" => "Unknown error",
        "21211" => "Invalid 'To' phone number",
        "21610" => "The recipient unsubscribed (replied STOP)",
        "63016" => "Outside WhatsApp's 24-hour window: a template message is needed",
        _ => return format!("provider error {code}"),
    };
    format!("{code}: {words}")
}

impl Services {
    /// Applies the SMS provider's status callback to its message: refused (403) unless signed by
    /// the configured account; a status that does not move the message forward (a repeat, or a
    /// late `sent` after `delivered`) changes nothing.
    pub async fn record_sms_status(&self, callback: SmsCallback<'_>) -> ServiceResult<()> {
        let account = self.config.sms_account.as_ref().ok_or(ServiceError::NotFound("SMS provider"))?;
        let url = format!("{}{}", self.config.public_url.trim_end_matches('/'), callback.path_and_query);
        let param = |name: &str| callback.params.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str());
        let signed = callback
            .signature
            .is_some_and(|s| sms_signature_matches(account.auth_token.expose_secret(), &url, callback.params, s));
        if !signed || param("AccountSid") != Some(account.account_sid.as_str()) {
            return Err(ServiceError::Forbidden("the callback is not signed by the SMS provider's account"));
        }
        let (Some(provider_id), Some(provider_status)) = (param("MessageSid"), param("MessageStatus")) else {
            return Err(
                Invalid::new("validation_error", "a status callback carries MessageSid and MessageStatus").into()
            );
        };
        let Some(status) = status_of(provider_status) else { return Ok(()) };
        let query = callback.path_and_query.split_once('?').map_or("", |(_, q)| q);
        let message_id = url::form_urlencoded::parse(query.as_bytes()).find(|(k, _)| k == "message").map(|(_, v)| v);
        let reason = param("ErrorCode").filter(|c| !c.is_empty() && status != MessageStatus::Delivered).map(reason_of);
        let report =
            ProviderReport { message_id: message_id.as_deref(), provider_id, status, reason: reason.as_deref() };
        self.store
            .record_message_status(&report, Timestamp::now(), &message_event)
            .await
            .map_err(ServiceError::not_found_as("message"))?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect()
    }

    /// Twilio's published example of its request signature (auth token `12345`).
    #[test]
    fn the_signature_is_twilios_on_its_published_example() {
        let url = "https://mycompany.com/myapp.php?foo=1&bar=2";
        let posted = params(&[
            ("CallSid", "CA1234567890ABCDE"),
            ("Caller", "+14158675310"),
            ("Digits", "1234"),
            ("From", "+14158675310"),
            ("To", "+18005551212"),
        ]);
        assert_eq!(sms_signature("12345", url, &posted), "GvWf1cFY/Q7PnoempGyD5oXAezc=");
        assert!(sms_signature_matches("12345", url, &posted, "GvWf1cFY/Q7PnoempGyD5oXAezc="));
        let mut reordered = posted.clone();
        reordered.reverse();
        assert!(sms_signature_matches("12345", url, &reordered, "GvWf1cFY/Q7PnoempGyD5oXAezc="), "order is the sort's");
        assert!(!sms_signature_matches("12346", url, &posted, "GvWf1cFY/Q7PnoempGyD5oXAezc="), "another token");
        let mut forged = posted.clone();
        forged[2].1 = "4321".into();
        assert!(!sms_signature_matches("12345", url, &forged, "GvWf1cFY/Q7PnoempGyD5oXAezc="), "a changed value");
        assert!(!sms_signature_matches("12345", url, &posted, "not base64!"));
    }

    #[test]
    fn provider_statuses_map_forward_and_steps_on_the_way_change_nothing() {
        assert_eq!(status_of("delivered"), Some(MessageStatus::Delivered));
        assert_eq!(status_of("undelivered"), Some(MessageStatus::Undeliverable));
        assert_eq!(status_of("failed"), Some(MessageStatus::Failed));
        assert_eq!(status_of("sending"), None);
        assert_eq!(reason_of("30003"), "30003: Unreachable destination handset");
        assert_eq!(reason_of("12345"), "provider error 12345");
    }
}
