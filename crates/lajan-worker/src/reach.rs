//! The check before a payout's transaction is built: its destination exists and trusts the
//! asset, or the payout is held (`payout.held`) and checked again, and fails with the network's
//! code once it has been held for its organization's registration window. Nothing is signed,
//! and no fee paid, for a payment the network would refuse.

use crate::Workers;
use lajan_domain::Timestamp;
use lajan_domain::payout::{AttemptResult, Hold, PayoutDetail};
use lajan_ledger::{Ledger, LedgerFault, Reach};
use lajan_services::events::payout_event;
use lajan_store::payouts::NewAttempt;
use lajan_store::{Change, NewEvent, StoreResult};

/// Whether a payout may be built now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Reachable {
    Yes,
    /// Held until the next check, or failed for good: the payout's turn is over.
    No,
    /// The network could not be asked; the reason.
    Unknown(String),
}

fn held_event(d: &PayoutDetail) -> NewEvent {
    NewEvent { event_type: "payout.held", ..payout_event(d) }
}

impl Workers {
    /// Whether `d`'s destination can take its payment now (asked of `ledger`). When it cannot,
    /// the payout `lease` holds is held until the next check (with `payout.held` the first time),
    /// or fails with the network's code once held for the registration window.
    pub(crate) async fn check_reach(
        &self,
        ledger: &dyn Ledger,
        d: &PayoutDetail,
        lease: &str,
    ) -> StoreResult<Reachable> {
        let p = &d.payout;
        // A payout without a wallet is never queued; the build refuses it with its reason.
        let Some(destination) = &p.wallet_account_id else { return Ok(Reachable::Yes) };
        let asset = (p.asset_code.as_str().to_owned(), p.asset_issuer.as_ref().map(|i| i.as_str().to_owned()));
        let now = Timestamp::now();
        let hold = match ledger.reach(destination.as_str(), &[asset]).await {
            Ok(Reach::Ready) => return Ok(Reachable::Yes),
            Ok(Reach::NoAccount) => Hold::unreachable(true, p.asset_code.as_str(), now),
            Ok(Reach::NoTrustline(code)) => Hold::unreachable(false, &code, now),
            Err(LedgerFault::Store(e)) => return Err(e),
            Err(LedgerFault::Unavailable(reason) | LedgerFault::Invalid(reason)) => {
                return Ok(Reachable::Unknown(reason));
            }
        };
        let store = &self.services.store;
        let window = store.get_settings(&d.tenant).await?.receivers.registration_window_days;
        if d.hold.as_ref().is_some_and(|h| h.expired(window, now)) {
            tracing::warn!(payout = %p.id, code = %hold.code, "payout failed: its destination could not take it for the whole registration window");
            // Failed as the network would have refused it, on an attempt that built nothing.
            if let Some(attempt) = store.start_attempt(&p.id, lease, NewAttempt::NOTHING_SENT, now).await? {
                let failed = AttemptResult::Failed { code: hold.code, message: hold.message };
                store
                    .finish_attempt(&p.id, &attempt.id, lease, &failed, Change::unkeyed(&d.tenant, now, &payout_event))
                    .await?;
            }
        } else {
            tracing::info!(payout = %p.id, code = %hold.code, "payout held: its destination cannot take it yet");
            let recheck_at = now.plus_millis(self.config.unreachable_recheck_ms);
            store.hold_unreachable_payout(&d.tenant, &p.id, lease, &hold, recheck_at, &held_event).await?;
        }
        Ok(Reachable::No)
    }
}
