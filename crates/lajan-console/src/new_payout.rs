//! A single payout from the console (makers and admins): the form (any client, those without a
//! wallet marked as the ones who will be invited to register one, or a wallet address; amount,
//! asset, memo) and its post, which creates the payout through the API's
//! service method as the user, once however often the form is posted.

use crate::guard::Makers;
use crate::guard::{Protected, Signed, filled};
use crate::lists;
use crate::numbers::TypedNumbers;
use crate::once::{self, Before};
use crate::pages::{self, render};
use crate::state::Console;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use lajan_domain::asset::ASSETS;
use lajan_domain::payout::PayoutDetail;
use lajan_domain::user::Duty;
use lajan_services::ServiceError;
use lajan_services::payouts::PayoutRequest;
use lajan_store::{IdempotentResponse, StoreError};
use minijinja::context;
use serde::{Deserialize, Serialize};

const PATH: &str = "/console/payouts";

/// The form's fields, as posted and as shown again beside what was wrong with them.
#[derive(Deserialize, Serialize, Default)]
pub(crate) struct PayoutForm {
    #[serde(default)]
    once: String,
    #[serde(default)]
    client: String,
    #[serde(default)]
    wallet: String,
    #[serde(default)]
    amount: String,
    #[serde(default)]
    asset: String,
    #[serde(default)]
    memo: String,
}

async fn form_page(
    console: &Console,
    signed: &Signed,
    status: StatusCode,
    form: &PayoutForm,
    errors: Vec<String>,
) -> Response {
    let clients = match lists::client_choices(console, &signed.session.tenant()).await {
        Ok(clients) => clients,
        Err(e) => return pages::failure(&e),
    };
    let assets: Vec<&str> = ASSETS.iter().map(|a| a.code).collect();
    let values = context! { frame => signed.frame(), form, clients, assets, errors };
    render(status, "payout_new.html", values)
}

pub(crate) async fn form(State(console): State<Console>, signed: Signed) -> Response {
    if let Some(refused) = signed.refused_unless(Duty::Prepare) {
        return refused;
    }
    let once = match once::new_key() {
        Ok(once) => once,
        Err(e) => return pages::failure(&e),
    };
    let form = PayoutForm { once, asset: "USDC".into(), ..Default::default() };
    form_page(&console, &signed, StatusCode::OK, &form, Vec::new()).await
}

pub(crate) async fn create(State(console): State<Console>, request: Protected<PayoutForm, Makers>) -> Response {
    let (signed, form) = (&request.signed, &request.form);
    let tenant = signed.session.tenant();
    let claim = match once::before(&console, &tenant, signed.frame(), PATH, &form.once).await {
        Ok(Before::Fresh(claim)) => claim,
        Ok(Before::Made(made)) => return made,
        Err(refused) => return refused,
    };
    let mut numbers = TypedNumbers::default();
    let payout = PayoutRequest {
        client_id: filled(&form.client),
        wallet_account_id: filled(&form.wallet),
        asset_amount: numbers.read("assetAmount", &form.amount),
        asset_code: filled(&form.asset),
        asset_issuer: None,
        memo: filled(&form.memo),
    };
    let page_of = |d: &PayoutDetail| format!("/console/payouts/{}", d.payout.id);
    let body = |d: &PayoutDetail| page_of(d).into_bytes();
    let answer = IdempotentResponse { claim: &claim, status: 303, body: &body };
    match console.services.create_payout(&tenant, payout, Some(answer)).await {
        Ok(made) => Redirect::to(&page_of(&made)).into_response(),
        Err(ServiceError::Store(StoreError::IdempotencyKeyTaken)) => once::taken(&console, &tenant, &claim).await,
        Err(ServiceError::Invalid(refusal)) => {
            form_page(&console, signed, StatusCode::BAD_REQUEST, form, numbers.lines(&refusal)).await
        }
        Err(e) => pages::failure(&e),
    }
}
