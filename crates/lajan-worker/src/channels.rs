//! Which channel account a live payout's new transaction takes: one that no unsettled attempt
//! holds (in any process: the store says, so after a crash the attempts left unsettled still
//! hold theirs) and that no transaction being built in this process is taking.

use lajan_ledger::Ledger;
use lajan_store::{Store, StoreResult};
use std::collections::HashSet;
use std::sync::Mutex;

/// The channels this process is paying through, from their pick until the outcome of the
/// attempt that holds them is recorded: the store's answer alone could be read just before such
/// an attempt is stored.
#[derive(Default)]
pub struct Channels {
    building: Mutex<HashSet<String>>,
}

/// What a payout's new transaction takes as its source.
pub enum Pick<'a> {
    /// The ledger has no channel accounts: the paying account is the source.
    NotNeeded,
    /// Every channel is held: the payout waits a little.
    Busy,
    /// This channel, taken until the value is dropped (once its attempt's outcome is recorded,
    /// or nothing was stored).
    Channel(Taken<'a>),
}

/// A channel taken for one transaction, in this process.
pub struct Taken<'a> {
    channels: &'a Channels,
    pub account: String,
}

impl Drop for Taken<'_> {
    fn drop(&mut self) {
        self.channels.building().remove(&self.account);
    }
}

impl Channels {
    fn building(&self) -> std::sync::MutexGuard<'_, HashSet<String>> {
        self.building.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A free channel of `ledger`, `preferred` (the payout's last transaction's) when it is free:
    /// where that transaction's sequence is unused, the new one takes it again.
    pub async fn pick(&self, store: &dyn Store, ledger: &dyn Ledger, preferred: Option<&str>) -> StoreResult<Pick<'_>> {
        let channels = ledger.channels();
        if channels.is_empty() {
            return Ok(Pick::NotNeeded);
        }
        let held: HashSet<String> = store.channels_held().await?.into_iter().collect();
        let mut building = self.building();
        let free = |c: &str| !held.contains(c) && !building.contains(c);
        let pick = preferred.filter(|c| channels.iter().any(|k| k == c) && free(c)).map(str::to_owned);
        let Some(account) = pick.or_else(|| channels.iter().find(|c| free(c)).cloned()) else { return Ok(Pick::Busy) };
        building.insert(account.clone());
        Ok(Pick::Channel(Taken { channels: self, account }))
    }
}
