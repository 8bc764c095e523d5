// Recording receivers' answers, for both backends: many answers in one transaction (the
// dispatcher hands them over in batches), each kept as an attempt, each delivery its lease still
// holds moved, each endpoint's failure clock advanced once per batch. Included before
// `deliveries/sql.rs`, which calls it.

use crate::deliveries::Answered;

/// Who holds a pending delivery and where it goes.
struct Holder {
    lease: Option<String>,
    endpoint_id: String,
    tenant: Tenant,
}

/// What a batch's answers say of one endpoint.
struct EndpointAnswers {
    tenant: Tenant,
    /// Whether any answer was a success.
    succeeded: bool,
    /// The first failure after the batch's last success (or of the batch, without one).
    failing_since: Option<Timestamp>,
    gone: bool,
    last_at: Timestamp,
}

impl EndpointAnswers {
    fn note(&mut self, outcome: &WebhookOutcome, at: Timestamp) {
        match outcome {
            WebhookOutcome::Delivered => (self.succeeded, self.failing_since) = (true, None),
            _ => {
                self.failing_since.get_or_insert(at);
            }
        }
        self.gone |= *outcome == WebhookOutcome::Gone;
        self.last_at = self.last_at.max(at);
    }
}

/// The pending deliveries among `ids` (sorted), row-locked in id order until the transaction ends.
async fn pending_holders(tx: &mut Tx, ids: &[&str]) -> StoreResult<HashMap<String, Holder>> {
    let mut holders = HashMap::with_capacity(ids.len());
    for chunk in ids.chunks(ROWS_PER_STATEMENT) {
        let mut qb = QueryBuilder::new(
            "SELECT id, lease_token, endpoint_id, org_id, env FROM webhook_deliveries WHERE status = 'pending' AND id IN",
        );
        push_bind_list(&mut qb, chunk.iter().map(|id| id.to_string()));
        qb.push(concat!(" ORDER BY id", for_update!()));
        for row in qb.build().fetch_all(&mut **tx).await? {
            let holder = Holder {
                lease: row.try_get("lease_token")?,
                endpoint_id: row.try_get("endpoint_id")?,
                tenant: Tenant::new(row.try_get::<String, _>("org_id")?, env_of(&row)?),
            };
            holders.insert(row.try_get("id")?, holder);
        }
    }
    Ok(holders)
}

/// The number of the last attempt recorded of each of `ids` that has one.
async fn last_attempt_numbers(tx: &mut Tx, ids: &[&str]) -> StoreResult<HashMap<String, i64>> {
    let mut numbers = HashMap::with_capacity(ids.len());
    for chunk in ids.chunks(ROWS_PER_STATEMENT) {
        let mut qb = QueryBuilder::new(
            "SELECT delivery_id, MAX(attempt_number) AS n FROM webhook_attempts WHERE delivery_id IN",
        );
        push_bind_list(&mut qb, chunk.iter().map(|id| id.to_string()));
        qb.push(" GROUP BY delivery_id");
        for row in qb.build().fetch_all(&mut **tx).await? {
            numbers.insert(row.try_get("delivery_id")?, row.try_get("n")?);
        }
    }
    Ok(numbers)
}

async fn insert_attempts(tx: &mut Tx, attempts: &[(&Answered, i64)]) -> StoreResult<()> {
    for chunk in attempts.chunks(ROWS_PER_STATEMENT) {
        let mut qb = QueryBuilder::new(
            "INSERT INTO webhook_attempts (id, delivery_id, attempt_number, at, http_status, error, duration_ms,
                                           response_body) ",
        );
        qb.push_values(chunk, |mut row, (answer, number)| {
            let attempt = &answer.attempt;
            row.push_bind(IdKind::Attempt.generate())
                .push_bind(answer.delivery_id.clone())
                .push_bind(*number)
                .push_bind(attempt.at.as_millis())
                .push_bind(attempt.http_status)
                .push_bind(attempt.error.clone())
                .push_bind(attempt.duration_ms)
                .push_bind(attempt.response_body.clone());
        });
        qb.build().execute(&mut **tx).await?;
    }
    Ok(())
}

/// A delivery's new state: (id, status, due again at, attempts, at).
type Settled<'a> = (&'a str, DeliveryStatus, Timestamp, i64, Timestamp);

/// Moves each delivery to its new state and releases its lease, in one statement per chunk.
async fn settle_deliveries(tx: &mut Tx, settled: &[Settled<'_>]) -> StoreResult<()> {
    for chunk in settled.chunks(ROWS_PER_STATEMENT) {
        // `VALUES` names its columns column1, column2, ... on both backends.
        let mut qb = QueryBuilder::new(
            "UPDATE webhook_deliveries SET status = v.column2, next_attempt_at = v.column3, attempts = v.column4,
                    updated_at = v.column5, lease_token = NULL FROM (",
        );
        qb.push_values(chunk, |mut row, (id, status, next, attempts, at)| {
            row.push_bind(id.to_string())
                .push_bind(status.as_str())
                .push_bind(next.as_millis())
                .push_bind(*attempts)
                .push_bind(at.as_millis());
        });
        qb.push(") AS v WHERE webhook_deliveries.id = v.column1");
        qb.build().execute(&mut **tx).await?;
    }
    Ok(())
}

/// Advances endpoint `endpoint_id`'s failure clock by a batch's answers; answers since when it
/// has only failed (`None` when its last answer was a success).
async fn note_answers(tx: &mut Tx, endpoint_id: &str, answers: &EndpointAnswers) -> StoreResult<Option<Timestamp>> {
    let failing_since: Option<i64> = query_scalar(
        "UPDATE webhook_endpoints SET failing_since = CASE WHEN $1 THEN $2 ELSE COALESCE(failing_since, $2) END
         WHERE id = $3 RETURNING failing_since",
    )
    .bind(answers.succeeded)
    .bind(answers.failing_since.map(Timestamp::as_millis))
    .bind(endpoint_id)
    .fetch_one(&mut **tx)
    .await?;
    Ok(failing_since.map(ts))
}

/// Disables the endpoint and records `event` for it, once: an endpoint already disabled (two
/// deliveries answered 410 at once) is left as it is, and said nothing more of.
async fn disable_endpoint(
    tx: &mut Tx,
    tenant: &Tenant,
    endpoint_id: &str,
    at: Timestamp,
    event: EventFor<'_, WebhookEndpoint>,
) -> StoreResult<()> {
    let disabled = query("UPDATE webhook_endpoints SET enabled = FALSE, updated_at = $1 WHERE id = $2 AND enabled")
        .bind(at.as_millis())
        .bind(endpoint_id)
        .execute(&mut **tx)
        .await?
        .rows_affected();
    if disabled > 0 {
        let endpoint = endpoint_of(tx, tenant, endpoint_id).await?.ok_or(StoreError::NotFound)?;
        insert_event(tx, tenant, at, &event(&endpoint)).await?;
    }
    Ok(())
}

/// Records `answers` in `tx` (see [`DeliveryStore::finish_deliveries`]).
async fn record_answers(tx: &mut Tx, answers: &[Answered], disabled: EventFor<'_, WebhookEndpoint>) -> StoreResult<()> {
    let mut ids: Vec<&str> = answers.iter().map(|a| a.delivery_id.as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    let holders = pending_holders(tx, &ids).await?;
    let mut numbers = last_attempt_numbers(tx, &ids).await?;
    let mut attempts = Vec::with_capacity(answers.len());
    let mut settled = Vec::with_capacity(answers.len());
    // Sorted, so two batches touching the same endpoints lock them in the same order.
    let mut endpoints: BTreeMap<&str, EndpointAnswers> = BTreeMap::new();
    for answer in answers {
        let number = numbers.entry(answer.delivery_id.clone()).or_insert(0);
        *number += 1;
        attempts.push((answer, *number));
        let Some(holder) = holders.get(&answer.delivery_id).filter(|h| h.lease.as_deref() == Some(&answer.lease))
        else {
            // A late answer under a lease that ran out: kept as an attempt, moves nothing.
            continue;
        };
        let at = answer.attempt.at;
        let (status, next) = match answer.outcome {
            WebhookOutcome::Delivered => (DeliveryStatus::Delivered, at),
            WebhookOutcome::Retry { retry_at } => (DeliveryStatus::Pending, retry_at),
            WebhookOutcome::Failed | WebhookOutcome::Gone => (DeliveryStatus::Failed, at),
        };
        settled.push((answer.delivery_id.as_str(), status, next, *number, at));
        endpoints
            .entry(holder.endpoint_id.as_str())
            .or_insert_with(|| EndpointAnswers {
                tenant: holder.tenant.clone(),
                succeeded: false,
                failing_since: None,
                gone: false,
                last_at: at,
            })
            .note(&answer.outcome, at);
    }
    insert_attempts(tx, &attempts).await?;
    settle_deliveries(tx, &settled).await?;
    for (endpoint_id, answers) in &endpoints {
        let failing_since = note_answers(tx, endpoint_id, answers).await?;
        if answers.gone || failing_since.is_some_and(|since| silent_too_long(since, answers.last_at)) {
            disable_endpoint(tx, &answers.tenant, endpoint_id, answers.last_at, disabled).await?;
        }
    }
    Ok(())
}
