//! Instants as integer milliseconds since the Unix epoch inside; RFC 3339 UTC with milliseconds outside.

use serde::{Serialize, Serializer};
use std::fmt;

/// A UTC instant with millisecond precision. Stored as `i64` milliseconds on every backend.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Timestamp(i64);

impl Timestamp {
    pub fn now() -> Self {
        Timestamp(jiff::Timestamp::now().as_millisecond())
    }

    pub const fn from_millis(ms: i64) -> Self {
        Timestamp(ms)
    }

    pub const fn as_millis(self) -> i64 {
        self.0
    }

    /// Whole Unix seconds, rounded down.
    pub const fn as_unix_seconds(self) -> i64 {
        self.0.div_euclid(1000)
    }

    /// The first instant a deadline in a request may not reach, 2100-01-01T00:00:00Z: the same
    /// horizon as due dates, far beyond any real deadline, and well inside every backend's range.
    pub const HORIZON: Timestamp = Timestamp(4_102_444_800_000);

    /// A deadline a request sets, such as a payment link's `expiresAt`: RFC 3339, after `now`
    /// and before [`Timestamp::HORIZON`]. The error is the rule broken, for the field's message.
    pub fn parse_deadline(raw: &str, now: Timestamp) -> Result<Self, String> {
        let too_late = || format!("must be before {}", Self::HORIZON);
        match raw.parse::<jiff::Timestamp>() {
            Ok(t) if t.as_millisecond() <= now.0 => Err("must be in the future".into()),
            Ok(t) if t.as_millisecond() >= Self::HORIZON.0 => Err(too_late()),
            Ok(t) => Ok(Timestamp(t.as_millisecond())),
            // Well formed, but beyond what `jiff` holds (`9999-12-31T23:59:59Z`): name the range
            // the instant is outside of, not the format.
            Err(_) => match jiff::fmt::temporal::Pieces::parse(raw) {
                Ok(p) if p.time().is_some() && p.offset().is_some() => {
                    Err(if p.date().year() > 0 { too_late() } else { "must be in the future".into() })
                }
                _ => Err("must be an RFC 3339 timestamp with an offset, like 2026-12-01T00:00:00Z".into()),
            },
        }
    }

    /// An instant a request names, such as the start of a window: RFC 3339 with an offset.
    pub fn parse_rfc3339(raw: &str) -> Result<Self, String> {
        raw.parse::<jiff::Timestamp>()
            .map(|t| Timestamp(t.as_millisecond()))
            .map_err(|_| "must be an RFC 3339 timestamp with an offset, like 2026-12-01T00:00:00Z".into())
    }

    pub const fn plus_millis(self, ms: i64) -> Self {
        Timestamp(self.0.saturating_add(ms))
    }
}

impl fmt::Display for Timestamp {
    /// `2026-11-21T05:00:00.123Z`
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match jiff::Timestamp::from_millisecond(self.0) {
            Ok(ts) => write!(f, "{}", ts.strftime("%Y-%m-%dT%H:%M:%S%.3fZ")),
            Err(_) => write!(f, "invalid-timestamp({})", self.0),
        }
    }
}

impl Serialize for Timestamp {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_rfc3339_utc_with_millis() {
        assert_eq!(Timestamp::from_millis(0).to_string(), "1970-01-01T00:00:00.000Z");
        assert_eq!(Timestamp::from_millis(1_795_237_200_123).to_string(), "2026-11-21T05:00:00.123Z");
        assert_eq!(Timestamp::from_millis(1999).as_unix_seconds(), 1);
    }

    #[test]
    fn deadlines_are_in_the_future_and_before_the_horizon() {
        let now = Timestamp::from_millis(1_795_237_200_000);
        assert_eq!(Timestamp::HORIZON.to_string(), "2100-01-01T00:00:00.000Z");
        assert_eq!(
            Timestamp::parse_deadline("2027-01-01T00:00:00Z", now),
            Ok(Timestamp::from_millis(1_798_761_600_000))
        );
        assert_eq!(Timestamp::parse_deadline("2020-01-01T00:00:00Z", now), Err("must be in the future".into()));
        let earlier = Timestamp::from_millis(1_795_000_000_000);
        assert_eq!(
            Timestamp::parse_deadline("2026-11-21T05:00:00.123Z", earlier),
            Ok(Timestamp::from_millis(1_795_237_200_123)),
            "kept to the millisecond"
        );
        assert_eq!(
            Timestamp::parse_deadline("2026-11-21T00:00:00-05:00", earlier),
            Ok(Timestamp::from_millis(1_795_237_200_000)),
            "any offset"
        );
        for late in ["2100-01-01T00:00:00Z", "9999-12-31T23:59:59Z", "9999-12-30T00:00:00+05:00"] {
            assert_eq!(
                Timestamp::parse_deadline(late, now),
                Err("must be before 2100-01-01T00:00:00.000Z".into()),
                "{late}"
            );
        }
        assert_eq!(Timestamp::parse_deadline("-009999-01-01T00:00:00Z", now), Err("must be in the future".into()));
        for bad in ["2026-12-01", "tomorrow", "2026-12-01T00:00:00", ""] {
            assert!(Timestamp::parse_deadline(bad, now).unwrap_err().starts_with("must be an RFC 3339"), "{bad}");
        }
    }
}
