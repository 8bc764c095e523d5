// Payouts in bulk, for both backends: many payouts read with their attempts, and the first
// attempts and outcomes of a claimed batch, each a few statements for hundreds of rows in one
// transaction (the sandbox executor's path); included after `payouts/sql.rs`.

use crate::payouts::{FirstAttempt, Outcome};
// BTreeMap, HashMap and HashSet come from the files included before and after this one.

/// How an attempt ended, as its row records it: the ledger, or the error code and message.
type AttemptEnd<'a> = (Option<i64>, Option<(&'a str, &'a str)>);

/// The payouts `ids` (of any tenant) with their attempts, in the order of `ids`; ids that name
/// no payout are left out.
async fn read_payouts(conn: &mut Conn, ids: &[String]) -> StoreResult<Vec<PayoutDetail>> {
    let mut found: HashMap<String, PayoutDetail> = HashMap::with_capacity(ids.len());
    for chunk in ids.chunks(ROWS_PER_STATEMENT) {
        let mut qb = QueryBuilder::new(concat!(payout_select!(), " WHERE p.id IN"));
        push_bind_list(&mut qb, chunk.iter().cloned());
        for row in qb.build().fetch_all(&mut *conn).await? {
            let detail = payout_from_row(&row)?;
            found.insert(detail.payout.id.clone(), detail);
        }
        let mut qb = QueryBuilder::new(
            "SELECT payout_id, id, attempt_number, tx_hash, ledger_seq, error_code, error_message, created_at,
                    submissions, channel_account
             FROM payout_attempts WHERE payout_id IN",
        );
        push_bind_list(&mut qb, chunk.iter().cloned());
        qb.push(" ORDER BY payout_id, attempt_number");
        for row in qb.build().fetch_all(&mut *conn).await? {
            let payout_id: String = row.try_get("payout_id")?;
            if let Some(detail) = found.get_mut(&payout_id) {
                detail.attempts.push(attempt_from_row(&row)?);
            }
        }
    }
    Ok(ids.iter().filter_map(|id| found.remove(id)).collect())
}

/// Which of `ids` the executor holding `lease` still holds, locked for its writes.
async fn held_ids(tx: &mut Tx, lease: &str, ids: impl Iterator<Item = String>) -> StoreResult<HashSet<String>> {
    let ids: Vec<String> = ids.collect();
    let mut held = HashSet::with_capacity(ids.len());
    for chunk in ids.chunks(ROWS_PER_STATEMENT) {
        let mut qb = QueryBuilder::new("SELECT id FROM payouts WHERE lease_token = ");
        qb.push_bind(lease.to_owned()).push(" AND exec_status = 'ready_to_send' AND id IN");
        push_bind_list(&mut qb, chunk.iter().cloned());
        qb.push(for_update!());
        for row in qb.build().fetch_all(&mut **tx).await? {
            held.insert(row.try_get("id")?);
        }
    }
    Ok(held)
}

/// Runs the `UPDATE ... SET ...` that `update` pushes on the rows `ids` name (chunked), those
/// that also meet `condition` (`""`, or ` AND ...`).
async fn update_by_ids(
    tx: &mut Tx,
    update: impl Fn(&mut QueryBuilder<'_>),
    condition: &str,
    ids: &[String],
) -> StoreResult<()> {
    for chunk in ids.chunks(ROWS_PER_STATEMENT) {
        let mut qb = QueryBuilder::new("");
        update(&mut qb);
        qb.push(" WHERE id IN");
        push_bind_list(&mut qb, chunk.iter().cloned());
        qb.push(condition);
        qb.build().execute(&mut **tx).await?;
    }
    Ok(())
}

impl ThisStore {
    async fn start_first_attempts_in_one(
        &self,
        lease: &str,
        first: &[FirstAttempt],
        at: Timestamp,
    ) -> StoreResult<Vec<(String, Attempt)>> {
        let mut tx = self.begin_write().await?;
        let mut held = held_ids(&mut tx, lease, first.iter().map(|f| f.payout_id.clone())).await?;
        let candidates: Vec<String> = held.iter().cloned().collect();
        for chunk in candidates.chunks(ROWS_PER_STATEMENT) {
            let mut qb = QueryBuilder::new("SELECT DISTINCT payout_id FROM payout_attempts WHERE payout_id IN");
            push_bind_list(&mut qb, chunk.iter().cloned());
            for row in qb.build().fetch_all(&mut *tx).await? {
                held.remove(&row.try_get::<String, _>("payout_id")?);
            }
        }
        let started: Vec<(&FirstAttempt, Attempt)> = first
            .iter()
            .filter(|f| held.contains(&f.payout_id))
            .map(|f| {
                let attempt = Attempt {
                    id: lajan_domain::id::IdKind::Attempt.generate(),
                    attempt_number: 1,
                    tx_hash: f.tx_hash.clone(),
                    ledger_seq: None,
                    error_code: None,
                    error_message: None,
                    created_at: at,
                    submissions: 1,
                    channel_account: None,
                };
                (f, attempt)
            })
            .collect();
        for chunk in started.chunks(ROWS_PER_STATEMENT) {
            let mut qb = QueryBuilder::new(
                "INSERT INTO payout_attempts (id, payout_id, attempt_number, tx_hash, envelope, created_at) ",
            );
            qb.push_values(chunk, |mut row, (f, attempt)| {
                row.push_bind(attempt.id.clone())
                    .push_bind(f.payout_id.clone())
                    .push_bind(attempt.attempt_number)
                    .push_bind(f.tx_hash.clone())
                    .push_bind(f.envelope.clone())
                    .push_bind(at.as_millis());
            });
            qb.build().execute(&mut *tx).await?;
        }
        self.commit(tx).await?;
        Ok(started.into_iter().map(|(f, attempt)| (f.payout_id.clone(), attempt)).collect())
    }

    async fn finish_attempts_in_one(
        &self,
        lease: &str,
        outcomes: &[Outcome],
        at: Timestamp,
        event: EventFor<'_, PayoutDetail>,
    ) -> StoreResult<Vec<String>> {
        let mut tx = self.begin_write().await?;
        let held = held_ids(&mut tx, lease, outcomes.iter().map(|o| o.payout_id.clone())).await?;
        let (mine, not_held): (Vec<&Outcome>, Vec<&Outcome>) =
            outcomes.iter().partition(|o| held.contains(&o.payout_id));
        // A batch's outcomes are mostly alike (one ledger, one refusal): one statement per kind.
        let mut attempts: BTreeMap<AttemptEnd<'_>, Vec<String>> = BTreeMap::new();
        let mut payouts: BTreeMap<(String, i64), Vec<String>> = BTreeMap::new();
        let mut settled: Vec<(String, &'static str)> = Vec::new();
        for o in &mine {
            attempts.entry((o.result.ledger_seq(), o.result.error())).or_default().push(o.attempt_id.clone());
            let settlement = o.result.settlement(at);
            let key = (settlement.exec.as_str().to_owned(), settlement.next_attempt_at.as_millis());
            payouts.entry(key).or_default().push(o.payout_id.clone());
            if let Some(event_type) = settlement.event {
                settled.push((o.payout_id.clone(), event_type));
            }
        }
        for ((ledger_seq, error), ids) in &attempts {
            let (code, message) = error.unzip();
            let update = |qb: &mut QueryBuilder<'_>| {
                qb.push("UPDATE payout_attempts SET ledger_seq = ").push_bind(*ledger_seq);
                qb.push(", error_code = ").push_bind(code.map(str::to_owned));
                qb.push(", error_message = ").push_bind(message.map(str::to_owned));
                qb.push(", finished_at = ").push_bind(at.as_millis());
            };
            update_by_ids(&mut tx, update, " AND ledger_seq IS NULL", ids).await?;
        }
        for ((exec, next_attempt_at), ids) in &payouts {
            let update = |qb: &mut QueryBuilder<'_>| {
                qb.push("UPDATE payouts SET exec_status = ").push_bind(exec.clone());
                qb.push(", next_attempt_at = ").push_bind(*next_attempt_at);
                qb.push(", updated_at = ").push_bind(at.as_millis()).push(", lease_token = NULL");
            };
            update_by_ids(&mut tx, update, "", ids).await?;
        }
        let ids: Vec<String> = settled.iter().map(|(id, _)| id.clone()).collect();
        let types: HashMap<String, &'static str> = settled.into_iter().collect();
        let mut by_tenant: HashMap<Tenant, Vec<NewEvent>> = HashMap::new();
        for detail in read_payouts(&mut tx, &ids).await? {
            let mut recorded = event(&detail);
            recorded.event_type = types.get(&detail.payout.id).copied().unwrap_or(recorded.event_type);
            by_tenant.entry(detail.tenant.clone()).or_default().push(recorded);
        }
        for (tenant, events) in &by_tenant {
            insert_events(&mut tx, tenant, at, events).await?;
        }
        self.commit(tx).await?;
        Ok(not_held.into_iter().map(|o| o.payout_id.clone()).collect())
    }
}
