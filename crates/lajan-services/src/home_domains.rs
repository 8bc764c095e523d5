//! The domains wallets meet Lajan at: the deployment's own (its `public_url`'s host) and each
//! organization's home domain, a domain of its own it points at Lajan, whose `stellar.toml`
//! names the organization and whose SEP-10 challenges are for that domain.

use crate::stellar_service::refuse;
use crate::{ServiceResult, Services};
use lajan_store::HomeDomainOrg;

/// A domain Lajan answers wallets at, and the organization it belongs to (none: the
/// deployment's own).
#[derive(Debug, Clone)]
pub struct ServedDomain {
    pub domain: String,
    pub organization: Option<HomeDomainOrg>,
}

impl Services {
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
