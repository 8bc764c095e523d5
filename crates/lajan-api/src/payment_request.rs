//! What a payer needs to pay a payment intent from a wallet: a SEP-0007 `pay` URI and its QR code.

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
pub(crate) struct PayRequest<'a> {
    pub destination: &'a str,
    pub amount: &'a str,
    pub asset_code: &'a str,
    pub asset_issuer: Option<&'a str>,
    pub memo: &'a str,
    pub message: &'a str,
}

/// `web+stellar:pay?destination=...&amount=...&asset_code=...&asset_issuer=...&memo=...&memo_type=MEMO_TEXT&msg=...`
pub(crate) fn sep7_pay_uri(p: &PayRequest<'_>) -> String {
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
pub(crate) fn qr_svg(data: &str) -> Option<String> {
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
