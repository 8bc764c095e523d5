//! Payments in: applying the payments recorded on a ledger to their payment intents (the
//! invoice or link is paid, with its event), and the sandbox's simulated customer payment.

use crate::events::PaidEventMakers;
use crate::{ServiceError, ServiceResult, Services, failpoint};
use lajan_domain::id::IdKind;
use lajan_domain::invoice::InvoiceStatus;
use lajan_domain::payment::{IncomingPayment, IntentStatus, PaymentIntent};
use lajan_domain::{Invalid, Timestamp};
use lajan_ledger::sandbox;
use lajan_store::StoreResult;
use lajan_store::incoming_payments::{IntentTarget, PaymentApplied};
use sha2::{Digest, Sha256};

/// Payments applied per store read.
const BATCH: i64 = 100;

/// Why a customer cannot pay an intent now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PayRefusal {
    AlreadyPaid,
    LinkExpired,
    LinkInactive,
    InvoiceVoided,
    InvoiceNotIssued,
    InvoicePaid,
}

impl PayRefusal {
    /// What the API says.
    pub const fn message(self) -> &'static str {
        match self {
            PayRefusal::AlreadyPaid => "This has already been paid.",
            PayRefusal::LinkExpired => "This payment link has expired.",
            PayRefusal::LinkInactive => "This payment link is no longer active.",
            PayRefusal::InvoiceVoided => "This invoice was voided.",
            PayRefusal::InvoiceNotIssued => "This invoice has not been issued yet.",
            PayRefusal::InvoicePaid => "This invoice has already been paid.",
        }
    }

    /// A name for it, for the payment page's catalogue (`pay-refusal-<name>`).
    pub const fn name(self) -> &'static str {
        match self {
            PayRefusal::AlreadyPaid => "already-paid",
            PayRefusal::LinkExpired => "link-expired",
            PayRefusal::LinkInactive => "link-inactive",
            PayRefusal::InvoiceVoided => "invoice-voided",
            PayRefusal::InvoiceNotIssued => "invoice-not-issued",
            PayRefusal::InvoicePaid => "invoice-paid",
        }
    }
}

/// Why a customer cannot pay this intent now, if they cannot.
pub fn refusal(intent: &PaymentIntent, target: &IntentTarget, now: Timestamp) -> Option<PayRefusal> {
    match intent.effective_status(now) {
        IntentStatus::Paid => return Some(PayRefusal::AlreadyPaid),
        IntentStatus::Expired => return Some(PayRefusal::LinkExpired),
        IntentStatus::Inactive if intent.invoice_id.is_some() => return Some(PayRefusal::InvoiceVoided),
        IntentStatus::Inactive => return Some(PayRefusal::LinkInactive),
        IntentStatus::Active => {}
    }
    match target {
        IntentTarget::Invoice(d) if !d.invoice.status.is_payable() => Some(match d.invoice.status {
            InvoiceStatus::Draft => PayRefusal::InvoiceNotIssued,
            InvoiceStatus::Void => PayRefusal::InvoiceVoided,
            _ => PayRefusal::InvoicePaid,
        }),
        _ => None,
    }
}

impl Services {
    /// Applies every payment recorded on a ledger and not yet processed. Returns how many it
    /// processed. The payment watcher runs this; so does a simulated payment, at once.
    pub async fn apply_pending_payments(&self) -> StoreResult<usize> {
        let makers = PaidEventMakers::new(&self.config.public_url);
        let events = makers.events();
        let mut processed = 0;
        loop {
            let pending = self.store.pending_incoming_payments(BATCH).await?;
            if pending.is_empty() {
                return Ok(processed);
            }
            for payment in &pending {
                let outcome = self.store.apply_incoming_payment(&payment.id, Timestamp::now(), &events).await?;
                match outcome {
                    PaymentApplied::Unmatched => {
                        tracing::warn!(payment = %payment.id, tx_hash = %payment.tx_hash, "incoming payment matches no payment intent");
                    }
                    PaymentApplied::TooLarge { intent_id } => {
                        tracing::error!(payment = %payment.id, tx_hash = %payment.tx_hash, intent = %intent_id, "incoming payment would take the intent's received total past the largest amount: kept unmatched for reconciliation");
                    }
                    PaymentApplied::Matched { .. } | PaymentApplied::AlreadyProcessed => {}
                }
                processed += 1;
            }
        }
    }

    /// Records a simulated customer payment on the sandbox ledger and applies it, exactly as
    /// payments seen on the live network are applied. A simulated transaction's hash is the
    /// SHA-256 of its envelope; with `resubmit` (derived from a request's `Idempotency-Key`) it
    /// is that value instead, so a retry submits the identical transaction, which the ledger
    /// records once, as Stellar does with a resubmitted envelope.
    pub async fn simulate_payment(
        &self,
        intent: &PaymentIntent,
        target: &IntentTarget,
        amount: Option<i64>,
        resubmit: Option<String>,
    ) -> ServiceResult<IncomingPayment> {
        if intent.env.is_live() {
            return Err(ServiceError::Forbidden("Only sandbox payments can be simulated"));
        }
        if let Some(hash) = &resubmit {
            // Already applied before a crash: the intent may be paid now, but this is the same payment.
            let applied = self.store.incoming_payments_for_intent(&intent.id).await?;
            if let Some(earlier) = applied.into_iter().find(|p| &p.tx_hash == hash) {
                return Ok(earlier);
            }
        }
        if let Some(reason) = refusal(intent, target, Timestamp::now()) {
            return Err(Invalid::new("cannot_pay", reason.message()).into());
        }
        let due = intent.amount - intent.amount_received;
        let amount = amount.unwrap_or(if due > 0 { due } else { intent.amount });
        let source = sandbox::customer_account();
        let destination = sandbox::receiving_account(&intent.org_id);
        let id = IdKind::LedgerPayment.generate();
        let tx_hash = resubmit.unwrap_or_else(|| {
            let envelope = format!(
                "{{\"id\":\"{id}\",\"source\":\"{source}\",\"destination\":\"{destination}\",\"asset\":\"{}\",\"amount\":{amount},\"memo\":\"{}\"}}",
                intent.currency.code(),
                intent.reference
            );
            lajan_domain::hex::encode(&Sha256::digest(envelope.as_bytes()))
        });
        let payment = IncomingPayment {
            id,
            org_id: intent.org_id.clone(),
            env: intent.env,
            ledger_seq: 0,
            tx_hash,
            source_account: source,
            destination_account: destination,
            asset_code: intent.currency.code().to_owned(),
            amount,
            memo: Some(intent.reference.clone()),
            created_at: Timestamp::now(),
            payment_intent_id: None,
            processed_at: None,
        };
        let close_ms = self.sandbox_ledger().close_ms();
        let (recorded, closes_at) = self.store.record_sandbox_payment(&payment, close_ms).await?;
        failpoint::hit("sandbox.after_record").await;
        // As a wallet does, the payer hears back once the ledger holding the payment has closed.
        sandbox::wait_until(closes_at).await;
        self.apply_pending_payments().await?;
        Ok(recorded)
    }
}
