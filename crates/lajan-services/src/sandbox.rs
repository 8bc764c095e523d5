//! Sandbox tools: topping up the organization's simulated account (the simulated customer
//! payment is with the payments in `payments.rs`).

use crate::{ServiceError, ServiceResult, Services};
use lajan_domain::asset::{self, ASSETS};
use lajan_domain::money::parse_amount;
use lajan_domain::{FieldError, Invalid, Tenant};
use lajan_store::IdempotentResponse;

/// Every balance of a sandbox account, in cents by asset code.
pub type Balances = Vec<(String, i64)>;

/// A sandbox asset code, exactly as the sandbox account holds it.
fn sandbox_asset(code: &str) -> Result<&'static str, Invalid> {
    if let Some(known) = asset::find(code) {
        return Ok(known.code);
    }
    let message = match ASSETS.iter().map(|a| a.code).find(|a| a.eq_ignore_ascii_case(code)) {
        Some(meant) => {
            format!("assetCode {code:?} is not a sandbox asset: asset codes are case-sensitive, did you mean {meant}?")
        }
        None => format!("assetCode {code:?} is not a sandbox asset: expected one of {}", asset::codes()),
    };
    Err(Invalid::new("invalid_asset_code", message))
}

/// Sandbox tools answer sandbox keys only.
pub fn sandbox_only(tenant: &Tenant) -> ServiceResult<()> {
    if tenant.env.is_live() {
        return Err(ServiceError::Forbidden("Sandbox tools need a sandbox key (sk_test_...)"));
    }
    Ok(())
}

impl Services {
    /// Adds `amount` (exact decimal text) of `asset_code` to the tenant's sandbox account and
    /// returns every balance after it. Sandbox tenants only.
    pub async fn top_up_sandbox(
        &self,
        tenant: &Tenant,
        asset_code: Option<String>,
        amount: Option<String>,
        idempotency: Option<IdempotentResponse<'_, Balances>>,
    ) -> ServiceResult<Balances> {
        sandbox_only(tenant)?;
        let mut missing = Vec::new();
        for (field, present) in [("assetCode", asset_code.is_some()), ("amount", amount.is_some())] {
            if !present {
                missing.push(FieldError::new(field, "is required"));
            }
        }
        let (Some(code), Some(amount)) = (asset_code, amount) else { return Err(Invalid::fields(missing).into()) };
        let code = sandbox_asset(&code)?;
        let amount = parse_amount("amount", &amount)?;
        Ok(self.store.sandbox_top_up(tenant, code, amount, idempotency).await?)
    }
}
