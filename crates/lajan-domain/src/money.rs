//! Exact decimals: request numbers are read from their JSON text, never through `f64`, and kept
//! as integers scaled by a fixed number of places (cents, thousandths of a percent).

use crate::Invalid;
use rust_decimal::Decimal;
use rust_decimal::prelude::ToPrimitive;
use std::fmt;
use std::str::FromStr;

/// The largest amount Lajan handles, in cents: 922337203685.47 (DECISIONS.md), which is also the
/// most a Stellar amount can be (int64 stroops, seven decimal places, cut to cents).
pub const MAX_CENTS: i64 = 92_233_720_368_547;

/// A money amount a request carries: a JSON number's exact text, positive, at most 2 decimal
/// places and at most [`MAX_CENTS`]. Refusals are `invalid_amount` and name `field`.
pub fn parse_amount(field: &str, text: &str) -> Result<i64, Invalid> {
    let invalid = |rule: String| Invalid::new("invalid_amount", format!("{field} {rule}"));
    match parse_scaled(text, 2) {
        Ok(v) if v <= 0 => Err(invalid("must be greater than 0".into())),
        Ok(v) if v > MAX_CENTS => Err(invalid(format!("must be at most {}", format_scaled(MAX_CENTS, 2)))),
        Ok(v) => Ok(v),
        Err(e) if e == TOO_LARGE => Err(invalid(format!("must be at most {}", format_scaled(MAX_CENTS, 2)))),
        Err(e) => Err(invalid(e)),
    }
}

const TOO_LARGE: &str = "is too large";

/// Reads a JSON number's text exactly and returns it scaled by `10^places`.
/// More fractional digits than `places` (after dropping trailing zeros) is an error, never rounded.
pub fn parse_scaled(text: &str, places: u32) -> Result<i64, String> {
    let parsed = if text.contains(['e', 'E']) { Decimal::from_scientific(text) } else { Decimal::from_str_exact(text) };
    let value = match parsed {
        Ok(v) => v.normalize(),
        Err(_) if !is_json_number(text) => return Err(format!("{text} is not a number")),
        Err(_) if too_many_places(text, places) => return Err(format!("must have at most {places} decimal places")),
        Err(_) => return Err(TOO_LARGE.to_owned()),
    };
    if value.scale() > places {
        return Err(format!("must have at most {places} decimal places"));
    }
    let scaled = value
        .checked_mul(Decimal::from(10i64.pow(places)))
        .and_then(|v| v.to_i64())
        .ok_or_else(|| TOO_LARGE.to_owned())?;
    Ok(scaled)
}

/// Whether `text` has the shape of a JSON number (`-?digits[.digits][e[+-]digits]`).
fn is_json_number(text: &str) -> bool {
    let unsigned = text.strip_prefix('-').unwrap_or(text);
    let (mantissa, exponent) = match unsigned.split_once(['e', 'E']) {
        Some((m, e)) => (m, Some(e.strip_prefix(['+', '-']).unwrap_or(e))),
        None => (unsigned, None),
    };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let mantissa_ok = match mantissa.split_once('.') {
        Some((int, frac)) => digits(int) && digits(frac),
        None => digits(mantissa),
    };
    mantissa_ok && exponent.is_none_or(digits)
}

/// For a number too long for the decimal type: whether the fault is its fractional digits
/// (more than `places` once the exponent is applied) rather than its size.
fn too_many_places(text: &str, places: u32) -> bool {
    let (mantissa, exponent) = text.split_once(['e', 'E']).unwrap_or((text, "0"));
    let exponent = exponent.parse::<i64>().unwrap_or(if exponent.starts_with('-') { i64::MIN } else { i64::MAX });
    let fraction = mantissa.split_once('.').map_or("", |(_, f)| f).trim_end_matches('0');
    let fraction_digits = i64::try_from(fraction.len()).unwrap_or(i64::MAX);
    fraction_digits.saturating_sub(exponent) > i64::from(places)
}

/// Formats an integer scaled by `10^places` with exactly `places` fractional digits.
pub fn format_scaled(value: i64, places: u32) -> String {
    Decimal::new(value, places).to_string()
}

/// Like [`format_scaled`] without trailing fractional zeros: `1.5`, `3`.
pub fn format_trimmed(value: i64, places: u32) -> String {
    Decimal::new(value, places).normalize().to_string()
}

/// The currencies an invoice may be written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Currency {
    Htg,
    Usd,
}

impl Currency {
    pub const ALL: [Currency; 2] = [Currency::Htg, Currency::Usd];

    pub const fn code(self) -> &'static str {
        match self {
            Currency::Htg => "HTG",
            Currency::Usd => "USD",
        }
    }
}

impl fmt::Display for Currency {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl FromStr for Currency {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Currency::ALL
            .into_iter()
            .find(|c| c.code() == s)
            .ok_or_else(|| format!("unknown currency {s:?}: expected HTG or USD"))
    }
}

/// A tax rate in percent, 0 to 100, with at most 3 decimal places; kept in thousandths of a percent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TaxRate(i64);

impl TaxRate {
    pub const PLACES: u32 = 3;

    /// From a JSON number's text.
    pub fn parse(text: &str) -> Result<Self, String> {
        let v = parse_scaled(text, Self::PLACES)?;
        if !(0..=100_000).contains(&v) {
            return Err("must be between 0 and 100".into());
        }
        Ok(TaxRate(v))
    }

    pub const fn from_thousandths(v: i64) -> Self {
        TaxRate(v)
    }

    pub const fn thousandths(self) -> i64 {
        self.0
    }
}

impl fmt::Display for TaxRate {
    /// The shortest exact decimal: `7.5`, `0`, `12.125`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", Decimal::new(self.0, Self::PLACES).normalize())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scaled_parsing_is_exact() {
        assert_eq!(parse_scaled("19.99", 2), Ok(1999));
        assert_eq!(parse_scaled("0.1", 2), Ok(10));
        assert_eq!(parse_scaled("19.990", 2), Ok(1999));
        assert_eq!(parse_scaled("1e2", 2), Ok(10000));
        assert_eq!(parse_scaled("-3", 2), Ok(-300));
        assert!(parse_scaled("0.001", 2).is_err());
        assert!(parse_scaled("1e-3", 2).is_err());
        assert_eq!(parse_scaled("99999999999999999999999", 2), Err("is too large".into()));
        assert_eq!(parse_scaled("1e30", 2), Err("is too large".into()));
        assert_eq!(parse_scaled("1e-30", 2), Err("must have at most 2 decimal places".into()));
        assert_eq!(
            parse_scaled("0.0000000000000000000000000000001", 2),
            Err("must have at most 2 decimal places".into())
        );
        assert_eq!(parse_scaled("abc", 2), Err("abc is not a number".into()));
        assert_eq!(format_scaled(1999, 2), "19.99");
        assert_eq!(format_scaled(5, 2), "0.05");
        assert_eq!(format_scaled(-5, 2), "-0.05");
    }

    #[test]
    fn amounts_are_positive_and_at_most_the_maximum() {
        assert_eq!(parse_amount("amount", "10.5"), Ok(1050));
        assert_eq!(parse_amount("amount", "922337203685.47"), Ok(MAX_CENTS));
        for bad in ["0", "-1", "1.001", "922337203685.48", "92233720368547758.07", "1e30"] {
            let e = parse_amount("amount", bad).unwrap_err();
            assert_eq!(e.code, "invalid_amount", "{bad}");
            assert!(e.message.starts_with("amount "), "names the field: {}", e.message);
        }
        assert_eq!(parse_amount("amount", "1e30").unwrap_err().message, "amount must be at most 922337203685.47");
    }

    #[test]
    fn tax_rates() {
        assert_eq!(TaxRate::parse("7.5").unwrap().to_string(), "7.5");
        assert_eq!(TaxRate::parse("100").unwrap().thousandths(), 100_000);
        assert_eq!(TaxRate::parse("0").unwrap().to_string(), "0");
        assert!(TaxRate::parse("100.001").is_err());
        assert!(TaxRate::parse("-1").is_err());
        assert!(TaxRate::parse("1.2345").is_err());
    }
}
