//! Which source account a live payout's new transaction takes (a channel account, or without
//! channels the distribution account): one that no unsettled attempt holds (in any process: the
//! store says, so after a crash the attempts left unsettled still hold theirs), that no
//! transaction being built in this process is taking, and that this executor reserved in the
//! store before reading its sequence, so no two executors of any process build on one sequence.

use lajan_domain::Timestamp;
use lajan_ledger::Ledger;
use lajan_store::{Store, StoreResult};
use std::collections::HashSet;
use std::sync::{Arc, Mutex};

/// The sources this process is paying through, from their pick until the outcome of the
/// attempt that holds them is recorded: the store's answer alone could be read just before such
/// an attempt is stored.
#[derive(Default)]
pub struct Channels {
    building: Mutex<HashSet<String>>,
}

/// What a payout's new transaction takes as its source.
pub enum Pick<'a> {
    /// The ledger orders its own submissions (the sandbox): nothing to reserve.
    NotNeeded,
    /// Every source is held, one at least by an attempt no executor is working on (an unknown
    /// outcome waiting to be resubmitted, a dead process's): the payout waits a little and the
    /// step goes on, to the holding payout when it is due.
    Held,
    /// Every source is being built on by an executor (of this process or another): the payout
    /// is due again at once, for that executor, and this step ends.
    Busy,
    /// This channel, taken until the value is dropped (once its attempt's outcome is recorded,
    /// or nothing was stored).
    Channel(Taken<'a>),
}

/// A source taken for one transaction, in this process and reserved in the store in a name of
/// its own (so a release, however late, ends this reservation and no later one).
pub struct Taken<'a> {
    channels: &'a Channels,
    pub account: String,
    store: Arc<dyn Store>,
    holder: String,
    released: bool,
}

impl Taken<'_> {
    /// Gives the source back once the attempt's outcome is recorded, before the next pick.
    pub async fn release(mut self) {
        self.released = true;
        self.channels.building().remove(&self.account);
        if let Err(e) = self.store.release_source(&self.account, &self.holder).await {
            tracing::warn!(account = %self.account, error = %e, "a source account's reservation could not be released; it lapses");
        }
    }
}

impl Drop for Taken<'_> {
    /// A step that ended early (nothing stored, or cancelled): released in the background, and
    /// the reservation lapses by itself if even that is lost (the process stops first).
    fn drop(&mut self) {
        if self.released {
            return;
        }
        self.channels.building().remove(&self.account);
        let (store, account, holder) = (self.store.clone(), self.account.clone(), self.holder.clone());
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move {
                if let Err(e) = store.release_source(&account, &holder).await {
                    tracing::warn!(%account, error = %e, "a source account's reservation could not be released; it lapses");
                }
            });
        }
    }
}

impl Channels {
    fn building(&self) -> std::sync::MutexGuard<'_, HashSet<String>> {
        self.building.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A free source of `ledger` reserved until `until`, `preferred` (the payout's last
    /// transaction's) first: where that transaction's sequence is unused, the new one takes it
    /// again.
    pub async fn pick(
        &self,
        store: &Arc<dyn Store>,
        ledger: &dyn Ledger,
        preferred: Option<&str>,
        (now, until): (Timestamp, Timestamp),
    ) -> StoreResult<Pick<'_>> {
        let holder = lajan_domain::id::IdKind::Lease.generate();
        let sources = ledger.sources();
        if sources.is_empty() {
            return Ok(Pick::NotNeeded);
        }
        let held: HashSet<String> = store.channels_held().await?.into_iter().collect();
        let candidates: Vec<String> = {
            let building = self.building();
            let free = |c: &str| !held.contains(c) && !building.contains(c);
            let first = preferred.filter(|c| sources.iter().any(|k| k == c) && free(c)).map(str::to_owned);
            first
                .into_iter()
                .chain(sources.iter().filter(|c| free(c) && Some(c.as_str()) != preferred).cloned())
                .collect()
        };
        for account in candidates {
            // Taken in this process first, so no other step of it reserves the same one meanwhile.
            if !self.building().insert(account.clone()) {
                continue;
            }
            match store.reserve_source(&account, &holder, now, until).await {
                Ok(true) => {
                    let store = store.clone();
                    return Ok(Pick::Channel(Taken { channels: self, account, store, holder, released: false }));
                }
                // Another process's executor is building on it.
                Ok(false) => {
                    self.building().remove(&account);
                }
                Err(e) => {
                    self.building().remove(&account);
                    return Err(e);
                }
            }
        }
        let reserved: HashSet<String> = store.reserved_sources(now).await?.into_iter().collect();
        let building = self.building();
        let waiting = sources.iter().any(|s| held.contains(s) && !reserved.contains(s) && !building.contains(s));
        Ok(if waiting { Pick::Held } else { Pick::Busy })
    }
}
