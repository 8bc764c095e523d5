//! Lajan as a Stellar service wallets can find (SEP-1): the network it speaks for, the key it
//! signs challenges with (SEP-10), and the assets it pays out.

use crate::assets::{AssetView, usable};
use crate::{ServiceResult, Services};
use lajan_domain::{Environment, Timestamp};
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
    pub currencies: Vec<AssetView>,
}

impl Services {
    /// The deployment as a Stellar service. A deployment speaks for one network in its
    /// `stellar.toml`: the live one when configured, else the sandbox, whose wallets are test
    /// network wallets.
    pub async fn stellar_service(&self) -> ServiceResult<StellarService> {
        let (env, network_passphrase) = match &self.config.live_ledger {
            Some(live) => (Environment::Live, live.network_passphrase.clone()),
            None => (Environment::Test, TESTNET_PASSPHRASE.to_owned()),
        };
        let signing_key = match self.signing_seed(env).await? {
            Some(seed) => Some(account_of_secret(&seed).map_err(|e| crate::ServiceError::Unavailable(e.to_string()))?),
            None => None,
        };
        let currencies = usable(env, &self.config.live_asset_issuers);
        Ok(StellarService { env, network_passphrase, signing_key, currencies })
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
}
