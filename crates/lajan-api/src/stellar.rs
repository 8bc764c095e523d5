//! Stellar details a payer needs: the account to pay, the asset, and a SEP-0007 `pay` URI.
//!
//! In the sandbox the accounts and issuers are derived from fixed labels, so they are valid
//! StrKeys that stay the same across restarts (they exist only on the simulated ledger).

use sha2::{Digest, Sha256};

/// A valid account StrKey derived from `label` (sandbox only).
pub fn derived_account(label: &str) -> String {
    let key: [u8; 32] = Sha256::digest(label.as_bytes()).into();
    stellar_strkey::ed25519::PublicKey(key).to_string().to_string()
}

/// The organization's receiving account on the sandbox ledger.
pub fn sandbox_receiving_account(org_id: &str) -> String {
    derived_account(&format!("lajan-sandbox-receiving:{org_id}"))
}

/// The account simulated customer payments come from.
pub fn sandbox_customer_account() -> String {
    derived_account("lajan-sandbox-customer")
}

/// The issuer of a tokenized asset on the sandbox ledger.
pub fn sandbox_issuer(asset_code: &str) -> String {
    derived_account(&format!("lajan-sandbox-issuer:{asset_code}"))
}

/// Percent-encodes a SEP-0007 query value (RFC 3986 unreserved characters stay as they are).
fn encode(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for b in value.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// What a SEP-0007 `pay` request asks for.
pub struct PayRequest<'a> {
    pub destination: &'a str,
    pub amount: &'a str,
    pub asset_code: &'a str,
    pub asset_issuer: Option<&'a str>,
    pub memo: &'a str,
    pub message: &'a str,
}

/// `web+stellar:pay?destination=...&amount=...&asset_code=...&asset_issuer=...&memo=...&memo_type=MEMO_TEXT&msg=...`
pub fn sep7_pay_uri(p: &PayRequest<'_>) -> String {
    let mut uri = format!("web+stellar:pay?destination={}&amount={}", encode(p.destination), encode(p.amount));
    if let Some(issuer) = p.asset_issuer {
        uri.push_str(&format!("&asset_code={}&asset_issuer={}", encode(p.asset_code), encode(issuer)));
    }
    uri.push_str(&format!("&memo={}&memo_type=MEMO_TEXT", encode(p.memo)));
    if !p.message.is_empty() {
        // SEP-0007 caps msg at 300 characters.
        let message: String = p.message.chars().take(300).collect();
        uri.push_str(&format!("&msg={}", encode(&message)));
    }
    uri
}

/// The QR code of `data` as an SVG document (no external assets).
pub fn qr_svg(data: &str) -> Option<String> {
    let code = qrcode::QrCode::new(data.as_bytes()).ok()?;
    Some(
        code.render::<qrcode::render::svg::Color>()
            .min_dimensions(220, 220)
            .quiet_zone(true)
            .dark_color(qrcode::render::svg::Color("#111111"))
            .light_color(qrcode::render::svg::Color("#ffffff"))
            .build(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derived_accounts_are_valid_and_stable() {
        let a = sandbox_receiving_account("org_1");
        assert!(lajan_domain::client::WalletAddress::parse(&a).is_ok());
        assert_eq!(a, sandbox_receiving_account("org_1"));
        assert_ne!(a, sandbox_receiving_account("org_2"));
        assert_ne!(sandbox_issuer("HTG"), sandbox_issuer("USD"));
    }

    /// The addresses docs/payouts.md documents.
    #[test]
    fn magic_addresses_are_the_documented_ones() {
        for (label, documented) in [
            ("op_no_destination", "GC4Z55YEHQXLMZYCAK5YMZVRBDWKLFHM7NHU7WURXJ2ETUT3KZGKFFAN"),
            ("op_no_trust", "GCSUCUJIXTHLLAF5N4OI5ETKREOSB3HD4HWB3OUN5E66DYOHLPTITCYO"),
            ("op_underfunded", "GDBTUG54LQU7L2RPYD7BAPTOJNKY7BHBMPILSBKI45QBZOEDYXX7SZHG"),
            ("timeout", "GCUOIWDZ66PIWRZTAPALB23CEFOZI2AVU4UN4VI32N5W5HQJ4PPBW7LA"),
        ] {
            assert_eq!(magic::address(label), documented, "{label}");
            assert!(magic::behaviour(documented).is_some());
        }
        assert!(magic::behaviour(&sandbox_customer_account()).is_none());
    }

    #[test]
    fn pay_uri_encodes_every_value() {
        let uri = sep7_pay_uri(&PayRequest {
            destination: "GABC",
            amount: "120.50",
            asset_code: "HTG",
            asset_issuer: Some("GISSUER"),
            memo: "LJ0123456789AB",
            message: "Invoice INV-000001 & co",
        });
        assert_eq!(
            uri,
            "web+stellar:pay?destination=GABC&amount=120.50&asset_code=HTG&asset_issuer=GISSUER&memo=LJ0123456789AB&memo_type=MEMO_TEXT&msg=Invoice%20INV-000001%20%26%20co"
        );
        assert!(qr_svg(&uri).is_some_and(|svg| svg.starts_with("<?xml") || svg.contains("<svg")));
    }
}

/// Documented sandbox destinations that make the simulated network misbehave on purpose.
pub mod magic {
    use super::derived_account;

    /// What a magic destination does.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum Behaviour {
        /// Final: the destination account does not exist.
        NoDestination,
        /// Final: the destination holds no trustline for the asset.
        NoTrust,
        /// Final: the source cannot cover the amount.
        Underfunded,
        /// The first submission times out (though the network applied it); resubmitting the
        /// identical transaction reports success with the original ledger.
        Timeout,
    }

    pub const LABELS: [(&str, Behaviour); 4] = [
        ("op_no_destination", Behaviour::NoDestination),
        ("op_no_trust", Behaviour::NoTrust),
        ("op_underfunded", Behaviour::Underfunded),
        ("timeout", Behaviour::Timeout),
    ];

    /// The magic address for a behaviour (a valid account StrKey).
    pub fn address(label: &str) -> String {
        derived_account(&format!("lajan-sandbox-magic:{label}"))
    }

    /// What `destination` does on the sandbox network, if it is magic.
    pub fn behaviour(destination: &str) -> Option<Behaviour> {
        LABELS.iter().find(|(label, _)| address(label) == destination).map(|(_, b)| *b)
    }
}
