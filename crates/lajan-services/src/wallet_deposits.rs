//! SEP-24 deposits for a wallet a SEP-10 token speaks for: starting one (the link to Lajan's
//! interactive registration page) and reading where the wallet's deposits stand.

use crate::invitations::new_token;
use crate::stellar_service::refuse;
use crate::wallet_auth::WalletSession;
use crate::{ServiceError, ServiceResult, Services};
use lajan_domain::Timestamp;
use lajan_domain::id::IdKind;
use lajan_domain::wallet_deposit::{LINK_TTL_MS, OPEN_DEPOSITS_PER_ACCOUNT, WalletDeposit};
use lajan_i18n::Lang;
use lajan_store::DepositQuery;

/// The most deposits left unfinished with a working link at once, deployment-wide: anyone can
/// authenticate a new account, so this bounds what they can open together, beside the caps per
/// account (`OPEN_DEPOSITS_PER_ACCOUNT`) and per client address (`LAJAN_DEPOSIT_LIMIT`).
const MAX_OPEN_DEPOSITS: i64 = 10_000;

/// The most deposits one listing answers.
pub const MAX_LISTED: i64 = 100;

/// A deposit just started: its id and the page the wallet opens for its user.
#[derive(Debug)]
pub struct StartedDeposit {
    pub id: String,
    pub url: String,
}

impl Services {
    /// Starts a deposit of `asset_code` to the session's account: the link to the interactive
    /// page, for `LINK_TTL_MS`. `account`, when the wallet names one, must be the session's
    /// (Lajan registers the account that proved itself, never another); `lang` the page's
    /// language (`en`, `fr`, `ht`; otherwise the receiver's own once known).
    pub async fn start_wallet_deposit(
        &self,
        session: &WalletSession,
        asset_code: Option<&str>,
        account: Option<&str>,
        lang: Option<&str>,
    ) -> ServiceResult<StartedDeposit> {
        let asset_code = asset_code.filter(|c| !c.is_empty()).ok_or_else(|| refuse("asset_code is required".into()))?;
        if !self.deposit_assets().iter().any(|a| a.code == asset_code) {
            return Err(refuse(format!(
                "asset_code {asset_code:?} is not an asset this service pays out: see /sep24/info"
            )));
        }
        if let Some(other) = account.filter(|a| !a.is_empty() && *a != session.account) {
            return Err(refuse(format!(
                "account {other} is not the authenticated account: deposits go to the account that signed the challenge"
            )));
        }
        let now = Timestamp::now();
        if self.store.open_wallet_deposits(now, MAX_OPEN_DEPOSITS).await? >= MAX_OPEN_DEPOSITS {
            return Err(ServiceError::Unavailable(
                "Too many registrations are in progress: try again in a few minutes".into(),
            ));
        }
        let (token, hash) = new_token()?;
        let deposit = WalletDeposit {
            id: IdKind::WalletDeposit.generate(),
            env: session.env,
            account: session.account.clone(),
            memo: session.memo,
            asset_code: asset_code.to_owned(),
            lang: lang.and_then(Lang::parse).map(|l| l.code().to_owned()).unwrap_or_default(),
            started_at: now,
            updated_at: now,
            link_expires_at: now.plus_millis(LINK_TTL_MS),
            registered_at: None,
            payout: None,
        };
        if !self.store.start_wallet_deposit(&deposit, &hash, OPEN_DEPOSITS_PER_ACCOUNT).await? {
            return Err(ServiceError::TooSoon {
                message: "This account has 20 registrations in progress: finish one, or wait until its link expires (30 minutes)",
                retry_after_seconds: 60,
            });
        }
        let url = self.public_link(&format!("/wallet-registration/{token}"));
        Ok(StartedDeposit { id: deposit.id, url })
    }

    /// One of the session's deposits; `NotFound` for any other.
    pub async fn wallet_deposit(&self, session: &WalletSession, id: &str) -> ServiceResult<WalletDeposit> {
        self.store
            .wallet_deposit(session.env, &session.account, session.memo, id)
            .await?
            .ok_or(ServiceError::NotFound("transaction"))
    }

    /// The session's deposits, newest first, at most [`MAX_LISTED`].
    pub async fn wallet_deposits(
        &self,
        session: &WalletSession,
        q: DepositQuery<'_>,
    ) -> ServiceResult<Vec<WalletDeposit>> {
        let q = DepositQuery { limit: q.limit.clamp(1, MAX_LISTED), ..q };
        Ok(self.store.wallet_deposits(session.env, &session.account, session.memo, &q).await?)
    }
}
