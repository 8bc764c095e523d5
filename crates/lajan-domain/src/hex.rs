//! Lowercase hex, the form transaction hashes and key digests take everywhere.

/// Lowercase hex of a byte string.
pub fn encode(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        out.push(char::from(DIGITS[usize::from(b >> 4)]));
        out.push(char::from(DIGITS[usize::from(b & 0xf)]));
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn encodes_lowercase() {
        assert_eq!(super::encode(&[0x00, 0xab, 0x7f]), "00ab7f");
    }
}
