//! Lajan's domain: identifiers, validated value types, resources and their rules. No IO here.
//!
//! Everything that crosses the API boundary is parsed into these types first ("parse, don't
//! validate"): a value of `PhoneNumber`, `WalletAddress` or `PageRequest` is valid by construction.

pub mod apikey;
pub mod asset;
pub mod client;
pub mod event;
pub mod hex;
pub mod id;
pub mod invoice;
pub mod message;
pub mod money;
pub mod org;
pub mod pagination;
pub mod payment;
pub mod payout;
pub mod scope;
pub mod settings;
pub mod tenant;
pub mod timestamp;
pub mod validation;

pub use tenant::{Environment, Tenant};
pub use timestamp::Timestamp;
pub use validation::{FieldError, Invalid};
