// Home domain proofs, for both backends; included after `orgs/sql.rs`, whose served lookup joins
// them.

use crate::home_domains::{HomeDomainProof, HomeDomainStore};

fn proof_from_row(row: &DbRow) -> StoreResult<HomeDomainProof> {
    Ok(HomeDomainProof {
        domain: row.try_get("domain")?,
        token: row.try_get("token")?,
        proved_at: row.try_get::<Option<i64>, _>("verified_at")?.map(ts),
    })
}

#[async_trait]
impl HomeDomainStore for ThisStore {
    async fn home_domain_proof(
        &self,
        tenant: &Tenant,
        domain: &str,
        token: &str,
        at: Timestamp,
    ) -> StoreResult<HomeDomainProof> {
        let mut tx = self.begin_write().await?;
        let kept = query(concat!(
            "SELECT domain, token, verified_at FROM home_domain_proofs WHERE org_id = $1 AND env = $2",
            for_update!()
        ))
        .bind(&tenant.org_id)
        .bind(tenant.env.as_str())
        .fetch_optional(&mut *tx)
        .await?;
        if let Some(row) = kept.as_ref() {
            let proof = proof_from_row(row)?;
            if proof.domain == domain {
                return Ok(proof);
            }
        }
        query(
            "INSERT INTO home_domain_proofs (org_id, env, domain, token, created_at, verified_at)
             VALUES ($1, $2, $3, $4, $5, NULL)
             ON CONFLICT (org_id, env) DO UPDATE SET domain = $3, token = $4, created_at = $5, verified_at = NULL",
        )
        .bind(&tenant.org_id)
        .bind(tenant.env.as_str())
        .bind(domain)
        .bind(token)
        .bind(at.as_millis())
        .execute(&mut *tx)
        .await?;
        self.commit(tx).await?;
        Ok(HomeDomainProof { domain: domain.to_owned(), token: token.to_owned(), proved_at: None })
    }

    async fn prove_home_domain(&self, tenant: &Tenant, domain: &str, at: Timestamp) -> StoreResult<HomeDomainProof> {
        let mut tx = self.begin_write().await?;
        // The unique index on proved domains answers a second organization with `Conflict`.
        query(
            "UPDATE home_domain_proofs SET verified_at = $4
             WHERE org_id = $1 AND env = $2 AND domain = $3 AND verified_at IS NULL",
        )
        .bind(&tenant.org_id)
        .bind(tenant.env.as_str())
        .bind(domain)
        .bind(at.as_millis())
        .execute(&mut *tx)
        .await?;
        let row = query("SELECT domain, token, verified_at FROM home_domain_proofs WHERE org_id = $1 AND env = $2 AND domain = $3")
            .bind(&tenant.org_id)
            .bind(tenant.env.as_str())
            .bind(domain)
            .fetch_optional(&mut *tx)
            .await?
            .ok_or(StoreError::NotFound)?;
        let proof = proof_from_row(&row)?;
        self.commit(tx).await?;
        Ok(proof)
    }
}
