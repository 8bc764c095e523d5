//! Organizations and their rate-limit tier.

use crate::Timestamp;
use std::fmt;
use std::str::FromStr;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tier {
    Standard,
    Enterprise,
}

impl Tier {
    pub const fn as_str(self) -> &'static str {
        match self {
            Tier::Standard => "standard",
            Tier::Enterprise => "enterprise",
        }
    }
}

impl fmt::Display for Tier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Tier {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "standard" => Ok(Tier::Standard),
            "enterprise" => Ok(Tier::Enterprise),
            other => Err(format!("unknown tier {other:?}: expected standard or enterprise")),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Organization {
    pub id: String,
    pub name: String,
    pub tier: Tier,
    pub created_at: Timestamp,
}
