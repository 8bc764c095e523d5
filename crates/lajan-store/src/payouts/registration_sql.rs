// Payouts waiting for their client to register a wallet, for both backends: released onto the
// queue when the client's wallet arrives, in the transaction that records it; included after
// `payouts/sql.rs`. `clients/sql.rs` calls this from its update.

/// Gives every payout of `client_id` waiting for a wallet the client's `wallet`, and moves it on:
/// an approved one to `ready_to_send` (due now; the wait so far does not count as a delay), one
/// still pending approval back to `pending`. Refused (`forbidden`) when an approved one waits and
/// the caller may not approve payouts. How many moved.
async fn release_waiting_payouts(
    tx: &mut Tx,
    tenant: &Tenant,
    client_id: &str,
    wallet: &str,
    may_release_approved: bool,
    at: Timestamp,
) -> StoreResult<u64> {
    if !may_release_approved {
        let approved: Option<String> = query_scalar(
            "SELECT id FROM payouts
             WHERE client_id = $1 AND exec_status = 'awaiting_registration' AND approval_status = 'approved'
               AND org_id = $2 AND env = $3 LIMIT 1",
        )
        .bind(client_id)
        .bind(&tenant.org_id)
        .bind(tenant.env.as_str())
        .fetch_optional(&mut **tx)
        .await?;
        if approved.is_some() {
            return Err(StoreError::Rejected(Invalid::new("forbidden", lajan_domain::payout::RELEASE_NEEDS_APPROVER)));
        }
    }
    let released = query(
        "UPDATE payouts SET wallet_account_id = $1,
                exec_status = CASE WHEN approval_status = 'approved' THEN 'ready_to_send' ELSE 'pending' END,
                next_attempt_at = $2, unsent_since = $2, updated_at = $2
         WHERE client_id = $3 AND exec_status = 'awaiting_registration' AND org_id = $4 AND env = $5",
    )
    .bind(wallet)
    .bind(at.as_millis())
    .bind(client_id)
    .bind(&tenant.org_id)
    .bind(tenant.env.as_str())
    .execute(&mut **tx)
    .await?;
    Ok(released.rows_affected())
}
