//! Lajan's background work. For now: delivering invoice notices to customers by email and SMS.

pub mod notify;

#[cfg(feature = "testing")]
pub mod testing;
