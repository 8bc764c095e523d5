//! Signals from the use cases to the workers of the same process: work was just queued, look now
//! rather than at the next poll. Workers in other processes find the work by polling.

use tokio::sync::Notify;

#[derive(Debug, Default)]
pub struct Nudges {
    payouts: Notify,
    messages: Notify,
    deliveries: Notify,
}

impl Nudges {
    /// Payouts may be due for execution (one was created, approved or retried).
    pub fn payouts_due(&self) {
        self.payouts.notify_one();
    }

    /// Messages were queued for delivery.
    pub fn messages_queued(&self) {
        self.messages.notify_one();
    }

    /// A payout was approved for a receiver without a wallet: their invitation to register is
    /// due now, not at the next poll.
    pub fn invitations_due(&self) {
        self.messages.notify_one();
    }

    /// Webhook deliveries were queued outside an event's fan-out (a test event, a retry).
    pub fn deliveries_due(&self) {
        self.deliveries.notify_one();
    }

    pub async fn payouts_nudged(&self) {
        self.payouts.notified().await;
    }

    pub async fn messages_nudged(&self) {
        self.messages.notified().await;
    }

    pub async fn deliveries_nudged(&self) {
        self.deliveries.notified().await;
    }
}
