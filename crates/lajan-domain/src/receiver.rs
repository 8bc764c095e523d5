//! Receivers: clients an organization pays before they have a wallet. The settings that say how
//! Lajan invites them, how long a payout waits for them, and which wallets their page suggests.

use crate::client::Language;
use crate::payout::AssetCode;
use crate::validation::{FieldErrors, check_text};
use crate::webhook::check_url;

/// The most wallets an organization recommends: the page lists them all on a phone's screen.
pub const MAX_WALLETS: usize = 10;
/// The most assets one recommended wallet names.
pub const MAX_WALLET_ASSETS: usize = 12;
const WALLET_NAME_CHARS: usize = 60;
const WALLET_URL_CHARS: usize = 500;
const MAX_RESEND_DAYS: u32 = 30;
const MAX_RESENDS: u32 = 10;
const MAX_WINDOW_DAYS: u32 = 90;
const ASSET_RULE: &str = "must be 1 to 12 letters or digits";

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReceiverSettings {
    /// The language of a client created without one.
    pub default_client_language: Language,
    /// Days after an invitation (or its last resend) before it is sent again.
    pub invitation_resend_days: u32,
    /// How many times an unanswered invitation is sent again.
    pub invitation_resends: u32,
    /// Days a payout waits for its client to register before it is cancelled.
    pub registration_window_days: u32,
    /// Invitations to a phone go by WhatsApp instead of SMS.
    pub whatsapp_invitations: bool,
    /// The wallets the registration page suggests to a receiver who has none, in this order.
    pub recommended_wallets: Vec<RecommendedWallet>,
}

impl Default for ReceiverSettings {
    fn default() -> Self {
        ReceiverSettings {
            default_client_language: Language::DEFAULT,
            invitation_resend_days: 3,
            invitation_resends: 2,
            registration_window_days: 14,
            whatsapp_invitations: false,
            recommended_wallets: Vec::new(),
        }
    }
}

/// A wallet app the organization suggests, and the assets it holds (those the receiver will
/// be paid in are the ones that matter).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecommendedWallet {
    pub name: String,
    pub url: String,
    pub assets: Vec<AssetCode>,
    /// Where the wallet app opens a registration it is handed (the Stellar Disbursement
    /// Platform's "deep link schema", e.g. `https://wallet.example/sdp` or `wallet://sdp`):
    /// the invitation's page offers "Open in <wallet>" with a signed link to it.
    pub deep_link: Option<String>,
}

impl RecommendedWallet {
    /// Whether the wallet can receive the asset `code`: it names it, or names no asset at all.
    pub fn receives(&self, code: &str) -> bool {
        self.assets.is_empty() || self.assets.iter().any(|a| a.as_str() == code)
    }
}

/// The receiver settings a PUT names; absent fields keep their value.
#[derive(Debug, Default, Clone)]
pub struct ReceiverSettingsInput {
    pub default_client_language: Option<String>,
    pub invitation_resend_days: Option<i64>,
    pub invitation_resends: Option<i64>,
    pub registration_window_days: Option<i64>,
    pub whatsapp_invitations: Option<bool>,
    pub recommended_wallets: Option<Vec<RecommendedWalletInput>>,
}

#[derive(Debug, Default, Clone)]
pub struct RecommendedWalletInput {
    pub name: Option<String>,
    pub url: Option<String>,
    pub assets: Vec<String>,
    pub deep_link: Option<String>,
}

fn whole_number(raw: i64, from: u32, to: u32) -> Result<u32, String> {
    u32::try_from(raw)
        .ok()
        .filter(|n| (from..=to).contains(n))
        .ok_or_else(|| format!("must be a whole number from {from} to {to}"))
}

impl ReceiverSettings {
    /// These settings with `input` applied, recording each bad field in `errors`.
    pub fn updated(&self, input: ReceiverSettingsInput, errors: &mut FieldErrors) -> ReceiverSettings {
        let mut next = self.clone();
        if let Some(raw) = input.default_client_language.as_deref()
            && let Some(language) = errors.take("defaultClientLanguage", raw.parse())
        {
            next.default_client_language = language;
        }
        let mut number = |field: &str, raw: Option<i64>, from: u32, to: u32, into: &mut u32| {
            if let Some(n) = raw.and_then(|raw| errors.take(field, whole_number(raw, from, to))) {
                *into = n;
            }
        };
        number(
            "invitationResendDays",
            input.invitation_resend_days,
            1,
            MAX_RESEND_DAYS,
            &mut next.invitation_resend_days,
        );
        number("invitationResends", input.invitation_resends, 0, MAX_RESENDS, &mut next.invitation_resends);
        number(
            "registrationWindowDays",
            input.registration_window_days,
            1,
            MAX_WINDOW_DAYS,
            &mut next.registration_window_days,
        );
        if let Some(on) = input.whatsapp_invitations {
            next.whatsapp_invitations = on;
        }
        if let Some(wallets) = input.recommended_wallets {
            if wallets.len() > MAX_WALLETS {
                errors.add("recommendedWallets", format!("must have at most {MAX_WALLETS} entries"));
            } else {
                let parsed: Vec<_> =
                    wallets.into_iter().enumerate().map(|(i, wallet)| wallet.parse(i, errors)).collect();
                if let Some(all) = parsed.into_iter().collect::<Option<Vec<_>>>() {
                    next.recommended_wallets = all;
                }
            }
        }
        next
    }
}

impl RecommendedWalletInput {
    fn parse(self, index: usize, errors: &mut FieldErrors) -> Option<RecommendedWallet> {
        let field = |name: &str| format!("recommendedWallets[{index}].{name}");
        let name = match self.name.as_deref().map(str::trim) {
            None => errors.take::<String>(&field("name"), Err("is required".into())),
            Some("") => errors.take::<String>(&field("name"), Err("must not be empty".into())),
            Some(name) => {
                errors.take(&field("name"), check_text(name, WALLET_NAME_CHARS, false).map(|()| name.to_owned()))
            }
        };
        let url = match self.url.as_deref() {
            None => errors.take::<String>(&field("url"), Err("is required".into())),
            Some(url) if url.chars().count() > WALLET_URL_CHARS => {
                errors.take::<String>(&field("url"), Err(format!("must be at most {WALLET_URL_CHARS} characters")))
            }
            Some(url) => errors.take(&field("url"), check_url(url)),
        };
        let assets = if self.assets.len() > MAX_WALLET_ASSETS {
            errors.add(field("assets"), format!("must have at most {MAX_WALLET_ASSETS} entries"));
            None
        } else {
            let parsed: Vec<_> = (self.assets.iter().enumerate())
                .map(|(i, code)| {
                    errors.take(
                        &format!("{}[{i}]", field("assets")),
                        AssetCode::parse(code).map_err(|_| ASSET_RULE.to_owned()),
                    )
                })
                .collect();
            parsed.into_iter().collect::<Option<Vec<_>>>()
        };
        let deep_link = match self.deep_link.as_deref().map(str::trim) {
            None | Some("") => Some(None),
            Some(link) => errors.take(&field("deepLink"), check_deep_link(link).map(Some)),
        };
        Some(RecommendedWallet { name: name?, url: url?, assets: assets?, deep_link: deep_link? })
    }
}

/// Schemes a deep link may not use: a browser's own (a page, a script, a file), not an app's.
const NOT_APP_SCHEMES: &[&str] =
    &["http", "javascript", "data", "vbscript", "file", "blob", "about", "ftp", "ws", "wss", "mailto", "tel", "sms"];

/// A wallet's deep link: an absolute `https` URL (a universal link) or one in the wallet app's
/// own scheme (`wallet://sdp`), to which the registration's query is added.
fn check_deep_link(raw: &str) -> Result<String, String> {
    const RULE: &str = "must be an https:// link or the wallet app's own scheme, like wallet://register";
    if raw.chars().count() > WALLET_URL_CHARS {
        return Err(format!("must be at most {WALLET_URL_CHARS} characters"));
    }
    if raw.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(RULE.to_owned());
    }
    let parsed = url::Url::parse(raw).map_err(|_| RULE.to_owned())?;
    let scheme = parsed.scheme();
    let named = parsed.host_str().is_some_and(|h| !h.is_empty()) || !parsed.path().trim_matches('/').is_empty();
    if NOT_APP_SCHEMES.contains(&scheme) || !named || parsed.fragment().is_some() {
        return Err(RULE.to_owned());
    }
    if scheme == "https" {
        check_url(raw)?;
    }
    Ok(raw.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wallet(name: &str, url: &str, assets: &[&str]) -> RecommendedWalletInput {
        RecommendedWalletInput {
            name: Some(name.into()),
            url: Some(url.into()),
            assets: assets.iter().map(|a| (*a).to_owned()).collect(),
            deep_link: None,
        }
    }

    #[test]
    fn a_deep_link_opens_an_app_never_a_page_or_a_script() {
        for good in ["https://wallet.example/sdp", "wallet://sdp", "beans:register", "https://w.example/r?ref=lajan"] {
            assert_eq!(check_deep_link(good).as_deref(), Ok(good), "{good}");
        }
        for bad in [
            "javascript:alert(1)",
            "data:text/html,x",
            "http://wallet.example",
            "file:///etc/passwd",
            "wallet://",
            "https://wallet.example/#x",
            "wallet sdp",
            "not a url",
        ] {
            assert!(check_deep_link(bad).is_err(), "{bad}");
        }
        let mut errors = FieldErrors::new();
        let mut input = wallet("Beans", "https://beansapp.com", &[]);
        input.deep_link = Some("javascript:alert(1)".into());
        ReceiverSettings::default().updated(
            ReceiverSettingsInput { recommended_wallets: Some(vec![input]), ..Default::default() },
            &mut errors,
        );
        assert_eq!(errors.finish().unwrap_err().details[0].field, "recommendedWallets[0].deepLink");
    }

    #[test]
    fn updates_keep_what_they_do_not_name_and_refuse_every_bad_field() {
        let current = ReceiverSettings::default();
        let mut errors = FieldErrors::new();
        let next = current.updated(
            ReceiverSettingsInput {
                default_client_language: Some("fr".into()),
                invitation_resends: Some(0),
                recommended_wallets: Some(vec![wallet(" Beans ", "https://beansapp.com", &["USDC", "XLM"])]),
                ..Default::default()
            },
            &mut errors,
        );
        assert!(errors.finish().is_ok());
        assert_eq!((next.default_client_language, next.invitation_resends), (Language::Fr, 0));
        assert_eq!((next.invitation_resend_days, next.registration_window_days), (3, 14));
        assert_eq!(next.recommended_wallets[0].name, "Beans");
        assert_eq!(next.recommended_wallets[0].assets.len(), 2);

        let mut errors = FieldErrors::new();
        let refused = current.updated(
            ReceiverSettingsInput {
                default_client_language: Some("de".into()),
                invitation_resend_days: Some(0),
                invitation_resends: Some(11),
                registration_window_days: Some(91),
                recommended_wallets: Some(vec![wallet("", "ftp://x", &["US-D"])]),
                ..Default::default()
            },
            &mut errors,
        );
        assert_eq!(refused, current, "nothing applies");
        let fields: Vec<String> = errors.finish().unwrap_err().details.into_iter().map(|d| d.field).collect();
        assert_eq!(
            fields,
            [
                "defaultClientLanguage",
                "invitationResendDays",
                "invitationResends",
                "registrationWindowDays",
                "recommendedWallets[0].name",
                "recommendedWallets[0].url",
                "recommendedWallets[0].assets[0]"
            ]
        );
        let mut errors = FieldErrors::new();
        let many = vec![wallet("W", "https://w.example", &[]); MAX_WALLETS + 1];
        current.updated(ReceiverSettingsInput { recommended_wallets: Some(many), ..Default::default() }, &mut errors);
        assert_eq!(errors.finish().unwrap_err().details[0].message, "must have at most 10 entries");
    }
}
