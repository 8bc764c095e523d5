//! Exact decimals: request numbers are read from their JSON text, never through `f64`, and kept
//! as integers scaled by a fixed number of places (cents, thousandths of a percent).

use crate::Invalid;
use rust_decimal::Decimal;
use std::fmt;
use std::str::FromStr;

/// The largest amount Lajan handles, in cents: 922337203685.47 (DECISIONS.md), which is also the
/// most a Stellar amount can be (int64 stroops, seven decimal places, cut to cents).
pub const MAX_CENTS: i64 = 92_233_720_368_547;

/// Whether `text` is written as every amount is: plain decimal digits (a sign aside), no
/// exponent, at most 2 decimal places; the rule it breaks otherwise.
pub fn plain_cents(text: &str) -> Result<(), String> {
    let unsigned = text.strip_prefix('-').unwrap_or(text);
    let (integer, fraction) = unsigned.split_once('.').unwrap_or((unsigned, "0"));
    let digits = |part: &str| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit());
    if !digits(integer) || !digits(fraction) {
        return Err(format!("must be a plain decimal number such as 125.50, not {text:?}"));
    }
    if fraction.len() > 2 {
        return Err("must have at most 2 decimal places".into());
    }
    Ok(())
}

/// A money amount a request carries (a JSON number's exact text, or a CSV cell): a plain
/// decimal (`125.50`, no exponent, no sign but `-`), positive, with at most 2 decimal places as
/// written (`10.000` is refused, never read as 10.00) and at most [`MAX_CENTS`]. Refusals are
/// `invalid_amount` and name `field`.
pub fn parse_amount(field: &str, text: &str) -> Result<i64, Invalid> {
    let invalid = |rule: String| Invalid::new("invalid_amount", format!("{field} {rule}"));
    plain_cents(text).map_err(invalid)?;
    let positive = || invalid("must be greater than 0".into());
    let at_most = || invalid(format!("must be at most {}", format_scaled(MAX_CENTS, 2)));
    match parse_scaled(text, 2) {
        Ok(v) if v <= 0 => Err(positive()),
        Ok(v) if v > MAX_CENTS => Err(at_most()),
        Ok(v) => Ok(v),
        Err(e) if e == TOO_LARGE && text.starts_with('-') => Err(positive()),
        Err(e) if e == TOO_LARGE => Err(at_most()),
        Err(e) => Err(invalid(e)),
    }
}

const TOO_LARGE: &str = "is too large";

/// Reads a JSON number's text exactly and returns it scaled by `10^places`.
/// More fractional digits than `places` (after dropping trailing zeros) is an error, never rounded.
///
/// Hand-written rather than through `rust_decimal`: that type holds 28 digits and rounds the
/// mantissa of an exponent form (`0.999...9e0` with 29 nines became 1), where money must be
/// refused instead. Here the digits are only ever shifted and checked, never rounded.
pub fn parse_scaled(text: &str, places: u32) -> Result<i64, String> {
    let Some(number) = JsonNumber::read(text) else { return Err(format!("{text} is not a number")) };
    // value = digits x 10^shift, in units of 10^-places.
    let fraction_digits = i64::try_from(number.fraction.len()).unwrap_or(i64::MAX);
    let shift = number.exponent.saturating_sub(fraction_digits).saturating_add(i64::from(places));
    let digits: String = format!("{}{}", number.integer, number.fraction);
    let digits = digits.trim_start_matches('0');
    if digits.is_empty() {
        return Ok(0);
    }
    let significant = digits.trim_end_matches('0');
    let trailing_zeros = i64::try_from(digits.len() - significant.len()).unwrap_or(i64::MAX);
    if shift.saturating_add(trailing_zeros) < 0 {
        return Err(format!("must have at most {places} decimal places"));
    }
    // Keep the significant digits and the zeros the shift leaves in place.
    let kept_zeros = usize::try_from(shift.saturating_add(trailing_zeros)).unwrap_or(usize::MAX);
    if significant.len().saturating_add(kept_zeros) > 19 {
        return Err(TOO_LARGE.to_owned());
    }
    let magnitude = significant
        .parse::<i64>()
        .ok()
        .and_then(|m| 10i64.checked_pow(u32::try_from(kept_zeros).ok()?).and_then(|p| m.checked_mul(p)))
        .ok_or_else(|| TOO_LARGE.to_owned())?;
    Ok(if number.negative { -magnitude } else { magnitude })
}

/// The parts of a JSON number's text: `-?integer[.fraction][e[+-]exponent]`.
struct JsonNumber<'a> {
    negative: bool,
    integer: &'a str,
    fraction: &'a str,
    /// Saturates for exponents too long to hold; the value is then out of range either way.
    exponent: i64,
}

impl<'a> JsonNumber<'a> {
    fn read(text: &'a str) -> Option<Self> {
        let (negative, unsigned) = match text.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        let (mantissa, exponent) = match unsigned.split_once(['e', 'E']) {
            Some((m, e)) => (m, Some(e)),
            None => (unsigned, None),
        };
        let (integer, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        if !digits(integer) || (mantissa.contains('.') && !digits(fraction)) {
            return None;
        }
        let exponent = match exponent {
            None => 0,
            Some(e) => {
                let (sign, magnitude) = match e.strip_prefix('-') {
                    Some(m) => (-1, m),
                    None => (1, e.strip_prefix('+').unwrap_or(e)),
                };
                if !digits(magnitude) {
                    return None;
                }
                magnitude.parse::<i64>().map_or(sign * i64::MAX, |m| sign * m)
            }
        };
        Some(JsonNumber { negative, integer, fraction, exponent })
    }
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
        assert_eq!(parse_amount("amount", "7"), Ok(700));
        let bad_ones = ["0", "-1", "1.001", "922337203685.48", "92233720368547758.07", "1e30", "1e2", "10.000"];
        for bad in bad_ones.into_iter().chain(["1.", ".5", " 1", "1 ", "+1", "1,5", "0x10", "", "1E2", "1.0e1"]) {
            let e = parse_amount("amount", bad).unwrap_err();
            assert_eq!(e.code, "invalid_amount", "{bad}");
            assert!(e.message.starts_with("amount "), "names the field: {}", e.message);
        }
        assert_eq!(
            parse_amount("amount", "1e2").unwrap_err().message,
            "amount must be a plain decimal number such as 125.50, not \"1e2\""
        );
        assert_eq!(parse_amount("amount", "10.000").unwrap_err().message, "amount must have at most 2 decimal places");
        assert_eq!(
            parse_amount("amount", "99999999999999999999").unwrap_err().message,
            "amount must be at most 922337203685.47"
        );
        assert_eq!(
            parse_amount("amount", "-99999999999999999999").unwrap_err().message,
            "amount must be greater than 0"
        );
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
