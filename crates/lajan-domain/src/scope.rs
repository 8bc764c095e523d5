//! API key scopes: `*`, or `<area>:read` / `<area>:write` per area, plus `payouts:approve`.
//!
//! `write` includes `read` for the same area (a key that may change clients may also see them).

use std::fmt;
use std::str::FromStr;

/// The API areas a scope can name.
pub const AREAS: &[&str] =
    &["invoices", "payouts", "clients", "payment-links", "disbursements", "webhook-endpoints", "events", "settings"];

/// Reads the sandbox's messages whole, registration codes and links included: tests reach a
/// receiver's code this way, never through `GET /v1/messages` or events, which hide them.
pub const SANDBOX_READ: &str = "sandbox:read";

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Scope {
    All,
    Read(&'static str),
    Write(&'static str),
    ApprovePayouts,
}

impl Scope {
    /// Whether a key holding `self` may do what `required` names.
    pub fn grants(&self, required: &Scope) -> bool {
        match (self, required) {
            (Scope::All, _) => true,
            (Scope::Write(a), Scope::Read(b)) => a == b,
            (held, req) => held == req,
        }
    }

    pub fn any_grants(held: &[Scope], required: &Scope) -> bool {
        held.iter().any(|s| s.grants(required))
    }
}

impl fmt::Display for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Scope::All => f.write_str("*"),
            Scope::Read(a) => write!(f, "{a}:read"),
            Scope::Write(a) => write!(f, "{a}:write"),
            Scope::ApprovePayouts => f.write_str("payouts:approve"),
        }
    }
}

impl FromStr for Scope {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s == "*" {
            return Ok(Scope::All);
        }
        if s == "payouts:approve" {
            return Ok(Scope::ApprovePayouts);
        }
        if s == SANDBOX_READ {
            return Ok(Scope::Read("sandbox"));
        }
        let bad = || {
            format!(
                "unknown scope {s:?}: expected *, payouts:approve, sandbox:read or <area>:read|write with area one of {}",
                AREAS.join(", ")
            )
        };
        let (area, action) = s.split_once(':').ok_or_else(bad)?;
        let area = AREAS.iter().copied().find(|a| *a == area).ok_or_else(bad)?;
        match action {
            "read" => Ok(Scope::Read(area)),
            "write" => Ok(Scope::Write(area)),
            _ => Err(bad()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints_every_form() {
        for s in ["*", "payouts:approve", "sandbox:read", "clients:read", "webhook-endpoints:write"] {
            assert_eq!(s.parse::<Scope>().unwrap().to_string(), s);
        }
        for bad in ["", "clients", "clients:delete", "nope:read", "payouts:approve:x"] {
            assert!(bad.parse::<Scope>().is_err(), "{bad}");
        }
    }

    #[test]
    fn write_implies_read_of_the_same_area_only() {
        let w: Scope = "clients:write".parse().unwrap();
        assert!(w.grants(&Scope::Read("clients")));
        assert!(!w.grants(&Scope::Read("invoices")));
        assert!(!Scope::Read("clients").grants(&Scope::Write("clients")));
        assert!(!Scope::Write("payouts").grants(&Scope::ApprovePayouts));
        assert!(Scope::All.grants(&Scope::ApprovePayouts));
    }
}
