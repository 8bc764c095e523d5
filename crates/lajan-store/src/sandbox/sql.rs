// The sandbox ledger, for both backends; included after `shared.rs` and
// `incoming_payments/sql.rs` (a payment recorded on it is an incoming payment).

use crate::sandbox::{SANDBOX_OPENING_BALANCE, SandboxPayment, SandboxStore, SandboxSubmit};
use lajan_domain::asset::ASSETS;

/// The sandbox ledger a transaction submitted at `now` lands in, and when that ledger closes.
/// Ledgers close every `close_ms` whether or not they hold anything, so sequence numbers rise
/// with time as on Stellar, and everything submitted within one interval shares a ledger.
async fn open_sandbox_ledger(tx: &mut Tx, env: &str, now: i64, close_ms: i64) -> StoreResult<(i64, Timestamp)> {
    query(
        "INSERT INTO sandbox_ledger (env, last_seq, closed_at) VALUES ($1, 1, $2) ON CONFLICT (env) DO NOTHING",
    )
    .bind(env)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    let row = query(concat!("SELECT last_seq, closed_at FROM sandbox_ledger WHERE env = $1", for_update!()))
        .bind(env)
        .fetch_one(&mut **tx)
        .await?;
    let (mut last, mut closed): (i64, i64) = (row.try_get("last_seq")?, row.try_get("closed_at")?);
    let close_ms = close_ms.max(1);
    if closed == 0 {
        // A ledger from before ledgers closed on a clock: start the clock now rather than jump.
        closed = now;
    }
    if now >= closed + close_ms {
        let closed_since = (now - closed) / close_ms;
        last += closed_since;
        closed += closed_since * close_ms;
    }
    query("UPDATE sandbox_ledger SET last_seq = $1, closed_at = $2 WHERE env = $3")
        .bind(last)
        .bind(closed)
        .bind(env)
        .execute(&mut **tx)
        .await?;
    Ok((last + 1, ts(closed + close_ms)))
}

/// The organization's sandbox balances by asset code (fund them first: `ensure_sandbox_balances`).
async fn read_sandbox_balances(tx: &mut Tx, tenant: &Tenant) -> StoreResult<Vec<(String, i64)>> {
    let rows = query("SELECT asset_code, balance FROM sandbox_balances WHERE org_id = $1 ORDER BY asset_code")
        .bind(&tenant.org_id)
        .fetch_all(&mut **tx)
        .await?;
    rows.iter().map(|r| Ok((r.try_get("asset_code")?, r.try_get("balance")?))).collect()
}

/// One sandbox balance, locked for the change about to be made to it (0 for an asset the
/// account does not hold).
async fn lock_sandbox_balance(tx: &mut Tx, tenant: &Tenant, asset_code: &str) -> StoreResult<i64> {
    ensure_sandbox_balances(tx, tenant).await?;
    let balance: Option<i64> = query_scalar(concat!(
        "SELECT balance FROM sandbox_balances WHERE org_id = $1 AND asset_code = $2",
        for_update!()
    ))
    .bind(&tenant.org_id)
    .bind(asset_code)
    .fetch_optional(&mut **tx)
    .await?;
    Ok(balance.unwrap_or(0))
}

async fn ensure_sandbox_balances(tx: &mut Tx, tenant: &Tenant) -> StoreResult<()> {
    for asset in ASSETS.iter().map(|a| a.code) {
        query(
            "INSERT INTO sandbox_balances (org_id, asset_code, balance) VALUES ($1, $2, $3)
             ON CONFLICT (org_id, asset_code) DO NOTHING",
        )
        .bind(&tenant.org_id)
        .bind(asset)
        .bind(SANDBOX_OPENING_BALANCE)
        .execute(&mut **tx)
        .await?;
    }
    Ok(())
}

#[async_trait]
impl SandboxStore for ThisStore {
    async fn sandbox_submit(
        &self,
        payments: &[SandboxPayment<'_>],
        at: Timestamp,
        close_ms: i64,
    ) -> StoreResult<Vec<SandboxSubmit>> {
        let mut tx = self.begin_write().await?;
        let mut seen: HashMap<String, i64> = HashMap::new();
        let hashes: Vec<String> = payments.iter().map(|p| p.tx_hash.to_owned()).collect();
        for chunk in hashes.chunks(ROWS_PER_STATEMENT) {
            let mut qb = QueryBuilder::new("SELECT tx_hash, ledger_seq FROM sandbox_transactions WHERE tx_hash IN");
            push_bind_list(&mut qb, chunk.iter().cloned());
            for row in qb.build().fetch_all(&mut *tx).await? {
                seen.insert(row.try_get("tx_hash")?, row.try_get("ledger_seq")?);
            }
        }
        let (ledger_seq, closes_at) = open_sandbox_ledger(&mut tx, "test", at.as_millis(), close_ms).await?;
        // Each account and asset's balance, locked once, then spent payment by payment.
        let mut balances: HashMap<(&str, &str), (i64, i64)> = HashMap::new();
        let mut answers = Vec::with_capacity(payments.len());
        let mut applied: Vec<&SandboxPayment<'_>> = Vec::new();
        for p in payments {
            if let Some(&original) = seen.get(p.tx_hash) {
                answers.push(SandboxSubmit::Accepted { ledger_seq: original, fresh: false, closes_at: at });
                continue;
            }
            let key = (p.tenant.org_id.as_str(), p.asset_code);
            let (balance, spent) = match balances.entry(key) {
                std::collections::hash_map::Entry::Occupied(known) => known.into_mut(),
                std::collections::hash_map::Entry::Vacant(first) => {
                    first.insert((lock_sandbox_balance(&mut tx, p.tenant, p.asset_code).await?, 0))
                }
            };
            if *balance - *spent < p.amount {
                answers.push(SandboxSubmit::Refused {
                    code: "op_underfunded",
                    message: format!("the sandbox account holds too little {}", p.asset_code),
                });
                continue;
            }
            *spent += p.amount;
            // The same transaction twice in one submission applies once.
            seen.insert(p.tx_hash.to_owned(), ledger_seq);
            applied.push(p);
            answers.push(SandboxSubmit::Accepted { ledger_seq, fresh: true, closes_at });
        }
        for ((org_id, asset_code), (_, spent)) in balances.iter().filter(|(_, (_, spent))| *spent > 0) {
            query("UPDATE sandbox_balances SET balance = balance - $1 WHERE org_id = $2 AND asset_code = $3")
                .bind(*spent)
                .bind(*org_id)
                .bind(*asset_code)
                .execute(&mut *tx)
                .await?;
        }
        for chunk in applied.chunks(ROWS_PER_STATEMENT) {
            let mut qb = QueryBuilder::new(
                "INSERT INTO sandbox_transactions (tx_hash, org_id, ledger_seq, destination, asset_code, amount, memo,
                                                   created_at) ",
            );
            qb.push_values(chunk, |mut row, p| {
                row.push_bind(p.tx_hash.to_owned())
                    .push_bind(p.tenant.org_id.clone())
                    .push_bind(ledger_seq)
                    .push_bind(p.destination.to_owned())
                    .push_bind(p.asset_code.to_owned())
                    .push_bind(p.amount)
                    .push_bind(p.memo.clone())
                    .push_bind(at.as_millis());
            });
            qb.build().execute(&mut *tx).await?;
        }
        tx.commit().await?;
        Ok(answers)
    }

    async fn sandbox_transaction_seq(&self, tx_hash: &str) -> StoreResult<Option<i64>> {
        Ok(query_scalar("SELECT ledger_seq FROM sandbox_transactions WHERE tx_hash = $1")
            .bind(tx_hash)
            .fetch_optional(self.reader())
            .await?)
    }

    async fn sandbox_balances(&self, tenant: &Tenant) -> StoreResult<Vec<(String, i64)>> {
        let mut tx = self.begin_write().await?;
        ensure_sandbox_balances(&mut tx, tenant).await?;
        let balances = read_sandbox_balances(&mut tx, tenant).await?;
        tx.commit().await?;
        Ok(balances)
    }

    async fn sandbox_top_up(
        &self,
        tenant: &Tenant,
        asset_code: &str,
        amount: i64,
        idempotency: Option<IdempotentResponse<'_, Vec<(String, i64)>>>,
    ) -> StoreResult<Vec<(String, i64)>> {
        let mut tx = self.begin_keyed(tenant, idempotency.as_ref()).await?;
        let balance = lock_sandbox_balance(&mut tx, tenant, asset_code).await?;
        let topped = i128::from(balance) + i128::from(amount);
        let topped = i64::try_from(topped).ok().filter(|b| *b <= lajan_domain::money::MAX_CENTS).ok_or_else(|| {
            StoreError::Rejected(lajan_domain::Invalid::new(
                "invalid_amount",
                format!(
                    "amount would take the {asset_code} balance past {}, the most a Stellar account can hold",
                    lajan_domain::money::format_scaled(lajan_domain::money::MAX_CENTS, 2)
                ),
            ))
        })?;
        query(
            "INSERT INTO sandbox_balances (org_id, asset_code, balance) VALUES ($1, $2, $3)
             ON CONFLICT (org_id, asset_code) DO UPDATE SET balance = excluded.balance",
        )
        .bind(&tenant.org_id)
        .bind(asset_code)
        .bind(topped)
        .execute(&mut *tx)
        .await?;
        let balances = read_sandbox_balances(&mut tx, tenant).await?;
        self.commit_keyed(tx, tenant, idempotency.as_ref(), &balances).await?;
        Ok(balances)
    }

    async fn record_sandbox_payment(
        &self,
        payment: &IncomingPayment,
        close_ms: i64,
    ) -> StoreResult<(IncomingPayment, Timestamp)> {
        let mut tx = self.begin_write().await?;
        let original = query(concat!("SELECT ", payment_columns!(), " FROM incoming_payments WHERE tx_hash = $1"))
            .bind(&payment.tx_hash)
            .fetch_optional(&mut *tx)
            .await?;
        if let Some(row) = original {
            // The identical transaction was submitted before: like Stellar, the ledger answers
            // with the original, whose ledger the caller need not wait for again.
            return Ok((payment_from_row(&row)?, payment.created_at));
        }
        refuse_when_nothing_is_due(&mut tx, payment).await?;
        let (seq, closes_at) =
            open_sandbox_ledger(&mut tx, payment.env.as_str(), payment.created_at.as_millis(), close_ms).await?;
        let recorded = IncomingPayment { ledger_seq: seq, ..payment.clone() };
        insert_payment(&mut tx, &recorded).await?;
        self.commit(tx).await?;
        Ok((recorded, closes_at))
    }
}

/// A simulated customer pays only what is due: with the intent its memo names locked, the
/// payments recorded for it and not yet applied count as received, so concurrent "Simulate
/// payment" clicks make one payment, not one each. (On the live network a payment that landed is
/// a fact the watcher records whatever the intent says; it applies each one once, under the
/// payment's and the intent's row locks.)
async fn refuse_when_nothing_is_due(tx: &mut Tx, payment: &IncomingPayment) -> StoreResult<()> {
    let Some(intent) = lock_intent_paid_by(tx, payment).await? else { return Ok(()) };
    let settling: i64 = query_scalar(
        "SELECT CAST(COALESCE(SUM(amount), 0) AS BIGINT) FROM incoming_payments
         WHERE org_id = $1 AND env = $2 AND memo = $3 AND asset_code = $4 AND processed_at IS NULL",
    )
    .bind(&payment.org_id)
    .bind(payment.env.as_str())
    .bind(&intent.reference)
    .bind(&payment.asset_code)
    .fetch_one(&mut **tx)
    .await?;
    if intent.amount_received.saturating_add(settling) >= intent.amount {
        return Err(StoreError::Rejected(Invalid::new(
            "cannot_pay",
            "This has already been paid (a payment for it may still be settling on the ledger).",
        )));
    }
    Ok(())
}
