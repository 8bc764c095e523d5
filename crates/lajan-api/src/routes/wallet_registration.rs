//! The interactive page of a wallet's SEP-24 deposit, `/wallet-registration/{token}`: the
//! registration page's steps (a code to the receiver's phone, the organization's question) after
//! the receiver gives the contact the organization knows, then the wallet's own account
//! registered with one press, no address typed. Served with the registration page's headers.

use super::register::{
    Page, PageForm, PageQuery, find_page, guarded_step, page_headers, page_response, refused_page, render, templates,
};
use crate::state::AppState;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::{Extension, Router};
use lajan_domain::invitation::Step;
use lajan_domain::network::ClientAddress;
use lajan_i18n::Lang;
use lajan_i18n::typed::read_date;
use lajan_services::wallet_registration::WalletRegistration;
use minijinja::context;
use serde::Deserialize;
use std::net::IpAddr;
use std::time::Duration;
use tokio::time::Instant;

pub(crate) fn routes() -> Router<AppState> {
    page_headers(
        Router::new()
            .route("/wallet-registration/{token}", get(page))
            .route("/wallet-registration/{token}/{step}", post(submit)),
    )
}

/// The fields of every step (each reads its own).
#[derive(Deserialize, Default)]
struct StepForm {
    #[serde(default)]
    contact: String,
    #[serde(default)]
    code: String,
    #[serde(default)]
    answer: String,
}

/// The page's language: the one the URL names, else the wallet's, else the receiver's once
/// known, else Haitian Creole.
fn language(w: &WalletRegistration, named: Option<Lang>) -> Lang {
    named
        .or_else(|| Lang::parse(&w.deposit.lang))
        .or_else(|| w.registration.as_ref().map(|r| r.lang()))
        .unwrap_or(Lang::Ht)
}

/// The deposit a link opens, or the answer for a link that opens none.
async fn open(
    state: &AppState,
    client: IpAddr,
    token: &str,
    named: Option<Lang>,
) -> Result<WalletRegistration, Response> {
    find_page(state, client, token, named.unwrap_or(Lang::Ht), || state.services.wallet_registration(token)).await
}

/// The deposit's page, for `w`'s wallet account.
fn page_of<'a>(w: &'a WalletRegistration, token: &str, named: Option<Lang>) -> Page<'a> {
    Page {
        base: format!("/wallet-registration/{token}"),
        lang: language(w, named),
        named: named.is_some(),
        wallet_account: Some(w.deposit.account.as_str()),
    }
}

fn show(w: &WalletRegistration, page: &Page<'_>, refused: Option<String>, status: StatusCode) -> Response {
    // Until this page's own code is confirmed it is the same whether or not the contact matched
    // an invitation (no organization, no amount), so it never tells whose phone has one.
    let proved = w.contact_confirmed() || w.deposit.registered_at.is_some();
    if let Some(r) = w.registration.as_ref().filter(|r| proved && r.step != Step::ConfirmContact) {
        return render(r, page, refused, status);
    }
    let step = if w.contact_given { "confirm_contact" } else { "contact" };
    page_response(status, |nonce| {
        templates().get_template("register.html")?.render(context! {
            nonce, step,
            lang => page.lang,
            query => page.query(),
            refusal => refused,
            code_sent => true,
            sandbox => !w.deposit.env.is_live(),
            base => page.base,
            wallet_account => page.wallet_account,
        })
    })
}

async fn page(
    State(state): State<AppState>,
    Extension(ClientAddress(client)): Extension<ClientAddress>,
    Path(token): Path<String>,
    Query(query): Query<PageQuery>,
) -> Response {
    let named = query.lang.as_deref().and_then(Lang::parse);
    match open(&state, client, &token, named).await {
        Ok(w) => show(&w, &page_of(&w, &token, named), None, StatusCode::OK),
        Err(refused) => refused,
    }
}

/// A step that may send a code (`contact`, `code`) answers no sooner than this, whether the
/// contact has an invitation or not: a matched contact costs a few more reads and a message
/// queued, and that difference must not tell a stranger which numbers are invited.
const CONTACT_STEP_FLOOR: Duration = Duration::from_millis(300);

/// `POST /wallet-registration/{token}/{step}`: `contact`, `code` (another one), `confirm`,
/// `verify`, or `wallet` (register the account again after fixing what was refused). The last
/// step that leaves only the wallet to give registers the account at once.
async fn submit(
    State(state): State<AppState>,
    Extension(ClientAddress(client)): Extension<ClientAddress>,
    Path((token, action)): Path<(String, String)>,
    Query(query): Query<PageQuery>,
    PageForm(form): PageForm<StepForm>,
) -> Response {
    let named = query.lang.as_deref().and_then(Lang::parse);
    let w = match open(&state, client, &token, named).await {
        Ok(w) => w,
        Err(refused) => return refused,
    };
    let services = &state.services;
    let lang = language(&w, named);
    let floor = matches!(action.as_str(), "contact" | "code").then(|| Instant::now() + CONTACT_STEP_FLOOR);
    let step = async {
        let done = match action.as_str() {
            "contact" => services.give_wallet_contact(&w, &form.contact).await,
            "code" => services.resend_wallet_code(&w).await,
            "confirm" => services.confirm_wallet_code(&w, &form.code).await,
            "verify" => services.answer_wallet_question(&w, &read_date(lang, &form.answer)).await,
            "wallet" if w.contact_confirmed() => Ok(()),
            _ => return None,
        };
        if let Some(floor) = floor {
            tokio::time::sleep_until(floor).await;
        }
        Some(done)
    };
    let done = match guarded_step(&state, client, lang, &action, step).await {
        Ok(done) => done,
        Err(answer) => return answer,
    };
    // Read again once: the step may have moved (a wrong try may have locked it), and when only
    // the wallet is left it is registered (a refused registration changes nothing).
    let now = match services.wallet_registration(&token).await {
        Ok(Some(now)) => now,
        _ => w,
    };
    let done = match done {
        Ok(()) if now.contact_confirmed() && now.registration.as_ref().is_some_and(|r| r.step == Step::Wallet) => {
            services.finish_wallet_registration(&now).await
        }
        done => done,
    };
    let page = page_of(&now, &token, named);
    let Err(e) = done else { return Redirect::to(&page.url()).into_response() };
    refused_page(&e, page.lang, |words, status| show(&now, &page, Some(words), status))
}
