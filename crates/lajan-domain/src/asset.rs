//! The assets Lajan pays in and is paid in (spec §1): one table for every environment and layer.

/// An asset of the registry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AssetInfo {
    pub code: &'static str,
    /// fiat-pegged, stablecoin or native.
    pub kind: &'static str,
    pub name: &'static str,
}

pub const ASSETS: [AssetInfo; 6] = [
    AssetInfo { code: "HTG", kind: "fiat-pegged", name: "Haitian gourde (tokenized)" },
    AssetInfo { code: "USD", kind: "fiat-pegged", name: "US dollar (tokenized)" },
    AssetInfo { code: "USDC", kind: "stablecoin", name: "USD Coin" },
    AssetInfo { code: "USDT", kind: "stablecoin", name: "Tether USD" },
    AssetInfo { code: "EURC", kind: "stablecoin", name: "Euro Coin" },
    AssetInfo { code: "XLM", kind: "native", name: "Stellar lumens" },
];

/// The native asset, which has no issuer.
pub const NATIVE: &str = "XLM";

/// The registry's entry for `code`, spelled exactly.
pub fn find(code: &str) -> Option<&'static AssetInfo> {
    ASSETS.iter().find(|a| a.code == code)
}

/// The codes of the registry, comma-separated, for messages.
pub fn codes() -> String {
    ASSETS.iter().map(|a| a.code).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    #[test]
    fn finds_exact_codes_only() {
        assert_eq!(super::find("USDC").map(|a| a.kind), Some("stablecoin"));
        assert!(super::find("usdc").is_none());
        assert_eq!(super::codes(), "HTG, USD, USDC, USDT, EURC, XLM");
    }
}
