//! How an organization presents itself to Stellar wallets: a domain of its own that it points at
//! Lajan, whose `stellar.toml` names the organization and its SEP-1 `[DOCUMENTATION]`, so the
//! wallet its receivers use shows the organization rather than the deployment.

use crate::client::Email;
use crate::network::{is_localhost, parse_domain};
use crate::validation::{FieldErrors, check_text};
use crate::webhook::check_url;

/// A challenge names its home domain in a `manage_data` name (`<domain> auth`, 64 bytes).
pub const HOME_DOMAIN_BYTES: usize = 59;
const DESCRIPTION_CHARS: usize = 500;

/// The organization as wallets see it. Every field is optional; without `home_domain` the
/// organization's receivers meet the deployment's `stellar.toml`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StellarProfile {
    /// A domain (a host, with a port at most) whose DNS the organization points at Lajan.
    pub home_domain: Option<String>,
    /// SEP-1 `ORG_URL`: the organization's website (https).
    pub org_url: Option<String>,
    /// SEP-1 `ORG_LOGO`: a picture of its logo (https).
    pub org_logo: Option<String>,
    /// SEP-1 `ORG_DESCRIPTION`.
    pub org_description: Option<String>,
    /// SEP-1 `ORG_OFFICIAL_EMAIL`.
    pub org_official_email: Option<String>,
    /// SEP-1 `ORG_SUPPORT_EMAIL`: where a receiver writes for help.
    pub org_support_email: Option<String>,
}

/// The profile fields a PUT names: absent keeps the value, an empty text clears it.
#[derive(Debug, Default, Clone)]
pub struct StellarProfileInput {
    pub home_domain: Option<String>,
    pub org_url: Option<String>,
    pub org_logo: Option<String>,
    pub org_description: Option<String>,
    pub org_official_email: Option<String>,
    pub org_support_email: Option<String>,
}

impl StellarProfile {
    /// This profile with `input` applied, recording each bad field in `errors`.
    pub fn updated(&self, input: StellarProfileInput, errors: &mut FieldErrors) -> StellarProfile {
        let mut next = self.clone();
        let home_domain = |raw: &str| parse_home_domain(raw);
        let email = |raw: &str| Email::parse(raw).map(|e| e.as_str().to_owned());
        let description = |raw: &str| check_text(raw, DESCRIPTION_CHARS, true).map(|()| raw.to_owned());
        set(errors, "homeDomain", input.home_domain, &home_domain, &mut next.home_domain);
        set(errors, "orgUrl", input.org_url, &https_link, &mut next.org_url);
        set(errors, "orgLogo", input.org_logo, &https_link, &mut next.org_logo);
        set(errors, "orgDescription", input.org_description, &description, &mut next.org_description);
        set(errors, "orgOfficialEmail", input.org_official_email, &email, &mut next.org_official_email);
        set(errors, "orgSupportEmail", input.org_support_email, &email, &mut next.org_support_email);
        next
    }
}

/// A home domain: a public name an organization can prove it holds with a DNS TXT record, so
/// never an address (`127.0.0.1`), a name of the machine (`localhost`) or a name spelled with a
/// trailing dot (the same name as without it, served twice).
fn parse_home_domain(raw: &str) -> Result<String, String> {
    let domain = parse_domain(raw, HOME_DOMAIN_BYTES)?;
    let host =
        domain.rsplit_once(':').filter(|(_, port)| port.parse::<u16>().is_ok()).map_or(domain.as_str(), |(h, _)| h);
    let name =
        || "must be a public domain name, like pay.example.org, not an address or a name of this machine".to_owned();
    if host.ends_with('.') || host.starts_with('[') || host.parse::<std::net::IpAddr>().is_ok() || is_localhost(host) {
        return Err(name());
    }
    if !host.contains('.') {
        return Err(name());
    }
    Ok(domain)
}

/// Applies one field as typed: absent keeps it, empty clears it, else it must parse.
fn set(
    errors: &mut FieldErrors,
    field: &str,
    raw: Option<String>,
    parse: &dyn Fn(&str) -> Result<String, String>,
    into: &mut Option<String>,
) {
    match raw.as_deref().map(str::trim) {
        None => {}
        Some("") => *into = None,
        Some(given) => {
            if let Some(value) = errors.take(field, parse(given)) {
                *into = Some(value);
            }
        }
    }
}

/// A link a wallet shows or loads: https only, since it is shown inside an app.
fn https_link(raw: &str) -> Result<String, String> {
    if !raw.to_ascii_lowercase().starts_with("https://") {
        return Err("must be an https:// link".into());
    }
    check_url(raw)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_field_is_checked_and_an_empty_one_clears() {
        let input = StellarProfileInput {
            home_domain: Some("pay.fonkoze.example".into()),
            org_url: Some("https://fonkoze.example".into()),
            org_support_email: Some("help@fonkoze.example".into()),
            ..Default::default()
        };
        let mut errors = FieldErrors::new();
        let profile = StellarProfile::default().updated(input, &mut errors);
        assert!(errors.finish().is_ok());
        assert_eq!(profile.home_domain.as_deref(), Some("pay.fonkoze.example"));
        let mut errors = FieldErrors::new();
        for own in ["127.0.0.1", "pay.example.org.", "localhost", "api.localhost", "[::1]", "intranet"] {
            let mut refused = FieldErrors::new();
            let input = StellarProfileInput { home_domain: Some(own.into()), ..Default::default() };
            StellarProfile::default().updated(input, &mut refused);
            assert!(refused.finish().is_err(), "{own} is refused");
        }
        let clear = StellarProfileInput { home_domain: Some(String::new()), ..Default::default() };
        let cleared = profile.updated(clear, &mut errors);
        assert_eq!((cleared.home_domain, cleared.org_url.as_deref()), (None, Some("https://fonkoze.example")));

        let bad = StellarProfileInput {
            home_domain: Some("https://pay.example".into()),
            org_url: Some("http://fonkoze.example".into()),
            org_logo: Some("javascript:x".into()),
            org_description: Some("x".repeat(501)),
            org_official_email: Some("not mail".into()),
            org_support_email: Some("a@b".into()),
        };
        let mut errors = FieldErrors::new();
        assert_eq!(profile.updated(bad, &mut errors), profile, "nothing applies");
        assert_eq!(errors.finish().unwrap_err().details.len(), 6);
    }
}
