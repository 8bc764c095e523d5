//! Lajan as a Stellar service wallets can find (SEP-1): the network it speaks for, the key it
//! signs challenges with (SEP-10), and the assets it pays out.

use crate::assets::{AssetView, usable};
use crate::{ServiceResult, Services};
use lajan_domain::network::authority;
use lajan_domain::stellar_memo::MemoKind;
use lajan_domain::{Environment, Timestamp};
use lajan_ledger::sep10::{ChallengeRequest, ClientDomain, build_challenge};
use lajan_ledger::stellar::{TESTNET_PASSPHRASE, account_of_secret, new_secret_seed};
use secrecy::{ExposeSecret, SecretString};

/// What `/.well-known/stellar.toml` says.
#[derive(Debug)]
pub struct StellarService {
    /// The environment wallets meet: live when a live network is configured, else the sandbox.
    pub env: Environment,
    pub network_passphrase: String,
    /// The `G...` account of the signing key; `None` in live until one is configured.
    pub signing_key: Option<String>,
    /// Where wallets authenticate (SEP-10), published only with a signing key.
    pub web_auth_endpoint: Option<String>,
    /// Where wallets start a deposit that registers their user (SEP-24), with a signing key.
    pub transfer_server_sep0024: Option<String>,
    pub currencies: Vec<AssetView>,
    /// The organization whose home domain was asked for, with its `[DOCUMENTATION]`; none for
    /// the deployment's own domain.
    pub organization: Option<lajan_store::HomeDomainOrg>,
}

impl Services {
    /// The deployment as a Stellar service, as a request addressed to `host` meets it: an
    /// organization's home domain names the organization, with the endpoints on that domain;
    /// any other host, the deployment. A deployment speaks for one network in its
    /// `stellar.toml`: the live one when configured, else the sandbox, whose wallets are test
    /// network wallets.
    pub async fn stellar_service(&self, host: Option<&str>) -> ServiceResult<StellarService> {
        let (env, network_passphrase) = self.wallet_network();
        let signing_key = match self.signing_seed(env).await? {
            Some(seed) => Some(signing_account(&seed)?),
            None => None,
        };
        let served = self.served_domain(host).await?;
        let endpoint = |path: &str| signing_key.as_ref().map(|_| self.link_on(&served.domain, path));
        Ok(StellarService {
            env,
            network_passphrase,
            web_auth_endpoint: endpoint("/auth"),
            transfer_server_sep0024: endpoint("/sep24"),
            signing_key,
            currencies: self.deposit_assets(),
            organization: served.organization,
        })
    }

    /// The assets a wallet can receive here (its `[[CURRENCIES]]`, SEP-24's deposits): those
    /// Lajan pays out on its wallet network.
    pub fn deposit_assets(&self) -> Vec<AssetView> {
        let (env, _) = self.wallet_network();
        usable(env, &self.config.live_asset_issuers)
    }

    /// The environment wallets meet and its network's passphrase: live when configured, else
    /// the sandbox, whose wallets are test network wallets.
    pub(crate) fn wallet_network(&self) -> (Environment, String) {
        match &self.config.live_ledger {
            Some(live) => (Environment::Live, live.network_passphrase.clone()),
            None => (Environment::Test, TESTNET_PASSPHRASE.to_owned()),
        }
    }

    /// The seed Lajan signs SEP-10 challenges with in `env`: live, the configured one (none
    /// until it is); the sandbox's, made at first use and kept in the store so every process
    /// and every restart signs with the same key.
    pub(crate) async fn signing_seed(&self, env: Environment) -> ServiceResult<Option<SecretString>> {
        if env.is_live() {
            return Ok(self.config.signing_secret.clone());
        }
        let seed = self
            .sandbox_signing_seed
            .get_or_try_init(|| async {
                let candidate = new_secret_seed();
                let kept = self.store.sandbox_signing_seed(candidate.expose_secret(), Timestamp::now()).await?;
                Ok::<_, lajan_store::StoreError>(SecretString::from(kept))
            })
            .await?;
        Ok(Some(seed.clone()))
    }

    /// The signing seed, or `Unavailable` in live until one is configured.
    pub(crate) async fn required_signing_seed(&self, env: Environment) -> ServiceResult<SecretString> {
        self.signing_seed(env)
            .await?
            .ok_or_else(|| crate::ServiceError::Unavailable("No SEP-10 signing key is configured".into()))
    }
}

/// A challenge for a wallet, and the network it is for.
#[derive(Debug)]
pub struct Sep10Challenge {
    pub transaction: String,
    pub network_passphrase: String,
}

impl Services {
    /// The domain wallets know Lajan by (its `stellar.toml`'s): `public_url`'s host, with its
    /// port when it has one. SEP-10's home domain and web auth domain are both this one.
    pub fn home_domain(&self) -> String {
        url::Url::parse(&self.config.public_url).ok().as_ref().and_then(authority).unwrap_or_default()
    }

    /// A SEP-10 challenge for `account` (a `G...` account; `memo`, an id naming one user of a
    /// shared account), asked at `host`, whose domain (an organization's home domain, else the
    /// deployment's) is the challenge's home and web auth domain unless `home_domain` names
    /// another served here. Refused (`Invalid`, its message the SEP's `error`) for a malformed
    /// account or memo, a `home_domain` not served here, or a `client_domain` whose
    /// `stellar.toml` names no signing key Lajan can read (see [`Services::client_domain_key`]);
    /// `Unavailable` in live until a signing key is configured.
    pub async fn sep10_challenge(
        &self,
        account: Option<&str>,
        memo: Option<&str>,
        home_domain: Option<&str>,
        client_domain: Option<&str>,
        host: Option<&str>,
    ) -> ServiceResult<Sep10Challenge> {
        let account = account.filter(|a| !a.is_empty()).ok_or_else(|| refuse("account is required".into()))?;
        let account = lajan_domain::client::WalletAddress::parse(account)
            .map_err(|e| refuse(format!("account {e} (a G... account; muxed M... accounts are not supported)")))?;
        let memo = match memo {
            None => None,
            Some(raw) => match lajan_domain::stellar_memo::StellarMemo::parse(raw, Some(MemoKind::Id)) {
                Ok(lajan_domain::stellar_memo::StellarMemo::Id(id)) => Some(id),
                _ => return Err(refuse("memo must be an id memo: a whole number up to 18446744073709551615".into())),
            },
        };
        let served = match home_domain {
            Some(asked) => self.served_home_domain(asked).await?,
            None => self.served_domain(host).await?,
        };
        let ours = served.domain;
        let (env, network_passphrase) = self.wallet_network();
        let seed = self.required_signing_seed(env).await?;
        let wallet_key = match client_domain {
            Some(domain) => Some((domain, self.client_domain_key(domain).await?)),
            None => None,
        };
        let server_account = signing_account(&seed)?;
        let now = unix_seconds(Timestamp::now());
        let request = ChallengeRequest {
            network_passphrase: &network_passphrase,
            signing_seed: &seed,
            server_account: &server_account,
            client_account: account.as_str(),
            memo,
            home_domain: &ours,
            web_auth_domain: &ours,
            now,
            nonce: rand::random(),
            client_domain: wallet_key
                .as_ref()
                .map(|(domain, key)| ClientDomain { domain, signing_account: key.as_str() }),
        };
        let signed = build_challenge(&request).map_err(|e| crate::ServiceError::Unavailable(e.to_string()))?;
        Ok(Sep10Challenge { transaction: signed.envelope_xdr_base64, network_passphrase })
    }
}

/// A wallet's request refused, its message the SEP's `error`.
pub(crate) fn refuse(message: String) -> crate::ServiceError {
    crate::ServiceError::Invalid(lajan_domain::Invalid::new("invalid_request", message))
}

/// The `G...` account of a signing seed (a stored one that is not a seed is a fault, not input).
pub(crate) fn signing_account(seed: &SecretString) -> ServiceResult<String> {
    account_of_secret(seed).map_err(|e| crate::ServiceError::Unavailable(e.to_string()))
}

/// Unix seconds, as Stellar's time bounds and JWT claims count time.
pub(crate) fn unix_seconds(at: Timestamp) -> u64 {
    u64::try_from(at.as_millis() / 1000).unwrap_or_default()
}
