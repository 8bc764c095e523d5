//! The proof an organization holds its home domain: a token Lajan made for the domain, which the
//! organization publishes in a DNS TXT record; a domain is served, and is one organization's,
//! only once proved.

use crate::StoreResult;
use async_trait::async_trait;
use lajan_domain::{Tenant, Timestamp};

/// Where an organization's proof of its home domain stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HomeDomainProof {
    pub domain: String,
    /// What the TXT record must hold (after `lajan-verification=`).
    pub token: String,
    pub proved_at: Option<Timestamp>,
}

#[async_trait]
pub trait HomeDomainStore: Send + Sync {
    /// The tenant's proof of `domain`: the one kept when it is for this domain, else a new one
    /// with `token` (replacing a proof of another domain, which stops that one being served).
    async fn home_domain_proof(
        &self,
        tenant: &Tenant,
        domain: &str,
        token: &str,
        at: Timestamp,
    ) -> StoreResult<HomeDomainProof>;

    /// Marks the tenant's proof of `domain` proved at `at` (once: a proved one stays as it
    /// was). `Conflict` when another organization proved the domain first; `NotFound` when the
    /// tenant's proof is of another domain.
    async fn prove_home_domain(&self, tenant: &Tenant, domain: &str, at: Timestamp) -> StoreResult<HomeDomainProof>;
}
