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

    /// An RFC 3339 instant with an offset (`2026-12-01T00:00:00Z`), kept to the millisecond.
    pub fn parse_rfc3339(raw: &str) -> Result<Self, String> {
        raw.parse::<jiff::Timestamp>()
            .map(|t| Timestamp(t.as_millisecond()))
            .map_err(|_| format!("{raw:?} is not an RFC 3339 timestamp like 2026-12-01T00:00:00Z"))
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
        assert_eq!(Timestamp::parse_rfc3339("2026-11-21T05:00:00.123Z"), Ok(Timestamp::from_millis(1_795_237_200_123)));
        assert_eq!(
            Timestamp::parse_rfc3339("2026-11-21T00:00:00-05:00"),
            Ok(Timestamp::from_millis(1_795_237_200_000))
        );
        assert!(Timestamp::parse_rfc3339("2026-11-21").is_err());
    }
}
