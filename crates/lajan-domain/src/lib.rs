//! Lajan's domain: identifiers, validated value types, resources and their rules. No IO here.
//!
//! Everything that crosses the API boundary is parsed into these types first ("parse, don't
//! validate"): a value of `PhoneNumber`, `WalletAddress` or `PageRequest` is valid by construction.

/// `as_str`, `ALL`, `Display` and `FromStr` (naming the accepted values) for an enum of unit
/// variants, each with its text in the API.
macro_rules! str_enum {
    ($ty:ident { $($variant:ident => $text:literal),* $(,)? }) => {
        impl $ty {
            pub const ALL: &'static [$ty] = &[$($ty::$variant),*];
            pub const fn as_str(self) -> &'static str {
                match self { $($ty::$variant => $text),* }
            }
        }
        impl std::fmt::Display for $ty {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
        impl std::str::FromStr for $ty {
            type Err = String;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                $ty::ALL.iter().copied().find(|v| v.as_str() == s).ok_or_else(|| {
                    let names: Vec<&str> = $ty::ALL.iter().map(|v| v.as_str()).collect();
                    format!("unknown value {s:?}: expected one of {}", names.join(", "))
                })
            }
        }
    };
}

pub mod access;
pub mod actor;
pub mod apikey;
pub mod asset;
pub mod client;
pub mod console;
pub mod credit_balance;
pub mod credit_note;
pub mod disbursement;
pub mod due_date;
pub mod event;
pub mod hex;
pub mod id;
pub mod installment;
pub mod invitation;
pub mod invoice;
pub mod invoice_payment;
pub mod message;
pub mod money;
pub mod network;
pub mod org;
pub mod pagination;
pub mod payment;
pub mod payout;
pub mod phone;
pub mod receiver;
pub mod reminder;
pub mod retry;
pub mod scope;
pub mod settings;
pub mod settings_change;
pub mod statement;
pub mod stellar_memo;
pub mod stellar_profile;
pub mod tenant;
pub mod timestamp;
pub mod user;
pub mod validation;
pub mod verification;
pub mod wallet_deposit;
pub mod webhook;

pub use actor::Actor;
pub use tenant::{Environment, Tenant};
pub use timestamp::Timestamp;
pub use validation::{FieldError, Invalid};
