//! Invoice use cases that are not a request's: the overdue rule, applied by the overdue job.

use crate::Services;
use crate::events::invoice_event;
use lajan_domain::Timestamp;
use lajan_domain::invoice::InvoiceAction;
use lajan_store::{StoreError, StoreResult};

impl Services {
    /// Sent and viewed invoices whose due date has passed in their organization's timezone
    /// become overdue. Safe to run in several processes at once: the transition re-checks the
    /// status under a row lock, so each invoice moves (and emits) once. Returns how many moved.
    pub async fn mark_overdue(&self, now: Timestamp) -> StoreResult<usize> {
        // A date that has passed anywhere on Earth is at most today's UTC date.
        let today_utc = jiff::Timestamp::from_millisecond(now.as_millis())
            .map(|t| t.to_zoned(jiff::tz::TimeZone::UTC).date().to_string())
            .map_err(|e| StoreError::Corrupt(e.to_string()))?;
        let public_url = self.config.public_url.as_str();
        let event = |d: &_| invoice_event("invoice.overdue", d, public_url);
        let mut moved = 0;
        for (tenant, id, due, tz) in self.store.overdue_candidates(&today_utc, 1000).await? {
            if !due.has_passed(now, &tz) {
                continue;
            }
            match self.store.invoice_action(&tenant, &id, InvoiceAction::MarkOverdue, now, None, &event, None).await {
                Ok((_, true)) => moved += 1,
                Ok((_, false)) | Err(StoreError::NotFound) => {}
                Err(e) => return Err(e),
            }
        }
        Ok(moved)
    }
}
