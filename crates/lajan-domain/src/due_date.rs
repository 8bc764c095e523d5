//! A due date: a real calendar day in the years Lajan takes, judged as passed in an
//! organization's timezone. Invoices and their instalments are due on one.

use crate::Timestamp;
use crate::validation::Invalid;
use std::fmt;

/// A due date: a real calendar day, `YYYY-MM-DD`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct DueDate(jiff::civil::Date);

impl DueDate {
    /// The years a due date may fall in: a typo such as `0026-01-01` or `20260-01-01` is refused
    /// instead of becoming an invoice that is overdue for ever or never.
    pub const YEARS: std::ops::RangeInclusive<i16> = 2000..=2099;

    /// A due date from a request: `YYYY-MM-DD`, a real day, in [`DueDate::YEARS`].
    pub fn parse(raw: &str) -> Result<Self, Invalid> {
        let date = Self::from_stored(raw)?;
        if !Self::YEARS.contains(&date.0.year()) {
            return Err(Invalid::new(
                "invalid_due_date",
                format!(
                    "dueDate {raw:?} must be between {}-01-01 and {}-12-31",
                    Self::YEARS.start(),
                    Self::YEARS.end()
                ),
            ));
        }
        Ok(date)
    }

    /// A due date as stored: the format alone, so rows written before [`DueDate::YEARS`]
    /// existed still load.
    pub fn from_stored(raw: &str) -> Result<Self, Invalid> {
        let bad = || {
            Invalid::new("invalid_due_date", format!("dueDate {raw:?} must be a calendar date in the form YYYY-MM-DD"))
        };
        if raw.len() != 10 || raw.as_bytes()[4] != b'-' || raw.as_bytes()[7] != b'-' {
            return Err(bad());
        }
        jiff::civil::Date::strptime("%Y-%m-%d", raw).map(DueDate).map_err(|_| bad())
    }

    /// The instant `offset_days` from this date at `time` in the timezone `tz` (a time a clock
    /// change skips or repeats resolves as jiff's `compatible` does); `None` for an unknown
    /// timezone or a day out of range.
    pub fn moment(self, offset_days: i32, time: jiff::civil::Time, tz: &str) -> Option<Timestamp> {
        let zone = jiff::tz::TimeZone::get(tz).ok()?;
        let day = self.0.checked_add(jiff::Span::new().days(i64::from(offset_days))).ok()?;
        let zoned = day.to_datetime(time).to_zoned(zone).ok()?;
        Some(Timestamp::from_millis(zoned.timestamp().as_millisecond()))
    }

    /// Whether this date is over, i.e. before today, in the timezone `tz` at instant `now`.
    pub fn has_passed(self, now: Timestamp, tz: &str) -> bool {
        let Ok(zone) = jiff::tz::TimeZone::get(tz) else { return false };
        let Ok(instant) = jiff::Timestamp::from_millisecond(now.as_millis()) else { return false };
        self.0 < instant.to_zoned(zone).date()
    }
}

impl fmt::Display for DueDate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0.strftime("%Y-%m-%d"))
    }
}
