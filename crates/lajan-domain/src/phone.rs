//! Phone numbers as people write them (`3710 2030`, `+509 3710-2030`, `509 37 10 20 30`), read
//! in the organization's country and kept in E.164 (`+50937102030`), the one form Lajan stores,
//! compares and sends to.

use phonenumber::country::Id;
use phonenumber::{Mode, PhoneNumber as Parsed};
use std::fmt;

/// The country a number written without its country code belongs to: the organization's
/// (ISO 3166-1 alpha-2), Haiti unless its settings say otherwise.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PhoneCountry(Id);

impl PhoneCountry {
    pub const HAITI: PhoneCountry = PhoneCountry(Id::HT);

    /// An ISO 3166-1 alpha-2 code with a telephone numbering plan (`HT`, `US`, `FR`), in either case.
    pub fn parse(raw: &str) -> Result<Self, String> {
        raw.trim()
            .to_ascii_uppercase()
            .parse::<Id>()
            .map(PhoneCountry)
            .map_err(|_| "must be a two-letter country code (ISO 3166-1), such as HT".to_owned())
    }

    pub fn code(self) -> String {
        self.0.as_ref().to_owned()
    }
}

impl Default for PhoneCountry {
    fn default() -> Self {
        PhoneCountry::HAITI
    }
}

impl fmt::Display for PhoneCountry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0.as_ref())
    }
}

/// A phone number that exists in its country's numbering plan, kept in E.164.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PhoneNumber(pub(crate) String);

const RULE: &str = "must be a phone number, such as 3710 2030 or +509 3710 2030";

impl PhoneNumber {
    /// Reads `raw` in any form its owner writes it: national (`3710 2030`, read in `country`),
    /// international (`+509 3710-2030`, `00509…`, or the country code without `+`), with
    /// spaces, dots, dashes or brackets. A number its country's plan cannot hold (a digit
    /// short, a range no operator has) and one with an extension, which no message reaches,
    /// are refused.
    pub fn parse_in(raw: &str, country: PhoneCountry) -> Result<Self, String> {
        let raw = raw.trim();
        // The parser tolerates letters (vanity numbers) and trailing text; a typed number holds
        // none of them.
        let typed = |c: char| c.is_ascii_digit() || matches!(c, '+' | ' ' | '.' | '-' | '(' | ')' | '/' | '\u{a0}');
        if raw.is_empty() || raw.len() > 32 || !raw.chars().all(typed) {
            return Err(RULE.to_owned());
        }
        let number: Parsed = phonenumber::parse(Some(country.0), raw).map_err(|_| RULE.to_owned())?;
        if number.extension().is_some() || !phonenumber::is_valid(&number) {
            return Err(RULE.to_owned());
        }
        Ok(PhoneNumber(number.format().mode(Mode::E164).to_string()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn into_string(self) -> String {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e164(raw: &str, country: PhoneCountry) -> Result<String, String> {
        PhoneNumber::parse_in(raw, country).map(PhoneNumber::into_string)
    }

    #[test]
    fn haitian_numbers_in_every_form_a_haitian_writes_them() {
        for raw in ["3710 2030", "37102030", "+509 3710-2030", "509 37 10 20 30", "00509 3710 2030", "(509) 3710.2030"]
        {
            assert_eq!(e164(raw, PhoneCountry::HAITI).as_deref(), Ok("+50937102030"), "{raw}");
        }
        assert_eq!(e164("+50937000000", PhoneCountry::HAITI).as_deref(), Ok("+50937000000"));
        assert_eq!(e164("2810 2030", PhoneCountry::HAITI).as_deref(), Ok("+50928102030"), "a landline");
    }

    #[test]
    fn numbers_of_other_countries_by_their_code_or_the_organizations_country() {
        assert_eq!(e164("+1 415 555 0100", PhoneCountry::HAITI).as_deref(), Ok("+14155550100"));
        assert_eq!(e164("+33 6 12 34 56 78", PhoneCountry::HAITI).as_deref(), Ok("+33612345678"));
        let france = PhoneCountry::parse("fr").unwrap();
        assert_eq!(e164("06 12 34 56 78", france).as_deref(), Ok("+33612345678"));
        assert_eq!(france.code(), "FR");
    }

    #[test]
    fn typos_and_what_no_message_reaches_are_refused() {
        for bad in [
            "3710 203",
            "3710 20300",
            "+5093710203",
            "+0937000000",
            "+",
            "",
            "call me",
            "3710 2030 ext 5",
            "06 12 34 56 78",
            "+50900000000",
            "3710-2030x",
        ] {
            assert!(e164(bad, PhoneCountry::HAITI).is_err(), "{bad}");
        }
        assert!(PhoneCountry::parse("XX").is_err() && PhoneCountry::parse("Haiti").is_err());
    }
}
