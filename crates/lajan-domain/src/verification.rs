//! What an organization may ask a receiver to prove before they register a wallet, as the
//! Stellar Disbursement Platform does: a date of birth, a national id, a PIN or a year and month.
//! The organization gives the answer with the client; it is kept only as a slow hash of its one
//! normalized form (so `1990-5-7` and `1990-05-07`, or `ab 123-45` and `AB12345`, are the same
//! answer), and a receiver's later answer is normalized the same way before it is compared.

use crate::Timestamp;
use std::fmt;

/// The kinds of question, by their API names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VerificationKind {
    DateOfBirth,
    NationalId,
    Pin,
    YearMonth,
}

str_enum!(VerificationKind {
    DateOfBirth => "date_of_birth",
    NationalId => "national_id",
    Pin => "pin",
    YearMonth => "year_month",
});

/// An answer in the one form it is hashed and compared in. Never stored or shown as it is.
#[derive(Clone, PartialEq, Eq)]
pub struct VerificationAnswer {
    pub kind: VerificationKind,
    normalized: String,
}

// The answer is a secret the receiver proves they know: it never reaches a log.
impl fmt::Debug for VerificationAnswer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "VerificationAnswer({}, [hidden])", self.kind)
    }
}

/// The first year a date of birth or a year and month may name.
const FIRST_YEAR: i16 = 1900;

impl VerificationAnswer {
    /// `raw` read as an answer of `kind`, on the day of `now` (a date of birth or a year and
    /// month is not in the future). The error is the rule broken, for the `value` field.
    pub fn parse(kind: VerificationKind, raw: &str, now: Timestamp) -> Result<Self, String> {
        let today = jiff::Timestamp::from_millisecond(now.as_millis())
            .map(|t| t.to_zoned(jiff::tz::TimeZone::UTC).date())
            .map_err(|_| "cannot be checked against today's date".to_owned())?;
        let raw = raw.trim();
        let normalized = match kind {
            VerificationKind::DateOfBirth => {
                let date = parse_date(raw).ok_or("must be a date of birth in the form YYYY-MM-DD")?;
                if date.year() < FIRST_YEAR || date > today {
                    return Err(format!("must be a date between {FIRST_YEAR}-01-01 and today"));
                }
                date.strftime("%Y-%m-%d").to_string()
            }
            VerificationKind::YearMonth => {
                let date = parse_date(&format!("{raw}-01")).ok_or("must be a year and month in the form YYYY-MM")?;
                if date.year() < FIRST_YEAR || date > today {
                    return Err(format!("must be a month between {FIRST_YEAR}-01 and this month"));
                }
                date.strftime("%Y-%m").to_string()
            }
            VerificationKind::Pin => {
                if !(4..=8).contains(&raw.len()) || !raw.bytes().all(|b| b.is_ascii_digit()) {
                    return Err("must be 4 to 8 digits".into());
                }
                raw.to_owned()
            }
            VerificationKind::NationalId => {
                // People write an id with spaces, dashes or dots between its groups, in either case.
                let id: String = raw.chars().filter(|c| !matches!(c, ' ' | '-' | '.')).collect();
                if !(4..=32).contains(&id.len()) || !id.bytes().all(|b| b.is_ascii_alphanumeric()) {
                    return Err("must be 4 to 32 letters and digits (spaces, dashes and dots are ignored)".into());
                }
                id.to_ascii_uppercase()
            }
        };
        Ok(VerificationAnswer { kind, normalized })
    }

    /// The normalized answer, for the slow hash and nothing else.
    pub fn secret(&self) -> &str {
        &self.normalized
    }
}

/// `YYYY-M-D` with one or two digits for the month and day: the calendar day it names.
fn parse_date(raw: &str) -> Option<jiff::civil::Date> {
    let mut parts = raw.split('-');
    let (year, month, day) = (parts.next()?, parts.next()?, parts.next()?);
    let digits = |s: &str, max: usize| !s.is_empty() && s.len() <= max && s.bytes().all(|b| b.is_ascii_digit());
    if parts.next().is_some() || year.len() != 4 || !digits(year, 4) || !digits(month, 2) || !digits(day, 2) {
        return None;
    }
    jiff::civil::Date::new(year.parse().ok()?, month.parse().ok()?, day.parse().ok()?).ok()
}

/// A verification as kept with the client: what is asked, and the slow hash (a PHC string) of
/// the answer. Never shown; a client's view names the kind only.
#[derive(Clone, PartialEq, Eq)]
pub struct Verification {
    pub kind: VerificationKind,
    pub hash: String,
}

impl fmt::Debug for Verification {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Verification({}, [hash])", self.kind)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // 2026-11-28T12:00:00Z
    const NOW: Timestamp = Timestamp::from_millis(1_795_867_200_000);

    fn normalized(kind: VerificationKind, raw: &str) -> Result<String, String> {
        VerificationAnswer::parse(kind, raw, NOW).map(|a| a.secret().to_owned())
    }

    #[test]
    fn each_answer_has_one_form() {
        use VerificationKind::*;
        assert_eq!(normalized(DateOfBirth, " 1990-5-7 "), Ok("1990-05-07".into()));
        assert_eq!(normalized(DateOfBirth, "1990-05-07"), Ok("1990-05-07".into()));
        assert_eq!(normalized(YearMonth, "1990-5"), Ok("1990-05".into()));
        assert_eq!(normalized(NationalId, "ab 123-45.6"), Ok("AB123456".into()));
        assert_eq!(normalized(Pin, "0042"), Ok("0042".into()), "a PIN keeps its leading zeros");
    }

    #[test]
    fn answers_outside_their_rules_are_refused() {
        use VerificationKind::*;
        for (kind, bad) in [
            (DateOfBirth, "1990-02-30"),
            (DateOfBirth, "07/05/1990"),
            (DateOfBirth, "1899-12-31"),
            (DateOfBirth, "2026-11-29"),
            (DateOfBirth, "+1990-05-07"),
            (YearMonth, "1990-13"),
            (YearMonth, "2026-12"),
            (YearMonth, "1990-05-07"),
            (Pin, "123"),
            (Pin, "123456789"),
            (Pin, "12a4"),
            (NationalId, "ab1"),
            (NationalId, "ID#12345"),
            (NationalId, "é12345"),
        ] {
            assert!(normalized(kind, bad).is_err(), "{kind} {bad:?}");
        }
        assert_eq!(normalized(DateOfBirth, "2026-11-28"), Ok("2026-11-28".into()), "today is not the future");
        assert_eq!(
            "passport".parse::<VerificationKind>(),
            Err("unknown value \"passport\": expected one of date_of_birth, national_id, pin, year_month".into())
        );
    }

    #[test]
    fn the_answer_never_prints() {
        let answer = VerificationAnswer::parse(VerificationKind::Pin, "4821", NOW).unwrap();
        assert!(!format!("{answer:?}").contains("4821"));
        let kept = Verification { kind: VerificationKind::Pin, hash: "$argon2id$v=19$secret".into() };
        assert!(!format!("{kept:?}").contains("argon2"));
    }
}
