//! Payment reminders and receipts, the notice workers' use cases: each invoice whose next
//! reminder is due is reminded in the client's language on the organization's channels, at
//! most once per (invoice, instalment, offset), and never once what it would remind of is paid;
//! each payment counted gets one short receipt with what is left, when the organization sends them.

use crate::events::{message_event, reminder_event};
use crate::messages::{receipt_messages, reminder_messages};
use crate::sandbox::sandbox_only;
use crate::{ServiceError, ServiceResult, Services};
use lajan_domain::invoice::InvoiceDetail;
use lajan_domain::invoice_payment::InvoicePayment;
use lajan_domain::reminder::{ReminderKey, reminders_at};
use lajan_domain::{Tenant, Timestamp};
use lajan_store::StoreResult;
use lajan_store::reminders::{ReminderBatch, Reminding, SentReminder};

/// How long a claimed invoice is left to the worker that claimed it.
const CLAIM_LEASE_MS: i64 = 120_000;
const CLAIM_SIZE: i64 = 100;

impl Services {
    /// Sends every reminder due by `now`; how many.
    pub async fn send_due_reminders(&self, now: Timestamp) -> StoreResult<usize> {
        let due = self.store.claim_reminders(now, CLAIM_LEASE_MS, CLAIM_SIZE).await?;
        let mut sent = 0;
        for (tenant, id) in &due {
            sent += self.remind(tenant, id, now).await?.len();
        }
        if sent > 0 {
            self.nudges.messages_queued();
        }
        Ok(sent)
    }

    /// Sends every payment receipt due by `now`; how many messages.
    pub async fn send_due_receipts(&self, now: Timestamp) -> StoreResult<usize> {
        let due = self.store.claim_receipts(now, CLAIM_LEASE_MS, CLAIM_SIZE).await?;
        let mut sent = 0;
        for (tenant, id) in &due {
            let settings = self.store.get_settings(tenant).await?;
            let organization = self.organization_name(tenant).await?;
            let on = settings.invoicing.payment_receipts;
            let render = |d: &InvoiceDetail, p: &InvoicePayment, left: i64| {
                if on { receipt_messages(d, p, left, &organization) } else { Vec::new() }
            };
            sent += self.store.send_receipt(tenant, id, now, &render, &message_event).await?.len();
        }
        if sent > 0 {
            self.nudges.messages_queued();
        }
        Ok(sent)
    }

    /// A sandbox invoice's reminders as if it were `at` (the invoice's test clock): what its
    /// schedule sends then, recorded and queued as the worker would. Sandbox keys only.
    pub async fn remind_sandbox_invoice(
        &self,
        tenant: &Tenant,
        id: &str,
        at: Timestamp,
    ) -> ServiceResult<Vec<SentReminder>> {
        sandbox_only(tenant)?;
        let sent = self.remind(tenant, id, at).await.map_err(ServiceError::not_found_as("invoice"))?;
        if !sent.is_empty() {
            self.nudges.messages_queued();
        }
        Ok(sent)
    }

    /// Reminds invoice `id` of what is due at `now`, deciding inside the store's transaction
    /// from the invoice as it then stands.
    async fn remind(&self, tenant: &Tenant, id: &str, now: Timestamp) -> StoreResult<Vec<SentReminder>> {
        let settings = self.store.get_settings(tenant).await?;
        let organization = self.organization_name(tenant).await?;
        let public_url = self.config.public_url.as_str();
        let schedule = &settings.invoicing.reminders;
        let plan = |d: &InvoiceDetail, sent: &[ReminderKey]| {
            let run = reminders_at(&d.invoice, schedule, &settings.timezone, sent, now);
            let sends = run
                .due
                .into_iter()
                .map(|r| {
                    let messages = if d.client.reminders_enabled {
                        reminder_messages(d, &r, &organization, public_url, &schedule.channels)
                    } else {
                        Vec::new()
                    };
                    (r, messages)
                })
                .collect();
            ReminderBatch { sends, next_at: run.next_at }
        };
        let event = |d: &InvoiceDetail, s: &SentReminder| reminder_event(d, s, public_url);
        let reminding = Reminding { plan: &plan, event: &event, message_event: &message_event };
        self.store.remind_invoice(tenant, id, &reminding).await
    }
}
