//! The fake network's state: accounts, ledgers, the open ledger's queue and the faults tests
//! inject, shared by the fake's controls (`testing.rs`) and its Horizon routes.

use axum::http::StatusCode;
use lajan_domain::stellar_memo::StellarMemo;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::{Arc, Mutex};

/// A payment the fake network applied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AppliedPayment {
    pub paging_token: u64,
    pub ledger: i64,
    pub tx_hash: String,
    pub from: String,
    pub to: String,
    pub asset_code: String,
    pub asset_issuer: Option<String>,
    pub amount_stroops: i64,
    pub memo: Option<StellarMemo>,
}

#[derive(Default)]
pub(super) struct Network {
    /// Account id to current sequence number. Only these accounts exist.
    pub(super) accounts: HashMap<String, i64>,
    /// Transactions in ledgers, by hash: (ledger, the failed operation's code for one that failed).
    pub(super) transactions: HashMap<String, (i64, Option<&'static str>)>,
    pub(super) payments: Vec<AppliedPayment>,
    pub(super) ledger: i64,
    /// The next `n` submissions answer 504; `land` says whether they are applied anyway.
    pub(super) timeouts: u32,
    pub(super) land_behind_timeout: bool,
    /// The next `n` submissions wait for this to be notified before they answer 504 (applied
    /// first when the flag says so): answers that arrive after their executor's lease, or never.
    pub(super) stall: Option<(Arc<tokio::sync::Notify>, bool, u32)>,
    /// While set, ledgers close on this clock (milliseconds): a submission waits in the open
    /// ledger and is applied and answered when it closes, one transaction per source account
    /// per ledger, as stellar-core's queue takes them: a second one from a source that has one
    /// queued is refused TRY_AGAIN_LATER (Horizon answers 503), as stellar-core does since 19.
    pub(super) close_every_ms: Option<u64>,
    /// The open ledger's transactions.
    pub(super) open: Vec<Queued>,
    /// Submissions refused TRY_AGAIN_LATER (a second one queued from one source).
    pub(super) try_again_later: u32,
    /// While set, Horizon answers every request 503 (a brownout): nothing can be read or sent.
    pub(super) down: bool,
    /// The next `n` submissions are refused with this transaction code, applying nothing.
    pub(super) refusals: Option<(u32, String)>,
    /// While set, every submission meets a fault drawn from this generator (see [`Fault`]).
    pub(super) chaos: Option<SplitMix64>,
    /// The oldest ledger Horizon keeps, and when it closed (Unix seconds): history before it
    /// is gone. Ledger 1 at the start of 2020 unless a test trims it.
    pub(super) elder: (i64, i64),
    /// Every submitted envelope's hash, in order (resubmissions included).
    pub(super) submissions: Vec<String>,
    /// Accounts that hold no trustline for any credit asset.
    pub(super) untrusting: BTreeSet<String>,
    /// What accounts hold, in stroops, by (account, asset code, issuer); only what tests fund.
    pub(super) balances: BTreeMap<(String, String, Option<String>), i64>,
}

/// A transaction waiting in the open ledger: its source account, its envelope, and where to
/// answer when the ledger closes.
pub(super) type Queued = (String, String, tokio::sync::oneshot::Sender<(StatusCode, Value)>);

/// The fake network and the Horizon URL it answers on.
pub struct FakeStellar {
    pub(super) passphrase: String,
    pub(super) url: String,
    pub(super) network: Mutex<Network>,
}

/// What a submission meets while chaos is on.
pub(super) enum Fault {
    None,
    /// Answered 504 at once, applied first when `land`.
    Timeout {
        land: bool,
    },
    /// Refused with `tx_insufficient_fee`, nothing applied.
    FeeRefused,
    /// Queued: applied after `ms` when `land` (unless the request is dropped first), then
    /// answered 504.
    Late {
        land: bool,
        ms: u64,
    },
}

impl Fault {
    pub(super) fn draw(rng: &mut SplitMix64) -> Fault {
        let land = rng.next_u64().is_multiple_of(2);
        match rng.next_u64() % 10 {
            0 | 1 => Fault::Timeout { land },
            2 => Fault::FeeRefused,
            3 | 4 => Fault::Late { land, ms: 200 + rng.next_u64() % 1_300 },
            _ => Fault::None,
        }
    }
}

/// A small deterministic generator (SplitMix64): the same seed gives the same faults.
#[derive(Debug, Clone)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}
