// The registration page's writes, for both backends; included after `invitations/sql.rs` (its
// `invitation_columns!`) and `clients/sql.rs` (`lock_client`).

use crate::invitations::{RegistrationChange, RegistrationProof, RegistrationStore};

/// Client `client_id`'s invitation locked for the change a registration step makes.
async fn lock_invitation(tx: &mut Tx, tenant: &Tenant, client_id: &str) -> StoreResult<Invitation> {
    let row = query(concat!(
        "SELECT ",
        invitation_columns!(),
        " FROM invitations WHERE client_id = $1 AND org_id = $2 AND env = $3",
        for_update!()
    ))
    .bind(client_id)
    .bind(&tenant.org_id)
    .bind(tenant.env.as_str())
    .fetch_optional(&mut **tx)
    .await?;
    invitation_from_row(&row.ok_or(StoreError::NotFound)?)
}

/// Writes the registration checks of `i` back.
async fn save_checks(tx: &mut Tx, i: &Invitation, at: Timestamp) -> StoreResult<()> {
    let c = &i.checks;
    query(
        "UPDATE invitations SET status = $1, locked_at = $2, code_hash = $3, code_sent_at = $4, code_tries = $5,
                contact_confirmed_at = $6, verified_at = $7, verify_failures = $8, code_failures = $9, updated_at = $10
         WHERE client_id = $11",
    )
    .bind(i.status.as_str())
    .bind(i.locked_at.map(Timestamp::as_millis))
    .bind(&c.code_hash)
    .bind(c.code_sent_at.map(Timestamp::as_millis))
    .bind(c.code_tries)
    .bind(c.contact_confirmed_at.map(Timestamp::as_millis))
    .bind(c.verified_at.map(Timestamp::as_millis))
    .bind(i.verify_failures)
    .bind(i.code_failures)
    .bind(at.as_millis())
    .bind(&i.client_id)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

#[async_trait]
impl RegistrationStore for ThisStore {
    async fn invitation_by_link(&self, token_hash: &str) -> StoreResult<Option<DueInvitation>> {
        let mut conn = self.reader().acquire().await?;
        let row = query("SELECT i.client_id, i.org_id, i.env FROM invitation_links l JOIN invitations i ON i.client_id = l.client_id WHERE l.token_hash = $1")
            .bind(token_hash)
            .fetch_optional(&mut *conn)
            .await?;
        let Some(row) = row else { return Ok(None) };
        let tenant = Tenant::new(row.try_get::<String, _>("org_id")?, env_of(&row)?);
        let client_id: String = row.try_get("client_id")?;
        drop(row);
        due_in(&mut conn, &tenant, &client_id).await
    }

    async fn registration_step(
        &self,
        tenant: &Tenant,
        client_id: &str,
        at: Timestamp,
        step: RegistrationChange<'_>,
    ) -> StoreResult<Invitation> {
        let mut tx = self.begin_write().await?;
        let mut i = lock_invitation(&mut tx, tenant, client_id).await?;
        let changed = (step.change)(&mut i).map_err(StoreError::Rejected)?;
        save_checks(&mut tx, &i, at).await?;
        if let Some(out) = step.message.filter(|_| changed) {
            insert_message(&mut tx, tenant, out.message, MessageAbout::Client(client_id), at, out.event).await?;
        }
        if let Some(event) = changed.then_some(step.event).flatten() {
            insert_event(&mut tx, tenant, at, &event(&i)).await?;
        }
        if let Some(withdrawn) = changed.then_some(step.withdrawn).flatten() {
            withdraw_waiting_approvals(&mut tx, tenant, client_id, at, Some(withdrawn)).await?;
        }
        self.commit(tx).await?;
        Ok(i)
    }

    async fn register_receiver_wallet(
        &self,
        tenant: &Tenant,
        client_id: &str,
        wallet: ClientWallet<'_>,
        proof: RegistrationProof<'_>,
        at: Timestamp,
        event: EventFor<'_, (Client, Invitation)>,
    ) -> StoreResult<(Client, Invitation)> {
        let mut tx = self.begin_write().await?;
        // The client first, then its invitation: the order `update_client` takes them in, so the
        // two never wait on each other.
        let mut client = lock_client(&mut tx, tenant, client_id).await?;
        let before = lock_invitation(&mut tx, tenant, client_id).await?;
        // A deposit's page stands on what it proved itself, never on the invitation's link.
        let checks = match proof.deposit {
            Some(id) => deposit_proves(&mut tx, id, tenant, client_id).await?,
            None => Some(before.checks.clone()),
        };
        let step = checks.map(|c| before.step_on(&c, proof.asks_verification));
        if step != Some(lajan_domain::invitation::Step::Wallet) {
            return Err(StoreError::Rejected(lajan_domain::Invalid::new(
                "registration_incomplete",
                "This invitation cannot take a wallet now",
            )));
        }
        query(
            "UPDATE clients SET wallet_account_id = $1, wallet_memo_type = $2, wallet_memo = $3, updated_at = $4
             WHERE id = $5",
        )
        .bind(wallet.address)
        .bind(wallet.memo.map(|m| m.kind().as_str()))
        .bind(wallet.memo.map(StellarMemo::value))
        .bind(at.as_millis())
        .bind(client_id)
        .execute(&mut *tx)
        .await?;
        client.wallet_account_id = Some(wallet.address.to_owned());
        client.wallet_memo = wallet.memo.cloned();
        client.updated_at = at;
        release_waiting_payouts(&mut tx, tenant, client_id, wallet, true, at).await?;
        let after = lock_invitation(&mut tx, tenant, client_id).await?;
        let both = (client, after);
        insert_event(&mut tx, tenant, at, &event(&both)).await?;
        self.commit(tx).await?;
        Ok(both)
    }

    async fn receiver_payouts(&self, tenant: &Tenant, client_id: &str, limit: i64) -> StoreResult<Vec<PayoutDetail>> {
        let mut conn = self.reader().acquire().await?;
        let ids: Vec<String> = query_scalar(
            "SELECT id FROM payouts WHERE client_id = $1 AND org_id = $2 AND env = $3 AND approval_status = 'approved'
             ORDER BY created_at DESC, id DESC LIMIT $4",
        )
        .bind(client_id)
        .bind(&tenant.org_id)
        .bind(tenant.env.as_str())
        .bind(limit)
        .fetch_all(&mut *conn)
        .await?;
        let mut found = read_payouts(&mut conn, &ids).await?;
        found.sort_by(|a, b| b.payout.created_at.cmp(&a.payout.created_at).then_with(|| b.payout.id.cmp(&a.payout.id)));
        Ok(found)
    }
}
