//! URLs as they may be shown (config check, logs, error messages): without any credential they
//! carry. A database, Redis, Horizon or SMS URL may hold a password in its userinfo, a token as
//! its user name, or `password=`, `sslpassword=` or a token among its query parameters.

use url::Url;

const HIDDEN: &str = "***";

/// Query parameters whose value is a credential: any name containing one of these.
const SECRET_PARAMETERS: [&str; 8] = ["password", "passwd", "pwd", "secret", "token", "key", "auth", "signature"];

/// The URL with every credential replaced by `***`: the password (a database's user name stays,
/// as it says which role connects), a bare user name on http(s) (where it is usually a token),
/// and the value of every credential-like query parameter. A URL that does not parse shows its
/// scheme alone.
pub fn redact_url(raw: &str) -> String {
    let Ok(mut url) = Url::parse(raw) else {
        return match raw.split_once("://") {
            Some((scheme, _)) if scheme.chars().all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c)) => {
                format!("{scheme}://{HIDDEN} (not a valid URL)")
            }
            _ => format!("{HIDDEN} (not a valid URL)"),
        };
    };
    if url.password().is_some() {
        let _ = url.set_password(Some(HIDDEN));
    } else if !url.username().is_empty() && matches!(url.scheme(), "http" | "https") {
        let _ = url.set_username(HIDDEN);
    }
    if url.query().is_some() {
        let pairs: Vec<(String, String)> = url
            .query_pairs()
            .map(|(name, value)| {
                let lower = name.to_ascii_lowercase();
                let secret = SECRET_PARAMETERS.iter().any(|s| lower.contains(s));
                (name.into_owned(), if secret { HIDDEN.to_owned() } else { value.into_owned() })
            })
            .collect();
        url.query_pairs_mut().clear().extend_pairs(pairs);
    }
    url.to_string()
}

#[cfg(test)]
mod tests {
    use super::redact_url;

    #[test]
    fn every_credential_a_url_can_carry_is_hidden() {
        for (raw, shown) in [
            ("postgres://u:secret@h:5432/db", "postgres://u:***@h:5432/db"),
            ("postgres://u@h/db", "postgres://u@h/db"),
            ("postgres://u@h/db?password=S3CR3T&sslmode=require", "postgres://u@h/db?password=***&sslmode=require"),
            ("postgres://u@h/db?sslpassword=S3CR3T", "postgres://u@h/db?sslpassword=***"),
            ("sqlite://lajan.db", "sqlite://lajan.db"),
            ("sqlite:lajan.db?mode=rwc", "sqlite:lajan.db?mode=rwc"),
            ("redis://:S3CR3T@127.0.0.1:6379", "redis://:***@127.0.0.1:6379"),
            ("https://user:S3CR3T@horizon.example/", "https://user:***@horizon.example/"),
            ("https://S3CR3T@sms.example", "https://***@sms.example/"),
            (
                "https://h.example/?api_key=S3CR3T&access_token=S3CR3T",
                "https://h.example/?api_key=***&access_token=***",
            ),
            ("https://h.example/?X-Amz-Signature=S3CR3T", "https://h.example/?X-Amz-Signature=***"),
            ("postgres://u:S3CR3T@[bad/db", "postgres://*** (not a valid URL)"),
            ("S3CR3T", "*** (not a valid URL)"),
        ] {
            assert_eq!(redact_url(raw), shown, "{raw}");
        }
    }
}
