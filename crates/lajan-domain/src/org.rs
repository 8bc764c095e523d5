//! Organizations and their rate-limit tier.

use crate::Timestamp;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tier {
    Standard,
    Enterprise,
}

str_enum!(Tier {
    Standard => "standard",
    Enterprise => "enterprise",
});

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Organization {
    pub id: String,
    pub name: String,
    pub tier: Tier,
    pub created_at: Timestamp,
}

/// The longest organization name, in characters.
pub const MAX_ORG_NAME_CHARS: usize = 200;

/// An organization's name as an operator gives it: trimmed, not empty, one line, at most
/// [`MAX_ORG_NAME_CHARS`] characters, nothing invisible or reordering (it reaches the payment
/// page's title, email subjects and `orgs list`'s tab-separated lines).
pub fn parse_org_name(raw: &str) -> Result<String, String> {
    crate::validation::required_text(Some(raw), MAX_ORG_NAME_CHARS, false)
}
