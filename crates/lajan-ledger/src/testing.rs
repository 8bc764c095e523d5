//! A loopback stand-in for a Stellar network behind Horizon, for tests of code that pays through
//! [`crate::horizon`] (the payout executor, the payment watcher).
//!
//! Unlike a scripted responder it keeps state the way the network does, so tests can check money
//! moved exactly once: accounts with sequence numbers, envelopes decoded and their signatures
//! checked, a transaction applied at most once (its sequence is then used), failed transactions
//! consuming their sequence, time bounds, and the payments each account received. Tests can make
//! the next submissions time out (504), with or without the transaction landing behind the timeout.

mod horizon_routes;
pub mod python_sdk;
mod state;

pub use state::{AppliedPayment, FakeStellar, SplitMix64};

use crate::stellar_decode::decode_payment;
use axum::http::StatusCode;
use horizon_routes::problem;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use state::Network;

use std::sync::{Arc, Mutex, MutexGuard};

/// A throwaway account (public key, secret seed) from fixed bytes, for a test to create.
pub fn keypair(byte: u8) -> (String, secrecy::SecretString) {
    let seed = stellar_strkey::ed25519::PrivateKey([byte; 32]).as_unredacted().to_string();
    let secret = secrecy::SecretString::from(seed.as_str().to_owned());
    (crate::stellar::account_of_secret(&secret).expect("any 32 bytes are an ed25519 seed"), secret)
}

impl FakeStellar {
    /// Starts the fake Horizon on a loopback port for the network with this passphrase.
    pub async fn start(passphrase: &str) -> Arc<FakeStellar> {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind the fake Horizon on 127.0.0.1");
        let url = format!("http://{}", listener.local_addr().expect("a bound address"));
        let fake = Arc::new(FakeStellar {
            passphrase: passphrase.to_owned(),
            url,
            network: Mutex::new(Network { ledger: 1000, elder: (1, 1_577_836_800), ..Network::default() }),
        });
        let router = horizon_routes::router(fake.clone());
        tokio::spawn(async move { axum::serve(listener, router).await.expect("the fake Horizon stopped") });
        fake
    }

    pub fn url(&self) -> &str {
        &self.url
    }

    fn net(&self) -> MutexGuard<'_, Network> {
        self.network.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Creates (funds) an account with this sequence number.
    pub fn create_account(&self, id: &str, sequence: i64) {
        self.net().accounts.insert(id.to_owned(), sequence);
    }

    /// Makes an existing account refuse credit assets (`op_no_trust`): it holds no trustline,
    /// so its account record lists none either.
    pub fn without_trustlines(&self, id: &str) {
        let mut net = self.net();
        net.untrusting.insert(id.to_owned());
        net.balances.retain(|(account, _, issuer), _| account != id || issuer.is_none());
    }

    /// Refuses credit assets sent to an account (`op_no_trust`) while its account record still
    /// lists its trustlines: a receiver who removes the asset between Lajan's check and the
    /// payment.
    pub fn untrust_after_check(&self, id: &str) {
        self.net().untrusting.insert(id.to_owned());
    }

    /// Gives an account a trustline for an asset, holding nothing yet (and lifts
    /// [`FakeStellar::without_trustlines`]): as a receiver who adds the asset in their wallet.
    pub fn trust(&self, id: &str, asset_code: &str, asset_issuer: &str) {
        let mut net = self.net();
        net.untrusting.remove(id);
        let key = (id.to_owned(), asset_code.to_owned(), Some(asset_issuer.to_owned()));
        net.balances.entry(key).or_insert(0);
    }

    /// Sets what an account holds of an asset (`None` issuer: XLM), in stroops.
    pub fn fund(&self, id: &str, asset_code: &str, asset_issuer: Option<&str>, stroops: i64) {
        let key = (id.to_owned(), asset_code.to_owned(), asset_issuer.map(str::to_owned));
        self.net().balances.insert(key, stroops);
    }

    pub fn sequence(&self, id: &str) -> Option<i64> {
        self.net().accounts.get(id).copied()
    }

    /// The next `n` submissions answer 504 Timeout; with `land`, each is applied first.
    pub fn time_out_next(&self, n: u32, land: bool) {
        let mut net = self.net();
        net.timeouts = n;
        net.land_behind_timeout = land;
    }

    /// The next submission is received (and applied first with `land`), then its answer, a 504,
    /// waits until the returned handle is notified.
    pub fn stall_next_submission(&self, land: bool) -> Arc<tokio::sync::Notify> {
        self.stall_submissions(1, land)
    }

    /// [`FakeStellar::stall_next_submission`] for the next `n` submissions.
    pub fn stall_submissions(&self, n: u32, land: bool) -> Arc<tokio::sync::Notify> {
        let release = Arc::new(tokio::sync::Notify::new());
        self.net().stall = Some((release.clone(), land, n));
        release
    }

    /// From now on ledgers close every `ms` (see `Network::close_every_ms`); before, every
    /// submission closes a ledger of its own at once.
    pub fn close_ledgers_every(self: &Arc<Self>, ms: u64) {
        self.net().close_every_ms = Some(ms);
        let fake = Arc::downgrade(self);
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(std::time::Duration::from_millis(ms)).await;
                let Some(fake) = fake.upgrade() else { return };
                fake.close_ledger();
            }
        });
    }

    /// Closes the open ledger: applies its transactions in one ledger and answers them.
    fn close_ledger(&self) {
        let mut net = self.net();
        let queued = std::mem::take(&mut net.open);
        if !queued.is_empty() {
            net.ledger += 1;
            let ledger = net.ledger;
            for (_, envelope, answer) in queued {
                let _ = answer.send(self.apply_in(&mut net, &envelope, Some(ledger)));
            }
        }
    }

    /// How many submissions were refused TRY_AGAIN_LATER: another transaction from their source
    /// was already queued.
    pub fn try_again_later(&self) -> u32 {
        self.net().try_again_later
    }

    /// The ledger each applied payment landed in, oldest first.
    pub fn payment_ledgers(&self) -> Vec<i64> {
        self.net().payments.iter().map(|p| p.ledger).collect()
    }

    /// The next `n` submissions are refused with transaction code `code` (e.g.
    /// `tx_insufficient_fee` under surge pricing), nothing applied; for `tx_bad_seq`, another
    /// transaction took the sequence number they were built on.
    pub fn refuse_next(&self, n: u32, code: &str) {
        self.net().refusals = Some((n, code.to_owned()));
    }

    /// From now on each submission meets a fault drawn from `seed`: answered normally, a 504
    /// after applying it, a 504 without, refused for its fee, or queued: applied or not after up
    /// to 1.5 s, then a 504. The same seed draws the same faults in the same order.
    pub fn start_chaos(&self, seed: u64) {
        self.net().chaos = Some(SplitMix64(seed));
    }

    /// Horizon answers every request 503 while `down`, and normally again once not.
    pub fn go_down(&self, down: bool) {
        self.net().down = down;
    }

    /// Every submission is answered normally again.
    pub fn stop_chaos(&self) {
        self.net().chaos = None;
    }

    /// Horizon drops its history before now: its oldest ledger is the current one.
    pub fn trim_history(&self) {
        let mut net = self.net();
        net.elder = (net.ledger, jiff::Timestamp::now().as_second());
    }

    /// Hashes of every submission received, resubmissions included.
    pub fn submissions(&self) -> Vec<String> {
        self.net().submissions.clone()
    }

    /// Every payment applied, oldest first.
    pub fn payments(&self) -> Vec<AppliedPayment> {
        self.net().payments.clone()
    }

    /// Someone outside pays `to` (an incoming payment for the watcher to find); returns the hash.
    pub fn pay(
        &self,
        from: &str,
        to: &str,
        asset: (&str, Option<&str>),
        amount_stroops: i64,
        memo: Option<&str>,
    ) -> String {
        let mut net = self.net();
        net.ledger += 1;
        let hash =
            lajan_domain::hex::encode(&Sha256::digest(format!("external {} {from} {to} {amount_stroops}", net.ledger)));
        let ledger = net.ledger;
        net.transactions.insert(hash.clone(), (ledger, None));
        let paging_token = next_token(&net);
        net.payments.push(AppliedPayment {
            paging_token,
            ledger,
            tx_hash: hash.clone(),
            from: from.to_owned(),
            to: to.to_owned(),
            asset_code: asset.0.to_owned(),
            asset_issuer: asset.1.map(str::to_owned),
            amount_stroops,
            memo: memo.map(|text| lajan_domain::stellar_memo::StellarMemo::Text(text.to_owned())),
        });
        hash
    }

    /// A submission whose answer is lost: applied when `land`, else only recorded.
    fn receive_unanswered(&self, net: &mut Network, envelope: &str, land: bool) {
        if land {
            self.apply(net, envelope);
        } else if let Ok(tx) = decode_payment(envelope, &self.passphrase) {
            net.submissions.push(tx.hash_hex);
        }
    }

    /// Applies an envelope the way stellar-core would, in a ledger of its own, answering
    /// Horizon's status and body.
    fn apply(&self, net: &mut Network, envelope: &str) -> (StatusCode, Value) {
        self.apply_in(net, envelope, None)
    }

    /// [`FakeStellar::apply`] in `ledger` (the closing one) when given.
    fn apply_in(&self, net: &mut Network, envelope: &str, ledger: Option<i64>) -> (StatusCode, Value) {
        let Ok(tx) = decode_payment(envelope, &self.passphrase) else {
            return problem(400, "transaction_malformed", "Transaction Malformed", None);
        };
        net.submissions.push(tx.hash_hex.clone());
        let now = jiff::Timestamp::now().as_second().max(0).unsigned_abs();
        let refuse = |code: &str, ops: &[&str]| {
            let mut codes = json!({ "transaction": code });
            if !ops.is_empty() {
                codes["operations"] = json!(ops);
            }
            problem(400, "transaction_failed", "Transaction Failed", Some(codes))
        };
        if tx.max_time != 0 && now > tx.max_time {
            return refuse("tx_too_late", &[]);
        }
        if let Some((n, code)) = net.refusals.take() {
            if n > 1 {
                net.refusals = Some((n - 1, code.clone()));
            }
            if code == "tx_bad_seq" {
                // Another transaction (someone else's) took this one's sequence number.
                let taken = net.accounts.get(&tx.source_account).map_or(tx.sequence, |&s| s.max(tx.sequence));
                net.accounts.insert(tx.source_account.clone(), taken);
            }
            return refuse(&code, &[]);
        }
        let Some(&current) = net.accounts.get(&tx.source_account) else {
            return refuse("tx_no_source_account", &[]);
        };
        if tx.sequence != current + 1 {
            return refuse("tx_bad_seq", &[]);
        }
        // The source signs for its sequence and fee, the payer (a channel's distribution
        // account) for the payment.
        if !tx.signed_by_source || !tx.signed_by_payer {
            return refuse("tx_bad_auth", &[]);
        }
        // From here the transaction is in a ledger: its sequence is used even if it fails.
        net.accounts.insert(tx.source_account.clone(), tx.sequence);
        let ledger = ledger.unwrap_or_else(|| {
            net.ledger += 1;
            net.ledger
        });
        let op_error = if !net.accounts.contains_key(&tx.destination) {
            Some("op_no_destination")
        } else if tx.asset_code != "XLM" && net.untrusting.contains(&tx.destination) {
            Some("op_no_trust")
        } else {
            None
        };
        if let Some(op) = op_error {
            net.transactions.insert(tx.hash_hex.clone(), (ledger, Some(op)));
            return refuse("tx_failed", &[op]);
        }
        net.transactions.insert(tx.hash_hex.clone(), (ledger, None));
        let paging_token = next_token(net);
        net.payments.push(AppliedPayment {
            paging_token,
            ledger,
            tx_hash: tx.hash_hex.clone(),
            from: tx.payer,
            to: tx.destination,
            asset_code: tx.asset_code,
            asset_issuer: tx.asset_issuer,
            amount_stroops: tx.amount_stroops,
            memo: tx.memo,
        });
        (StatusCode::OK, json!({ "hash": tx.hash_hex, "ledger": ledger, "successful": true, "envelope_xdr": envelope }))
    }
}

fn next_token(net: &Network) -> u64 {
    net.payments.last().map_or(1, |p| p.paging_token + 1)
}
