//! Exact decimals: request numbers are read from their JSON text, never through `f64`, and kept
//! as integers scaled by a fixed number of places (cents, thousandths of a percent).

use rust_decimal::Decimal;
use rust_decimal::prelude::ToPrimitive;
use std::fmt;
use std::str::FromStr;

/// Reads a JSON number's text exactly and returns it scaled by `10^places`.
/// More fractional digits than `places` (after dropping trailing zeros) is an error, never rounded.
pub fn parse_scaled(text: &str, places: u32) -> Result<i64, String> {
    let parsed = if text.contains(['e', 'E']) { Decimal::from_scientific(text) } else { Decimal::from_str_exact(text) };
    let value = parsed.map_err(|_| format!("{text} is not a number we can read exactly"))?.normalize();
    if value.scale() > places {
        return Err(format!("must have at most {places} decimal places"));
    }
    let scaled = value
        .checked_mul(Decimal::from(10i64.pow(places)))
        .and_then(|v| v.to_i64())
        .ok_or_else(|| "is too large".to_owned())?;
    Ok(scaled)
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
        assert!(parse_scaled("99999999999999999999999", 2).is_err());
        assert_eq!(format_scaled(1999, 2), "19.99");
        assert_eq!(format_scaled(5, 2), "0.05");
        assert_eq!(format_scaled(-5, 2), "-0.05");
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
