//! Links that open a receiver's registration in a wallet app, as the Stellar Disbursement
//! Platform's invitations do: the wallet's deep link with the asset to receive, the domain whose
//! `stellar.toml` names Lajan's SEP-10 and SEP-24 endpoints, the organization's name, and a
//! signature by that file's `SIGNING_KEY`, so the wallet can check the link came from here.

use crate::{ServiceResult, Services};
use lajan_ledger::stellar::sign_message;
use lajan_store::DueInvitation;
use secrecy::SecretString;

/// "Open in <wallet>": a recommended wallet's signed registration link.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WalletLink {
    pub name: String,
    pub link: String,
}

/// What a registration link hands a wallet.
struct Handed<'a> {
    /// `CODE-ISSUER`, or `native` for XLM.
    asset: &'a str,
    /// Lajan's home domain: where the wallet finds the `stellar.toml`.
    domain: &'a str,
    organization: &'a str,
}

impl Services {
    /// The signed links to the invitation's recommended wallets that have a deep link and hold
    /// the asset most of the waiting money is in. None where wallets would meet another network
    /// than the invitation's (a sandbox invitation on a deployment whose wallets are live), or
    /// before a live signing key is configured.
    pub(crate) async fn wallet_links(&self, due: &DueInvitation) -> ServiceResult<Vec<WalletLink>> {
        let (env, _) = self.wallet_network();
        let Some((code, _)) = due.waiting.first() else { return Ok(Vec::new()) };
        let linked: Vec<_> = (due.settings.recommended_wallets.iter())
            .filter(|w| w.receives(code))
            .filter_map(|w| w.deep_link.as_deref().map(|link| (w.name.as_str(), link)))
            .collect();
        if linked.is_empty() || due.invitation.tenant.env != env {
            return Ok(Vec::new());
        }
        let Some(asset) = self.deposit_assets().into_iter().find(|a| a.code == *code) else { return Ok(Vec::new()) };
        let Some(seed) = self.signing_seed(env).await? else { return Ok(Vec::new()) };
        let asset = match asset.issuer {
            Some(issuer) => format!("{}-{issuer}", asset.code),
            None => "native".to_owned(),
        };
        // The organization's own domain when it has one: its stellar.toml names it.
        let settings = self.store.get_settings(&due.invitation.tenant).await?;
        let domain = settings.stellar.home_domain.unwrap_or_else(|| self.home_domain());
        let handed = Handed { asset: &asset, domain: &domain, organization: &due.organization };
        let mut links = Vec::with_capacity(linked.len());
        for (name, deep_link) in linked {
            if let Some(link) = signed_link(deep_link, &handed, &seed)? {
                links.push(WalletLink { name: name.to_owned(), link });
            }
        }
        Ok(links)
    }
}

/// `deep_link` with the registration's query (`asset`, `domain`, `name`) and then `signature`,
/// the hex of the signing key's ed25519 signature of the link as it reads before it. `None` for
/// a deep link that no longer parses (the settings check it when it is set).
fn signed_link(deep_link: &str, handed: &Handed<'_>, seed: &SecretString) -> ServiceResult<Option<String>> {
    let Ok(mut url) = url::Url::parse(deep_link) else { return Ok(None) };
    url.query_pairs_mut()
        .append_pair("asset", handed.asset)
        .append_pair("domain", handed.domain)
        .append_pair("name", handed.organization);
    let signature = sign_message(url.as_str().as_bytes(), seed)
        .map_err(|e| crate::ServiceError::Unavailable(format!("the link could not be signed: {e}")))?;
    url.query_pairs_mut().append_pair("signature", &lajan_domain::hex::encode(&signature));
    Ok(Some(url.into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_signature_covers_the_link_before_it() {
        let seed = lajan_ledger::stellar::new_secret_seed();
        let handed = Handed { asset: "USDC-GISSUER", domain: "pay.lajan.test", organization: "Fonkoze & Co" };
        let link = signed_link("wallet://sdp?ref=x", &handed, &seed).unwrap().unwrap();
        let (unsigned, signature) = link.rsplit_once("&signature=").unwrap();
        assert_eq!(unsigned, "wallet://sdp?ref=x&asset=USDC-GISSUER&domain=pay.lajan.test&name=Fonkoze+%26+Co");
        assert_eq!(signature, lajan_domain::hex::encode(&sign_message(unsigned.as_bytes(), &seed).unwrap()));
        assert_eq!(signed_link("not a link", &handed, &seed).unwrap(), None);
    }
}
