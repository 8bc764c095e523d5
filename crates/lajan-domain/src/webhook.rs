//! Webhook endpoints and the deliveries of events to them: what an endpoint subscribes to, and
//! where a delivery stands.

use crate::Timestamp;
use crate::event::EVENT_TYPES;
use crate::validation::{FieldError, FieldErrors, Invalid, parse_text};

/// Where an organization wants its events POSTed, and which ones.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WebhookEndpoint {
    pub id: String,
    pub url: String,
    /// Event names, `"*"`, or area wildcards such as `"invoice.*"`.
    pub events: Vec<String>,
    pub description: Option<String>,
    pub enabled: bool,
    /// `whsec_` + base64 of 32 random bytes: signs every delivery.
    pub secret: String,
    pub created_at: Timestamp,
    pub updated_at: Timestamp,
}

/// The longest URL an endpoint may have.
pub const MAX_URL_CHARS: usize = 2048;
pub const MAX_DESCRIPTION_CHARS: usize = 500;
/// How much of a receiver's answer is kept with its attempt, in bytes.
pub const MAX_STORED_RESPONSE_BYTES: usize = 4 * 1024;
/// More patterns than event types is a mistake, not a need.
const MAX_PATTERNS: usize = 100;

/// A new endpoint as the caller sent it: `url` and `events` are required.
#[derive(Debug, Clone, Default)]
pub struct EndpointInput {
    pub url: Option<String>,
    pub events: Option<Vec<String>>,
    pub description: Option<String>,
    pub enabled: Option<bool>,
}

impl EndpointInput {
    /// The endpoint, enabled unless asked otherwise. Refuses, in this order: missing or
    /// malformed fields (`validation_error`, all at once), a URL that is not an absolute http(s)
    /// URL (`invalid_url`), patterns outside the catalogue (`invalid_events`, naming each).
    pub fn into_endpoint(self, id: String, secret: String, now: Timestamp) -> Result<WebhookEndpoint, Invalid> {
        let mut errors = FieldErrors::new();
        if self.url.is_none() {
            errors.add("url", "is required");
        }
        let events = errors.take("events", self.events.ok_or_else(|| "is required".to_owned()));
        let description =
            errors.take("description", parse_text(self.description.as_deref(), MAX_DESCRIPTION_CHARS, false));
        if let Some(events) = &events {
            check_pattern_count(events, &mut errors);
        }
        errors.finish()?;
        let url = parse_url(self.url.as_deref().unwrap_or_default())?;
        let events = parse_patterns(events.unwrap_or_default())?;
        Ok(WebhookEndpoint {
            id,
            url,
            events,
            description: description.flatten(),
            enabled: self.enabled.unwrap_or(true),
            secret,
            created_at: now,
            updated_at: now,
        })
    }
}

/// A change to an endpoint as the caller sent it: fields left out are kept; `description: null`
/// clears it.
#[derive(Debug, Clone, Default)]
pub struct EndpointPatchInput {
    pub url: Option<String>,
    pub events: Option<Vec<String>>,
    pub description: Option<Option<String>>,
    pub enabled: Option<bool>,
}

/// A validated change to an endpoint.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EndpointPatch {
    pub url: Option<String>,
    pub events: Option<Vec<String>>,
    pub description: Option<Option<String>>,
    pub enabled: Option<bool>,
}

impl EndpointPatchInput {
    /// Refuses as [`EndpointInput::into_endpoint`] does.
    pub fn parse(self) -> Result<EndpointPatch, Invalid> {
        let mut errors = FieldErrors::new();
        let description = match self.description {
            None => None,
            Some(text) => {
                errors.take("description", parse_text(text.as_deref(), MAX_DESCRIPTION_CHARS, false)).map(Some)
            }
        };
        if let Some(events) = &self.events {
            check_pattern_count(events, &mut errors);
        }
        errors.finish()?;
        Ok(EndpointPatch {
            url: self.url.as_deref().map(parse_url).transpose()?,
            events: self.events.map(parse_patterns).transpose()?,
            description: description.map(Option::flatten),
            enabled: self.enabled,
        })
    }
}

impl EndpointPatch {
    /// The endpoint with the change applied at `at`.
    pub fn apply(&self, endpoint: &WebhookEndpoint, at: Timestamp) -> WebhookEndpoint {
        WebhookEndpoint {
            url: self.url.clone().unwrap_or_else(|| endpoint.url.clone()),
            events: self.events.clone().unwrap_or_else(|| endpoint.events.clone()),
            description: self.description.clone().unwrap_or_else(|| endpoint.description.clone()),
            enabled: self.enabled.unwrap_or(endpoint.enabled),
            updated_at: at,
            ..endpoint.clone()
        }
    }
}

fn check_pattern_count(events: &[String], errors: &mut FieldErrors) {
    if events.is_empty() {
        errors.add("events", "must name at least one event, or \"*\" for all");
    } else if events.len() > MAX_PATTERNS {
        errors.add("events", format!("must have at most {MAX_PATTERNS} entries"));
    }
}

/// An absolute `http` or `https` URL with a host, at most [`MAX_URL_CHARS`] characters, kept as
/// given; anything else is `invalid_url` saying why.
pub fn parse_url(raw: &str) -> Result<String, Invalid> {
    check_url(raw).map_err(|why| Invalid::new("invalid_url", format!("url {why}")))
}

/// The rules of [`parse_url`], the error being the rule broken (for any field holding a link).
pub fn check_url(raw: &str) -> Result<String, String> {
    let refuse = |why: &str| Err(why.to_owned());
    if raw.chars().count() > MAX_URL_CHARS {
        return refuse(&format!("must be at most {MAX_URL_CHARS} characters"));
    }
    // The URL parser silently drops tabs and line breaks; a URL that holds them is a mistake.
    if raw.is_empty() || raw.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return refuse("must be an absolute URL without spaces, like https://example.com/webhooks");
    }
    // Spelled out, not left to the parser, which reads "http:/x" and "http:///x" as "http://x/".
    let lower = raw.to_ascii_lowercase();
    let Some(rest) = lower.strip_prefix("https://").or_else(|| lower.strip_prefix("http://")) else {
        return refuse("must start with https:// or http://");
    };
    let Ok(parsed) = url::Url::parse(raw) else {
        return refuse("must be an absolute URL, like https://example.com/webhooks");
    };
    if rest.starts_with(['/', '\\']) {
        return refuse("must name a host");
    }
    // The host as written, past any user:password@ and before any :port: a name of letters,
    // digits, hyphens and dots, or an IP address (IPv6 in brackets). The parser would take more
    // (`*`, `$`, names it rewrites), which no receiver's certificate names.
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let host = authority.rsplit_once('@').map_or(authority, |(_, host)| host);
    let name = if host.starts_with('[') { "" } else { host.rsplit_once(':').map_or(host, |(name, _)| name) };
    if !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '.') {
        return refuse("must name its host with letters, digits, hyphens and dots, or an IP address");
    }
    if parsed.host_str().is_none_or(str::is_empty) {
        return refuse("must name a host");
    }
    Ok(raw.to_owned())
}

/// Every pattern an endpoint may subscribe to: `*`, each area's wildcard (`invoice.*`), then
/// each event type of the catalogue.
pub fn subscribable_patterns() -> Vec<String> {
    let mut patterns = vec!["*".to_owned()];
    for event_type in EVENT_TYPES {
        let wildcard = format!("{}.*", event_type.split_once('.').map_or(*event_type, |(area, _)| area));
        if !patterns.contains(&wildcard) {
            patterns.push(wildcard);
        }
    }
    patterns.extend(EVENT_TYPES.iter().map(|t| (*t).to_owned()));
    patterns
}

/// Subscription patterns: catalogue names, `"*"`, or an area wildcard such as `"invoice.*"`;
/// sorted, without repeats. Unknown entries are `invalid_events`, each named in `details`.
pub fn parse_patterns(events: Vec<String>) -> Result<Vec<String>, Invalid> {
    let patterns = subscribable_patterns();
    let known = |pattern: &str| patterns.iter().any(|known| known == pattern);
    let unknown: Vec<FieldError> = events
        .iter()
        .enumerate()
        .filter(|(_, pattern)| !known(pattern))
        .map(|(i, pattern)| FieldError::new(format!("events[{i}]"), format!("{pattern:?} is not an event Lajan emits")))
        .collect();
    if !unknown.is_empty() {
        let names: Vec<&str> = events.iter().filter(|p| !known(p)).map(String::as_str).collect();
        return Err(Invalid {
            code: "invalid_events",
            message: format!(
                "Unknown events: {}. Use names from the event catalogue, an area such as \"invoice.*\", or \"*\"",
                names.join(", ")
            ),
            details: unknown,
        });
    }
    let mut events = events;
    events.sort();
    events.dedup();
    Ok(events)
}

/// Whether an endpoint subscribed to `events` receives an event of type `event_type`.
pub fn subscribed(events: &[String], event_type: &str) -> bool {
    events.iter().any(|pattern| matches_pattern(pattern, event_type))
}

fn matches_pattern(pattern: &str, event_type: &str) -> bool {
    match pattern.strip_suffix(".*") {
        _ if pattern == "*" || pattern == event_type => true,
        Some(area) => event_type.strip_prefix(area).is_some_and(|rest| rest.starts_with('.')),
        None => false,
    }
}

/// How far back a recovery may reach.
pub const RECOVERY_LIMIT_MS: i64 = 14 * 24 * 60 * 60 * 1000;

/// The window of a recovery: failed deliveries created from `since` (at most 14 days before
/// `now`) until `until` (default `now`, after `since`). Every bad field at once.
pub fn recovery_window(
    since: Option<&str>,
    until: Option<&str>,
    now: Timestamp,
) -> Result<(Timestamp, Timestamp), Invalid> {
    let mut errors = FieldErrors::new();
    let since = match since {
        None => errors.take("since", Err::<Timestamp, _>("is required".to_owned())),
        Some(raw) => errors.take(
            "since",
            Timestamp::parse_rfc3339(raw).and_then(|t| {
                if t.as_millis() < now.as_millis() - RECOVERY_LIMIT_MS {
                    Err("must be within the last 14 days".to_owned())
                } else {
                    Ok(t)
                }
            }),
        ),
    };
    let until = match until {
        None => Some(now),
        Some(raw) => errors.take("until", Timestamp::parse_rfc3339(raw)),
    };
    if let (Some(since), Some(until)) = (since, until)
        && until.as_millis() <= since.as_millis()
    {
        errors.add("until", "must be after since");
    }
    errors.finish()?;
    Ok((since.unwrap_or(now), until.unwrap_or(now)))
}

/// How long an endpoint may fail without a single success before it is disabled.
pub const SILENCE_LIMIT_MS: i64 = 5 * 24 * 60 * 60 * 1000;

/// Whether an endpoint whose answers have all been failures since `failing_since` should be
/// disabled after one more failure at `at`.
pub fn silent_too_long(failing_since: Timestamp, at: Timestamp) -> bool {
    at.as_millis() - failing_since.as_millis() >= SILENCE_LIMIT_MS
}

/// Where a delivery stands: still to be sent (or sent again), delivered, or given up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeliveryStatus {
    Pending,
    Delivered,
    Failed,
}

str_enum!(DeliveryStatus {
    Pending => "pending",
    Delivered => "delivered",
    Failed => "failed",
});

/// One event on its way to one endpoint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Delivery {
    pub id: String,
    pub endpoint_id: String,
    pub event_id: String,
    pub event_type: String,
    pub status: DeliveryStatus,
    /// How many times it was sent.
    pub attempts: i64,
    pub next_attempt_at: Timestamp,
    pub created_at: Timestamp,
    pub updated_at: Timestamp,
}

/// One POST of a delivery and what came back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeliveryAttempt {
    pub attempt_number: i64,
    pub at: Timestamp,
    /// The HTTP status, when an answer came.
    pub http_status: Option<i64>,
    /// Why no usable answer came (a timeout, a refused connection), when none did.
    pub error: Option<String>,
    pub duration_ms: i64,
    /// The first 4 KiB of the response body.
    pub response_body: Option<String>,
}

/// How a delivery attempt ended, as the dispatcher records it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DeliveryOutcome {
    Delivered,
    /// Send again at `retry_at`.
    Retry {
        retry_at: Timestamp,
    },
    /// Given up: no more tries.
    Failed,
    /// The endpoint said it is gone (410): the delivery fails and the endpoint is disabled.
    Gone,
}

impl DeliveryOutcome {
    /// The outcome of the `tries`-th try, which failed at `at` (see [`crate::retry::webhook_wait`]).
    pub fn after_failure(
        tries: i64,
        at: Timestamp,
        jitter_permille: i64,
        retry_after_ms: Option<i64>,
        divisor: i64,
    ) -> Self {
        match crate::retry::webhook_wait(tries, jitter_permille, retry_after_ms, divisor) {
            Some(wait) => DeliveryOutcome::Retry { retry_at: at.plus_millis(wait) },
            None => DeliveryOutcome::Failed,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subscriptions_match_names_areas_and_everything() {
        let events = |list: &[&str]| list.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        assert!(subscribed(&events(&["*"]), "payout.completed"));
        assert!(subscribed(&events(&["invoice.paid"]), "invoice.paid"));
        assert!(!subscribed(&events(&["invoice.paid"]), "invoice.sent"));
        assert!(subscribed(&events(&["invoice.*"]), "invoice.sent"));
        assert!(!subscribed(&events(&["invoice.*"]), "invoices.sent"), "an area is a whole word");
        assert!(!subscribed(&events(&["invoice.*"]), "payout.created"));
        assert!(subscribed(&events(&["webhook_endpoint.*"]), "webhook_endpoint.test"));
        assert!(!subscribed(&[], "invoice.paid"));
        for status in [DeliveryStatus::Pending, DeliveryStatus::Delivered, DeliveryStatus::Failed] {
            assert_eq!(status.as_str().parse::<DeliveryStatus>(), Ok(status));
        }
    }

    #[test]
    fn urls_must_be_absolute_http_and_at_most_2048_characters() {
        assert!(parse_url("https://example.com/hooks?x=1").is_ok());
        assert!(parse_url("http://127.0.0.1:9000/").is_ok());
        assert!(parse_url("https://user:secret@hooks.example.ht:8443/in").is_ok());
        assert!(parse_url("https://[2001:db8::1]/in").is_ok());
        for bad in [
            "",
            "example.com/hooks",
            "ftp://example.com/",
            "https://exa mple.com/",
            "https://a.com/\tx",
            "http:///x",
            "http://ho*st.example/",
            "https://bücher.example/",
        ] {
            assert_eq!(parse_url(bad).map_err(|e| e.code), Err("invalid_url"), "{bad:?}");
        }
        let long = format!("https://example.com/{}", "a".repeat(MAX_URL_CHARS));
        assert_eq!(parse_url(&long).map_err(|e| e.code), Err("invalid_url"));
        assert!(parse_url(&long[..MAX_URL_CHARS]).is_ok());
    }

    #[test]
    fn patterns_name_each_unknown_entry() {
        let patterns = |list: &[&str]| list.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        assert_eq!(
            parse_patterns(patterns(&["payout.*", "invoice.paid", "*", "invoice.paid"])).unwrap(),
            patterns(&["*", "invoice.paid", "payout.*"])
        );
        assert!(parse_patterns(patterns(&["webhook_endpoint.test"])).is_ok());
        let err = parse_patterns(patterns(&["invoice.paid", "invoice.payed", "nope.*", "invoice"])).unwrap_err();
        assert_eq!(err.code, "invalid_events");
        let fields: Vec<&str> = err.details.iter().map(|d| d.field.as_str()).collect();
        assert_eq!(fields, ["events[1]", "events[2]", "events[3]"]);
        assert!(err.message.contains("invoice.payed, nope.*, invoice"), "{}", err.message);
    }

    #[test]
    fn a_patch_keeps_what_it_does_not_name() {
        let endpoint = EndpointInput {
            url: Some("https://example.com/a".into()),
            events: Some(vec!["*".into()]),
            description: Some("Books".into()),
            enabled: None,
        }
        .into_endpoint("we_1".into(), "whsec_x".into(), Timestamp::from_millis(1))
        .unwrap();
        assert!(endpoint.enabled);
        let patch =
            EndpointPatchInput { enabled: Some(false), description: Some(None), ..Default::default() }.parse().unwrap();
        let changed = patch.apply(&endpoint, Timestamp::from_millis(2));
        assert_eq!(
            (changed.enabled, changed.description.as_deref(), changed.url.as_str()),
            (false, None, "https://example.com/a")
        );
        assert_eq!(changed.updated_at, Timestamp::from_millis(2));
        let missing =
            EndpointInput::default().into_endpoint("we_2".into(), "s".into(), Timestamp::from_millis(1)).unwrap_err();
        assert_eq!(missing.code, "validation_error");
        assert_eq!(missing.details.len(), 2, "{missing:?}");
        let empty = EndpointPatchInput { events: Some(vec![]), ..Default::default() }.parse().unwrap_err();
        assert_eq!(empty.code, "validation_error");
    }

    #[test]
    fn a_failed_try_is_retried_on_the_schedule_then_failed() {
        let at = Timestamp::from_millis(1_000);
        assert_eq!(
            DeliveryOutcome::after_failure(1, at, 0, None, 1),
            DeliveryOutcome::Retry { retry_at: Timestamp::from_millis(6_000) }
        );
        assert_eq!(DeliveryOutcome::after_failure(8, at, 0, None, 1), DeliveryOutcome::Failed);
    }

    #[test]
    fn a_recovery_window_reaches_back_fourteen_days_at_most() {
        let now = Timestamp::parse_rfc3339("2026-11-25T12:00:00Z").unwrap();
        let (since, until) = recovery_window(Some("2026-11-20T00:00:00Z"), None, now).unwrap();
        assert_eq!((since.to_string().as_str(), until), ("2026-11-20T00:00:00.000Z", now));
        assert!(recovery_window(Some("2026-11-11T12:00:00Z"), Some("2026-11-12T00:00:00+01:00"), now).is_ok());
        let fields = |e: Invalid| e.details.into_iter().map(|d| d.field).collect::<Vec<_>>();
        assert_eq!(fields(recovery_window(Some("2026-11-11T11:59:59Z"), None, now).unwrap_err()), ["since"]);
        assert_eq!(fields(recovery_window(None, Some("yesterday"), now).unwrap_err()), ["since", "until"]);
        assert_eq!(
            fields(recovery_window(Some("2026-11-24T00:00:00Z"), Some("2026-11-23T00:00:00Z"), now).unwrap_err()),
            ["until"]
        );
    }
}
