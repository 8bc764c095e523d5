//! The `lajan` binary tested as operators run it, one test binary for the crate: the CLI, several
//! processes on one database, crashes at every step of a payout, a real browser, and the
//! architecture rules read off the sources.

mod architecture;
mod browser;
mod cli;
mod crash;
mod idempotent_crash;
mod processes;
mod support;
