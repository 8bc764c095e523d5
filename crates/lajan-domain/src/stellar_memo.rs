//! The memo a payment carries on the Stellar network, in the three kinds a receiving wallet can
//! ask for: custodial wallets and exchanges share one account between their customers and tell
//! them apart by memo, so a payment without the customer's memo is money the customer never sees.

use crate::validation::{FieldErrors, control_character};
use std::fmt;

/// The most a Stellar text memo carries, in bytes of UTF-8.
pub const MEMO_BYTES: usize = 28;

/// What a memo holds, named as Stellar names them (`MEMO_TEXT`, `MEMO_ID`, `MEMO_HASH`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MemoKind {
    Text,
    Id,
    Hash,
}

str_enum!(MemoKind { Text => "text", Id => "id", Hash => "hash" });

/// A memo a payment carries: text of at most [`MEMO_BYTES`] bytes of UTF-8, an unsigned 64-bit
/// id, or 32 bytes (written as 64 hex digits).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StellarMemo {
    Text(String),
    Id(u64),
    Hash([u8; 32]),
}

impl StellarMemo {
    /// Reads a memo as a receiver copies it from their wallet. Without a `kind`, the kind is read
    /// from the value as the Stellar Disbursement Platform does: a whole number without leading
    /// zeros that fits 64 bits is an id (exchanges give numeric memos and match them as ids), 64
    /// hex digits are a hash, anything else is text. A `kind` overrides that, for the wallet that
    /// wants a numeric text memo.
    pub fn parse(raw: &str, kind: Option<MemoKind>) -> Result<StellarMemo, String> {
        let raw = raw.trim();
        if raw.is_empty() {
            return Err("is empty: leave it out when the wallet asks for no memo".to_owned());
        }
        match kind.unwrap_or_else(|| Self::kind_of(raw)) {
            MemoKind::Id => Self::id(raw).map(StellarMemo::Id).ok_or_else(|| {
                format!("is not a memo id: an id memo is a whole number from 0 to {} without leading zeros", u64::MAX)
            }),
            MemoKind::Hash => Self::hash(raw)
                .map(StellarMemo::Hash)
                .ok_or_else(|| "is not a memo hash: a hash memo is 64 hexadecimal digits (32 bytes)".to_owned()),
            MemoKind::Text => {
                if raw.len() > MEMO_BYTES {
                    return Err(format!(
                        "is {} bytes of UTF-8; a text memo carries at most {MEMO_BYTES} (letters such as é take 2)",
                        raw.len()
                    ));
                }
                match control_character(raw, false) {
                    Some(problem) => Err(problem),
                    None => Ok(StellarMemo::Text(raw.to_owned())),
                }
            }
        }
    }

    /// The memo a request gives as `walletMemo` and `walletMemoType`, its errors under those names.
    pub fn from_fields(errors: &mut FieldErrors, raw: Option<&str>, kind: Option<&str>) -> Option<StellarMemo> {
        let kind = match kind {
            None => None,
            Some(kind) if raw.is_none() => {
                errors.add("walletMemoType", format!("needs a walletMemo (given {kind:?})"));
                return None;
            }
            Some(kind) => Some(errors.take("walletMemoType", kind.parse::<MemoKind>())?),
        };
        errors.take("walletMemo", StellarMemo::parse(raw?, kind))
    }

    /// A memo as the store keeps it (its kind and [`StellarMemo::value`]).
    pub fn from_stored(kind: &str, value: &str) -> Result<StellarMemo, String> {
        let kind = kind.parse::<MemoKind>()?;
        StellarMemo::parse(value, Some(kind))
    }

    fn kind_of(raw: &str) -> MemoKind {
        if Self::id(raw).is_some() {
            MemoKind::Id
        } else if Self::hash(raw).is_some() {
            MemoKind::Hash
        } else {
            MemoKind::Text
        }
    }

    fn id(raw: &str) -> Option<u64> {
        let plain = raw.bytes().all(|b| b.is_ascii_digit()) && (raw == "0" || !raw.starts_with('0'));
        raw.parse().ok().filter(|_| plain)
    }

    fn hash(raw: &str) -> Option<[u8; 32]> {
        if raw.len() != 64 {
            return None;
        }
        let mut out = [0u8; 32];
        for (byte, pair) in out.iter_mut().zip(raw.as_bytes().chunks(2)) {
            let pair = std::str::from_utf8(pair).ok()?;
            *byte = u8::from_str_radix(pair, 16).ok()?;
        }
        Some(out)
    }

    pub fn kind(&self) -> MemoKind {
        match self {
            StellarMemo::Text(_) => MemoKind::Text,
            StellarMemo::Id(_) => MemoKind::Id,
            StellarMemo::Hash(_) => MemoKind::Hash,
        }
    }

    /// The memo as it is shown and stored: the text, the id in decimal, the hash in lowercase hex.
    pub fn value(&self) -> String {
        match self {
            StellarMemo::Text(text) => text.clone(),
            StellarMemo::Id(id) => id.to_string(),
            StellarMemo::Hash(bytes) => crate::hex::encode(bytes),
        }
    }
}

impl fmt::Display for StellarMemo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.value())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_kind_is_read_from_the_value() {
        assert_eq!(StellarMemo::parse(" 1234567 ", None), Ok(StellarMemo::Id(1_234_567)));
        assert_eq!(StellarMemo::parse("0", None), Ok(StellarMemo::Id(0)));
        assert_eq!(StellarMemo::parse(&u64::MAX.to_string(), None), Ok(StellarMemo::Id(u64::MAX)));
        // Leading zeros and numbers past 64 bits would lose what the receiver copied: text.
        assert_eq!(StellarMemo::parse("00123", None), Ok(StellarMemo::Text("00123".into())));
        assert_eq!(
            StellarMemo::parse("18446744073709551616", None),
            Ok(StellarMemo::Text("18446744073709551616".into()))
        );
        let hex = "ab".repeat(32);
        assert_eq!(StellarMemo::parse(&hex.to_uppercase(), None), Ok(StellarMemo::Hash([0xab; 32])));
        assert_eq!(StellarMemo::parse("Marie 42", None), Ok(StellarMemo::Text("Marie 42".into())));
    }

    #[test]
    fn a_kind_given_overrides_and_is_checked() {
        assert_eq!(StellarMemo::parse("123", Some(MemoKind::Text)), Ok(StellarMemo::Text("123".into())));
        assert!(StellarMemo::parse("abc", Some(MemoKind::Id)).unwrap_err().contains("not a memo id"));
        assert!(StellarMemo::parse("-1", Some(MemoKind::Id)).is_err());
        assert!(StellarMemo::parse("ab", Some(MemoKind::Hash)).unwrap_err().contains("64 hexadecimal"));
    }

    #[test]
    fn text_is_bounded_in_bytes_and_visible() {
        assert!(StellarMemo::parse(&"é".repeat(14), None).is_ok());
        assert!(StellarMemo::parse(&"é".repeat(15), None).unwrap_err().contains("30 bytes"));
        assert!(StellarMemo::parse("a\u{202E}b", None).is_err());
        assert!(StellarMemo::parse("  ", None).unwrap_err().contains("empty"));
    }

    #[test]
    fn the_stored_form_reads_back() {
        for memo in [StellarMemo::Id(7), StellarMemo::Text("007".into()), StellarMemo::Hash([1; 32])] {
            assert_eq!(StellarMemo::from_stored(memo.kind().as_str(), &memo.value()), Ok(memo));
        }
        assert!(StellarMemo::from_stored("return", "x").is_err());
    }
}
