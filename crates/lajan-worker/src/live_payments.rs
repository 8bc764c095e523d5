//! The live payment watcher: reads the payments Horizon lists to the live receiving account,
//! records each that pays a live payment intent, and applies them through the same use case as
//! sandbox payments.

use crate::Workers;
use lajan_domain::Timestamp;
use lajan_domain::asset::NATIVE;
use lajan_domain::id::IdKind;
use lajan_domain::payment::IncomingPayment;
use lajan_ledger::horizon::PaymentRecord;
use lajan_store::StoreResult;

/// Payments read from Horizon per request (its maximum).
const LIVE_PAGE: u32 = 200;

impl Workers {
    /// Reads the payments after the saved cursor, records each that pays a live payment intent
    /// (by its text memo, in the intent's currency from its configured issuer), applies them, and
    /// saves the cursor. Recording is idempotent by transaction hash, so a crash before the cursor
    /// is saved records nothing twice. Returns how many payments it recorded; Horizon being
    /// unreachable is logged and retried next time.
    pub async fn watch_live_payments_once(&self) -> StoreResult<usize> {
        let Some(live) = self.services.live_ledger() else { return Ok(0) };
        let store = &self.services.store;
        let account = live.receiving_account();
        let name = format!("live:payments:{account}");
        let mut cursor = store.ledger_cursor(&name).await?;
        let mut recorded = 0;
        loop {
            let page = match live.horizon().payments(account, cursor.as_deref(), LIVE_PAGE).await {
                Ok(page) => page,
                Err(e) => {
                    tracing::warn!(error = %e, "cannot read live payments from Horizon");
                    break;
                }
            };
            for record in &page {
                if let Some(payment) = self.live_incoming(account, record).await?
                    && store.record_incoming_payment(&payment).await?
                {
                    recorded += 1;
                }
            }
            let Some(last) = page.last() else { break };
            store.save_ledger_cursor(&name, &last.paging_token, Timestamp::now()).await?;
            cursor = Some(last.paging_token.clone());
            if page.len() < LIVE_PAGE as usize {
                break;
            }
        }
        if recorded > 0 {
            self.services.apply_pending_payments().await?;
        }
        Ok(recorded)
    }

    /// The incoming payment a Horizon record stands for, when it pays one of our live intents.
    async fn live_incoming(&self, account: &str, r: &PaymentRecord) -> StoreResult<Option<IncomingPayment>> {
        const RECEIVED: [&str; 3] = ["payment", "path_payment_strict_receive", "path_payment_strict_send"];
        if !RECEIVED.contains(&r.kind.as_str()) || !r.transaction_successful || r.to != account {
            return Ok(None);
        }
        let text_memo = r.transaction.as_ref().filter(|t| t.memo_type == "text");
        let Some((ledger_seq, memo)) = text_memo.and_then(|t| t.memo.clone().map(|m| (t.ledger, m))) else {
            tracing::info!(tx_hash = %r.transaction_hash, "live payment without a text memo: not matched");
            return Ok(None);
        };
        let asset_code = match (r.asset_type.as_str(), &r.asset_code) {
            ("native", _) => NATIVE.to_owned(),
            (_, Some(code)) => code.clone(),
            _ => return Ok(None),
        };
        // Anyone can issue a token called USDC; only the configured issuer's counts.
        let issuers = &self.services.config.live_asset_issuers;
        if asset_code != NATIVE && issuers.get(&asset_code) != r.asset_issuer.as_ref() {
            tracing::warn!(tx_hash = %r.transaction_hash, %asset_code, issuer = ?r.asset_issuer, "live payment in an asset from an unconfigured issuer: not matched");
            return Ok(None);
        }
        // Seven decimal places on the network, cents here: a fraction of a cent is not credited.
        let Ok(stroops) = lajan_domain::money::parse_scaled(&r.amount, 7) else {
            tracing::warn!(tx_hash = %r.transaction_hash, amount = %r.amount, "live payment amount does not parse");
            return Ok(None);
        };
        let Some(tenant) = self.services.store.tenant_of_reference(&memo).await?.filter(|t| t.env.is_live()) else {
            tracing::info!(tx_hash = %r.transaction_hash, %memo, "live payment whose memo is no live payment intent's");
            return Ok(None);
        };
        Ok(Some(IncomingPayment {
            id: IdKind::LedgerPayment.generate(),
            org_id: tenant.org_id,
            env: tenant.env,
            ledger_seq,
            tx_hash: r.transaction_hash.clone(),
            source_account: r.from.clone(),
            destination_account: r.to.clone(),
            asset_code,
            amount: stroops / 100_000,
            memo: Some(memo),
            created_at: Timestamp::now(),
            payment_intent_id: None,
            processed_at: None,
        }))
    }
}
