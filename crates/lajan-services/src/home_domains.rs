//! The domains wallets meet Lajan at: the deployment's own (its `public_url`'s host) and each
//! organization's home domain, a domain of its own it points at Lajan, whose `stellar.toml`
//! names the organization and whose SEP-10 challenges are for that domain, once the
//! organization proved it holds the domain with a DNS TXT record.

use crate::console::random_token;
use crate::stellar_service::refuse;
use crate::{ServiceError, ServiceResult, Services};
use lajan_domain::{Invalid, Tenant, Timestamp};
use lajan_store::{HomeDomainOrg, HomeDomainProof, StoreError};

/// The TXT record that proves a home domain is `_lajan-verification.<domain>`, holding
/// `lajan-verification=<token>`: a name of its own, so it sits beside whatever else the domain's
/// TXT records say, as Google's and Stripe's domain checks do.
const RECORD_LABEL: &str = "_lajan-verification";
const RECORD_PREFIX: &str = "lajan-verification=";

/// An organization's home domain and the record that proves it is theirs.
#[derive(Debug, Clone)]
pub struct HomeDomainCheck {
    pub domain: String,
    /// The TXT record's name.
    pub record_name: String,
    /// What it must hold.
    pub record_value: String,
    /// When it was proved; until then the domain is not served.
    pub proved_at: Option<Timestamp>,
}

impl HomeDomainCheck {
    fn of(proof: HomeDomainProof) -> Self {
        // A port is not part of a DNS name.
        let host = proof.domain.split(':').next().unwrap_or_default().to_owned();
        HomeDomainCheck {
            record_name: format!("{RECORD_LABEL}.{host}"),
            record_value: format!("{RECORD_PREFIX}{}", proof.token),
            domain: proof.domain,
            proved_at: proof.proved_at,
        }
    }
}

/// A domain Lajan answers wallets at, and the organization it belongs to (none: the
/// deployment's own).
#[derive(Debug, Clone)]
pub struct ServedDomain {
    pub domain: String,
    pub organization: Option<HomeDomainOrg>,
}

impl Services {
    /// The tenant's home domain and the TXT record that proves it (its token made now when the
    /// domain is new); `NotFound` when no home domain is set.
    pub async fn home_domain_check(&self, tenant: &Tenant) -> ServiceResult<HomeDomainCheck> {
        let settings = self.store.get_settings(tenant).await?;
        let domain = settings.stellar.home_domain.ok_or(ServiceError::NotFound("home domain"))?;
        let token = random_token()?;
        let proof = self.store.home_domain_proof(tenant, &domain, &token[..32], Timestamp::now()).await?;
        Ok(HomeDomainCheck::of(proof))
    }

    /// Looks up the tenant's proof in DNS: the domain is proved (and served from now on) when its
    /// TXT record holds the token; refused with `domain_not_verified` when it does not yet, and
    /// with `domain_in_use` when another organization proved the domain first.
    pub async fn verify_home_domain(&self, tenant: &Tenant) -> ServiceResult<HomeDomainCheck> {
        let check = self.home_domain_check(tenant).await?;
        if check.proved_at.is_some() {
            return Ok(check);
        }
        let records = self
            .config
            .resolver
            .txt(&check.record_name)
            .await
            .map_err(|e| ServiceError::Unavailable(format!("{} could not be looked up: {e}", check.record_name)))?;
        if !records.iter().any(|record| record.trim() == check.record_value) {
            let (name, value) = (&check.record_name, &check.record_value);
            return Err(Invalid::new(
                "domain_not_verified",
                format!(
                    "No TXT record {name} holding {value} was found: add it at the domain's DNS host, then verify \
                     again (a new record can take some minutes to be seen)"
                ),
            )
            .into());
        }
        match self.store.prove_home_domain(tenant, &check.domain, Timestamp::now()).await {
            Ok(proof) => Ok(HomeDomainCheck::of(proof)),
            Err(StoreError::Conflict(_)) => {
                Err(Invalid::new("domain_in_use", format!("Another organization proved {} first", check.domain)).into())
            }
            // The home domain changed since the check was read.
            Err(StoreError::NotFound) => Err(ServiceError::NotFound("home domain")),
            Err(e) => Err(e.into()),
        }
    }

    /// The domain a request addressed to `host` (its `Host`) meets: the organization's whose
    /// settings on the wallet network name `host` as their home domain, else the deployment's.
    pub(crate) async fn served_domain(&self, host: Option<&str>) -> ServiceResult<ServedDomain> {
        let ours = self.home_domain();
        let asked = host.map(str::to_ascii_lowercase).filter(|h| *h != ours);
        if let Some(host) = asked {
            let (env, _) = self.wallet_network();
            if let Some(organization) = self.store.home_domain_org(env, &host).await? {
                return Ok(ServedDomain { domain: host, organization: Some(organization) });
            }
        }
        Ok(ServedDomain { domain: ours, organization: None })
    }

    /// `domain` as a challenge's home domain: the deployment's, or an organization's on the
    /// wallet network; refused (in the SEP's words) otherwise.
    pub(crate) async fn served_home_domain(&self, domain: &str) -> ServiceResult<ServedDomain> {
        let served = self.served_domain(Some(domain)).await?;
        if served.domain != domain {
            let ours = &served.domain;
            return Err(refuse(format!("home_domain {domain:?} is not served here; this service's is {ours:?}")));
        }
        Ok(served)
    }

    /// `path` (starting with `/`) on `domain`, in `public_url`'s scheme: the endpoints an
    /// organization's `stellar.toml` names are on its own domain.
    pub(crate) fn link_on(&self, domain: &str, path: &str) -> String {
        let scheme = self.config.public_url.split_once("://").map_or("https", |(scheme, _)| scheme);
        format!("{scheme}://{domain}{path}")
    }
}
