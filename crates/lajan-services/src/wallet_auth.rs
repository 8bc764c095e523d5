//! SEP-10 tokens: a wallet's signed challenge exchanged, once, for a short-lived JWT naming its
//! account, and the check of that token when the wallet calls Lajan's SEP-24 endpoints.

use crate::stellar_service::{refuse, signing_account, unix_seconds};
use crate::{ServiceError, ServiceResult, Services};
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use lajan_domain::{Environment, Timestamp};
use lajan_ledger::sep10::{Expected, challenge_home_domain, verify_challenge};
use secrecy::{ExposeSecret, SecretString};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// How long a token lets a wallet act for its account: long enough to open the registration
/// page and follow the payout, short enough that a leaked token soon stops working.
pub const TOKEN_TTL_SECS: u64 = 3600;

/// The claims SEP-10 names: `iss` the endpoint that issued the token, `sub` the account (with
/// `:memo` when a memo named one user of a shared account), `jti` the challenge's hash, and
/// `client_domain` the wallet whose key signed too (for the wallet's own records: Lajan
/// registers the account, whichever app holds it).
#[derive(Debug, Serialize, Deserialize)]
struct Claims {
    iss: String,
    sub: String,
    iat: u64,
    exp: u64,
    jti: String,
    home_domain: String,
    /// The wallet's domain, when it authenticated with one (its key signed the challenge).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    client_domain: Option<String>,
}

/// The wallet a token speaks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WalletSession {
    /// The environment the account authenticated on (the deployment's wallet network).
    pub env: Environment,
    /// The `G...` account that signed the challenge.
    pub account: String,
    /// The id memo naming one user of a shared account, when the challenge carried one.
    pub memo: Option<u64>,
}

impl Services {
    /// Exchanges a challenge the wallet signed (base64 XDR) for a token: refused (`Invalid`,
    /// its message the SEP's `error`) unless it is a challenge Lajan made on this network,
    /// still valid, signed by the client account's master key, and not exchanged before.
    pub async fn sep10_token(&self, transaction: Option<&str>) -> ServiceResult<String> {
        let transaction =
            transaction.filter(|t| !t.is_empty()).ok_or_else(|| refuse("transaction is required".into()))?;
        let (env, network_passphrase) = self.wallet_network();
        let seed = self.required_signing_seed(env).await?;
        let server_account = signing_account(&seed)?;
        // Checked against the domain it names only once that domain is one served here.
        let home_domain = match challenge_home_domain(transaction) {
            Some(named) => self.served_home_domain(&named).await?.domain,
            None => self.home_domain(),
        };
        let now = Timestamp::now();
        let expected = Expected {
            network_passphrase: &network_passphrase,
            server_account: &server_account,
            home_domain: &home_domain,
            web_auth_domain: &home_domain,
            now: unix_seconds(now),
        };
        let verified = verify_challenge(transaction, &expected).map_err(refuse)?;
        let expires_at =
            Timestamp::from_millis(i64::try_from(verified.expires_at.saturating_mul(1000)).unwrap_or(i64::MAX));
        if !self.store.spend_challenge(&verified.hash_hex, expires_at, now).await? {
            return Err(refuse("this challenge was already exchanged for a token: ask for a new one".into()));
        }
        let iat = unix_seconds(now);
        let claims = Claims {
            iss: self.web_auth_endpoint(),
            sub: match verified.memo {
                Some(memo) => format!("{}:{memo}", verified.account),
                None => verified.account,
            },
            iat,
            exp: iat + TOKEN_TTL_SECS,
            jti: verified.hash_hex,
            home_domain,
            client_domain: verified.client_domain,
        };
        jsonwebtoken::encode(&Header::new(Algorithm::HS256), &claims, &EncodingKey::from_secret(&token_key(&seed)))
            .map_err(|e| ServiceError::Unavailable(format!("the token could not be signed: {e}")))
    }

    /// The wallet a bearer token speaks for: `Forbidden` unless it is one of Lajan's, for this
    /// deployment's wallet network, and not expired.
    pub async fn wallet_session(&self, token: &str) -> ServiceResult<WalletSession> {
        const REFUSED: &str = "A valid SEP-10 token is required: authenticate at the WEB_AUTH_ENDPOINT";
        let (env, _) = self.wallet_network();
        let seed = self.required_signing_seed(env).await?;
        let mut validation = Validation::new(Algorithm::HS256);
        validation.set_issuer(&[self.web_auth_endpoint()]);
        validation.set_required_spec_claims(&["exp", "iss", "sub"]);
        validation.leeway = 0;
        let claims = jsonwebtoken::decode::<Claims>(token, &DecodingKey::from_secret(&token_key(&seed)), &validation)
            .map_err(|_| ServiceError::Forbidden(REFUSED))?
            .claims;
        let (account, memo) = match claims.sub.split_once(':') {
            Some((account, memo)) => (account, Some(memo.parse().map_err(|_| ServiceError::Forbidden(REFUSED))?)),
            None => (claims.sub.as_str(), None),
        };
        Ok(WalletSession { env, account: account.to_owned(), memo })
    }

    /// Where wallets authenticate: the SEP-10 endpoint on Lajan's public address, named by the
    /// `stellar.toml`'s `WEB_AUTH_ENDPOINT` and every token's `iss`.
    pub fn web_auth_endpoint(&self) -> String {
        self.public_link("/auth")
    }
}

/// The token key, derived from the signing seed rather than configured beside it: one secret to
/// keep, and rotating the signing key ends every token it vouched for. The prefix keeps the
/// derived key from ever equalling a hash of the seed used elsewhere.
fn token_key(seed: &SecretString) -> [u8; 32] {
    let mut hasher = Sha256::new();
    hasher.update(b"lajan sep10 token key\0");
    hasher.update(seed.expose_secret().as_bytes());
    hasher.finalize().into()
}
