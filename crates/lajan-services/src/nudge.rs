//! Signals from the use cases to the workers of the same process: work was just queued, look now
//! rather than at the next poll. Workers in other processes find the work by polling.

use tokio::sync::Notify;

#[derive(Debug, Default)]
pub struct Nudges {
    payouts: Notify,
    messages: Notify,
}

impl Nudges {
    /// A payout became approved.
    pub fn payouts(&self) {
        self.payouts.notify_one();
    }

    /// Messages were queued.
    pub fn messages(&self) {
        self.messages.notify_one();
    }

    pub async fn payouts_nudged(&self) {
        self.payouts.notified().await;
    }

    pub async fn messages_nudged(&self) {
        self.messages.notified().await;
    }
}
