//! The registration page `/r/{token}`: public (the link is the capability), server-rendered,
//! phone-first, no external assets, in the receiver's language (their client's, or the one the
//! link names). It walks a receiver through the steps [`lajan_services::registration`] keeps:
//! a code to their phone, the organization's question, a Stellar address checked on the network;
//! then it shows their payouts. Each step is a plain form POST answered by a redirect back to the
//! page, or by the page again with what was refused (a 4xx that changed nothing but a count of
//! wrong tries). A link Lajan never sent counts as a miss against the address, as `/pay` does.

use super::pay::{page_policy, plain_page, too_many_guesses};
use crate::serve::BodyTimeout;
use crate::state::AppState;
use axum::extract::{FromRequest, Path, Query, Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::{Extension, Router};
use lajan_domain::Timestamp;
use lajan_domain::invitation::Step;
use lajan_domain::network::ClientAddress;
use lajan_domain::payout::ExecStatus;
use lajan_domain::stellar_memo::StellarMemo;
use lajan_i18n::typed::read_date;
use lajan_i18n::{Lang, text};
use lajan_services::ServiceError;
use lajan_services::registration::{CheckPage, Registration};
use lajan_services::views::money;
use minijinja::{Environment, context};
use serde::Deserialize;
use std::net::IpAddr;
use std::sync::OnceLock;
use tower_http::set_header::SetResponseHeaderLayer;

/// The same headers as the payment page: nothing frames it, sends it on as a referrer, or
/// keeps it in a cache.
pub(crate) fn routes() -> Router<AppState> {
    page_headers(Router::new().route("/r/{token}", get(page)).route("/r/{token}/{step}", post(submit)))
}

/// The headers of a receiver's page (this one, and a wallet's deposit page).
pub(crate) fn page_headers(router: Router<AppState>) -> Router<AppState> {
    let fixed = |name, value| SetResponseHeaderLayer::overriding(name, HeaderValue::from_static(value));
    router
        .layer(SetResponseHeaderLayer::if_not_present(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static("default-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"),
        ))
        .layer(fixed(header::X_FRAME_OPTIONS, "DENY"))
        .layer(fixed(header::REFERRER_POLICY, "no-referrer"))
        .layer(fixed(header::CACHE_CONTROL, "no-store"))
}

pub(crate) fn templates() -> &'static Environment<'static> {
    static ENV: OnceLock<Environment<'static>> = OnceLock::new();
    ENV.get_or_init(|| {
        let mut env = Environment::new();
        lajan_i18n::add_to(&mut env);
        env.add_template("register.html", include_str!("../../templates/register.html"))
            .unwrap_or_else(|e| panic!("the registration page template does not parse: {e}"));
        env
    })
}

#[derive(Deserialize)]
pub(crate) struct PageQuery {
    pub(crate) lang: Option<String>,
}

/// The form fields of every step (each step reads its own).
#[derive(Deserialize, Default)]
pub(crate) struct StepForm {
    #[serde(default)]
    code: String,
    #[serde(default)]
    answer: String,
    #[serde(default)]
    address: String,
    /// Empty when the wallet asks for none.
    #[serde(default)]
    memo: String,
}

/// A receiver page's form, read whole (its 408 page in the language the URL names, else Creole,
/// the receiver's being unknown before the page is opened). A body that is not a form reads as empty (each step
/// refuses what it misses); one that did not arrive within the body timeout is answered 408 in
/// the page's words, as `/v1` answers `request_timeout`.
pub(crate) struct PageForm<T>(pub T);

impl<S: Send + Sync, T: serde::de::DeserializeOwned + Default> FromRequest<S> for PageForm<T> {
    type Rejection = Response;

    async fn from_request(req: Request, state: &S) -> Result<Self, Response> {
        let named = req.uri().query().and_then(|q| serde_urlencoded::from_str::<PageQuery>(q).ok());
        let lang = named.and_then(|q| q.lang.as_deref().and_then(Lang::parse)).unwrap_or(Lang::Ht);
        match axum::body::Bytes::from_request(req, state).await {
            Ok(body) => Ok(PageForm(serde_urlencoded::from_bytes(&body).unwrap_or_default())),
            Err(rejection) if BodyTimeout::caused(&rejection) => {
                Err(plain_page(StatusCode::REQUEST_TIMEOUT, lang, "register-timeout-title", "register-timeout", &[]))
            }
            Err(rejection) => Err(rejection.into_response()),
        }
    }
}

/// Only tokens shaped as Lajan makes them (22 URL-safe characters) are looked up.
fn plausible(token: &str) -> bool {
    token.len() == 22 && token.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// The receiver's page, or the answer for a link that opens none.
async fn open(
    state: &AppState,
    client: IpAddr,
    token: &str,
    named: Option<Lang>,
) -> Result<(Registration, Lang), Response> {
    let r = find_page(state, client, token, named.unwrap_or(Lang::Ht), || state.services.registration(token)).await?;
    let lang = named.unwrap_or_else(|| r.lang());
    if r.step == Step::Expired {
        return Err(plain_page(StatusCode::GONE, lang, "register-gone-title", "register-gone", &[]));
    }
    Ok((r, lang))
}

/// What a receiver's link (an invitation's, or a wallet deposit's) opens, found by `find` only
/// while the address may still guess and for a token shaped as Lajan makes them. A link that
/// opens nothing counts as a miss against the address, as `/pay` does, and is answered "gone"
/// (or "too many guesses" once the address has missed too often).
pub(crate) async fn find_page<T, Found>(
    state: &AppState,
    client: IpAddr,
    token: &str,
    lang: Lang,
    find: impl FnOnce() -> Found,
) -> Result<T, Response>
where
    Found: Future<Output = Result<Option<T>, ServiceError>>,
{
    if let Some(retry_after) = state.pay_misses.blocked(client, Timestamp::now()) {
        return Err(too_many_guesses(retry_after, lang));
    }
    let found = if plausible(token) { find().await } else { Ok(None) };
    match found {
        Ok(Some(found)) => Ok(found),
        Ok(None) => {
            let limit = state.config.pay_miss_limit;
            Err(match state.pay_misses.miss(state.limiter.as_ref(), limit, client, Timestamp::now()).await {
                Some(retry_after) => too_many_guesses(retry_after, lang),
                None => plain_page(StatusCode::NOT_FOUND, lang, "register-gone-title", "register-gone", &[]),
            })
        }
        Err(e) => Err(crate::error::ApiError::from(e).into_response()),
    }
}

async fn page(
    State(state): State<AppState>,
    Extension(ClientAddress(client)): Extension<ClientAddress>,
    Path(token): Path<String>,
    Query(query): Query<PageQuery>,
) -> Response {
    let named = query.lang.as_deref().and_then(Lang::parse);
    match open(&state, client, &token, named).await {
        Ok((r, lang)) => render(&r, &Page::link(&token, lang, named.is_some()), None, StatusCode::OK),
        Err(refused) => refused,
    }
}

/// A refused step's answer: the page as `show` draws it with the receiver's words for `e`, its
/// status, and `Retry-After` when the step may be tried again later.
pub(crate) fn refused_page(
    e: &ServiceError,
    lang: Lang,
    show: impl FnOnce(String, StatusCode) -> Response,
) -> Response {
    let (status, words) = refusal(e, lang);
    let mut response = show(words, status);
    if let ServiceError::TooSoon { retry_after_seconds, .. } = e {
        response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(*retry_after_seconds));
    }
    response
}

/// The status and the receiver's words for a refused step.
fn refusal(e: &ServiceError, lang: Lang) -> (StatusCode, String) {
    match e {
        ServiceError::Invalid(invalid) => {
            let asset = invalid.details.first().map(|d| d.message.clone()).unwrap_or_default();
            let status = if invalid.code == "locked" { StatusCode::FORBIDDEN } else { StatusCode::BAD_REQUEST };
            (status, text(lang, &format!("register-refused-{}", invalid.code), &[("asset", asset)]))
        }
        ServiceError::TooSoon { message, retry_after_seconds } => {
            // Either a code asked for again too soon, or every answer checker is busy.
            let key = if *message == lajan_services::password_gate::BUSY {
                "register-refused-busy"
            } else {
                "register-refused-too_soon"
            };
            (StatusCode::TOO_MANY_REQUESTS, text(lang, key, &[("seconds", retry_after_seconds.to_string())]))
        }
        ServiceError::Unavailable(why) => {
            tracing::warn!(%why, "a registration step could not be checked");
            (StatusCode::SERVICE_UNAVAILABLE, text(lang, "register-refused-unavailable", &[]))
        }
        // The client was archived since the link went out.
        ServiceError::NotFound(_) => (StatusCode::GONE, text(lang, "register-gone", &[])),
        other => {
            tracing::error!(error = %other, "a registration step failed");
            (StatusCode::INTERNAL_SERVER_ERROR, text(lang, "register-refused-unavailable", &[]))
        }
    }
}

/// Runs one step of a receiver's page (an invitation's or a wallet deposit's) behind the guards
/// both pages share. A `confirm` from an address that gave its wrong codes for the hour is not
/// even tried, so a right guess among the refusals is never told apart; a wrong code counts
/// against the address, and the one past `LAJAN_CODE_MISS_LIMIT` this hour is answered 429.
/// `step` answers `None` for a step its page does not have ("gone", 404). `Err` is the page to
/// answer instead of the step's outcome.
pub(crate) async fn guarded_step(
    state: &AppState,
    client: IpAddr,
    lang: Lang,
    action: &str,
    step: impl Future<Output = Option<Result<(), ServiceError>>>,
) -> Result<Result<(), ServiceError>, Response> {
    if action == "confirm"
        && let Some(retry_after) = state.code_misses.blocked(client, Timestamp::now())
    {
        return Err(too_many_guesses(retry_after, lang));
    }
    let Some(done) = step.await else {
        return Err(plain_page(StatusCode::NOT_FOUND, lang, "register-gone-title", "register-gone", &[]));
    };
    if let Err(ServiceError::Invalid(invalid)) = &done
        && matches!(invalid.code, "wrong_code" | "too_many_codes")
    {
        let limit = state.config.code_miss_limit;
        if let Some(retry_after) = state.code_misses.miss(state.limiter.as_ref(), limit, client, Timestamp::now()).await
        {
            return Err(too_many_guesses(retry_after, lang));
        }
    }
    Ok(done)
}

/// `POST /r/{token}/{step}`: `code` (send one), `confirm` (the code), `verify` (the answer) or
/// `wallet` (the address).
async fn submit(
    State(state): State<AppState>,
    Extension(ClientAddress(client)): Extension<ClientAddress>,
    Path((token, action)): Path<(String, String)>,
    Query(query): Query<PageQuery>,
    // A bare POST (no body, no Content-Type: "send me a code" from curl) has empty fields.
    PageForm(form): PageForm<StepForm>,
) -> Response {
    let named = query.lang.as_deref().and_then(Lang::parse);
    let (r, lang) = match open(&state, client, &token, named).await {
        Ok(found) => found,
        Err(refused) => return refused,
    };
    let services = &state.services;
    let step = async {
        Some(match action.as_str() {
            "code" => services.send_registration_code(&r).await,
            "confirm" => services.confirm_registration_code(Some(&r), CheckPage::Link, &form.code).await,
            "verify" => {
                services.answer_registration_question(&r, CheckPage::Link, &read_date(lang, &form.answer)).await
            }
            "wallet" => {
                services.register_receiver_wallet(&r, CheckPage::Link, &form.address, &form.memo).await.map(drop)
            }
            _ => return None,
        })
    };
    let done = match guarded_step(&state, client, lang, &action, step).await {
        Ok(done) => done,
        Err(answer) => return answer,
    };
    let page = Page::link(&token, lang, named.is_some());
    let Err(e) = done else { return Redirect::to(&page.url()).into_response() };
    // The page as it is now: a wrong try may have locked it.
    let r = match services.registration(&token).await {
        Ok(Some(now)) => now,
        _ => r,
    };
    refused_page(&e, lang, |words, status| render(&r, &page, Some(words), status))
}

/// `+50937000001` as `+509 •••• 0001`, `rose@example.ht` as `r•••@example.ht`: enough for the
/// receiver to recognise, not enough for someone looking over their shoulder.
fn masked(phone: Option<&str>, email: Option<&str>) -> String {
    if let Some(phone) = phone {
        let digits: Vec<char> = phone.chars().collect();
        let tail: String = digits[digits.len().saturating_sub(4)..].iter().collect();
        let head: String = digits.iter().take(4).collect();
        return format!("{head} •••• {tail}");
    }
    match email.and_then(|e| e.split_once('@')) {
        Some((user, domain)) => format!("{}•••@{domain}", user.chars().next().unwrap_or('•')),
        None => String::new(),
    }
}

/// Amounts of assets joined by ` + `, as the page's language writes numbers (`14,50 USDC + 20,00 HTG`
/// in Creole and French).
fn amounts<'a>(lang: Lang, pairs: impl Iterator<Item = (&'a str, i64)>) -> String {
    pairs.map(|(asset, cents)| asset_amount(lang, asset, cents)).collect::<Vec<_>>().join(" + ")
}

fn asset_amount(lang: Lang, asset: &str, cents: i64) -> String {
    format!("{} {asset}", lajan_i18n::formats::amount(lang, &money(cents)))
}

fn step_name(step: Step) -> &'static str {
    match step {
        Step::ConfirmContact => "confirm_contact",
        Step::Verify => "verify",
        Step::Wallet => "wallet",
        Step::Registered => "registered",
        Step::Locked => "locked",
        Step::Expired => "expired",
    }
}

/// Which page a registration is shown on: its invitation's link, or a wallet's deposit page
/// (which registers the account the wallet authenticated).
pub(crate) struct Page<'a> {
    /// Where the page is and its steps post to.
    pub base: String,
    pub lang: Lang,
    /// The language was named in the URL (and stays named in the forms').
    pub named: bool,
    /// The wallet's account, on a deposit page.
    pub wallet_account: Option<&'a str>,
}

impl Page<'_> {
    fn link(token: &str, lang: Lang, named: bool) -> Page<'static> {
        Page { base: format!("/r/{token}"), lang, named, wallet_account: None }
    }

    /// What the page's links and forms carry after their path: the language, when it was named.
    pub(crate) fn query(&self) -> String {
        if self.named { format!("?lang={}", self.lang.code()) } else { String::new() }
    }

    /// Where the page is, as a step's redirect goes back to it.
    pub(crate) fn url(&self) -> String {
        format!("{}{}", self.base, self.query())
    }
}

/// The page with a random nonce for its inline style, as an HTML answer with its policy.
pub(crate) fn page_response(
    status: StatusCode,
    render: impl FnOnce(&str) -> Result<String, minijinja::Error>,
) -> Response {
    let nonce = lajan_domain::hex::encode(&rand::random::<[u8; 16]>());
    let html = match render(&nonce) {
        Ok(html) => html,
        Err(e) => return crate::error::ApiError::internal(&e).into_response(),
    };
    let mut response = (status, Html(html)).into_response();
    if let Ok(policy) = HeaderValue::from_str(&page_policy(&nonce)) {
        response.headers_mut().insert(header::CONTENT_SECURITY_POLICY, policy);
    }
    response
}

pub(crate) fn render(r: &Registration, page: &Page<'_>, refusal: Option<String>, status: StatusCode) -> Response {
    let lang = page.lang;
    let (due, client) = (&r.due, &r.due.client);
    let now = Timestamp::now();
    let code_sent = due.invitation.checks.code_live(now);
    let waiting = if due.waiting.is_empty() {
        let mut totals: Vec<(&str, i64)> = Vec::new();
        for p in &r.payouts {
            match totals.iter_mut().find(|(code, _)| *code == p.payout.asset_code.as_str()) {
                Some((_, sum)) => *sum += p.payout.asset_amount,
                None => totals.push((p.payout.asset_code.as_str(), p.payout.asset_amount)),
            }
        }
        amounts(lang, totals.into_iter())
    } else {
        amounts(lang, due.waiting.iter().map(|(code, cents)| (code.as_str(), *cents)))
    };
    let payouts: Vec<_> = r
        .payouts
        .iter()
        .map(|p| {
            let state = match p.payout.exec {
                ExecStatus::Sent => "sent",
                ExecStatus::Failed => "failed",
                ExecStatus::Canceled => "canceled",
                _ => "waiting",
            };
            context! { amount => asset_amount(lang, p.payout.asset_code.as_str(), p.payout.asset_amount), state }
        })
        .collect();
    // Suggested from the first step, so a receiver installs one while the code is on its way:
    // only those that receive what waits for them (every one when nothing waits any more).
    let wallets: Vec<_> = due
        .settings
        .recommended_wallets
        .iter()
        .filter(|w| due.waiting.is_empty() || due.waiting.iter().any(|(code, _)| w.receives(code)))
        .map(|w| {
            let assets: Vec<&str> = w.assets.iter().map(|a| a.as_str()).collect();
            context! { name => w.name, url => w.url, assets => assets.join(", ") }
        })
        .collect();
    let open_in: Vec<_> = r.wallet_links.iter().map(|w| context! { name => w.name, link => w.link }).collect();
    page_response(status, |nonce| {
        templates().get_template("register.html")?.render(context! {
            lang, nonce, refusal, waiting, payouts, wallets, code_sent, open_in,
            sandbox => !due.invitation.tenant.env.is_live(),
            organization => due.organization,
            step => step_name(r.step),
            contact => masked(client.phone_number.as_deref(), client.email.as_deref()),
            question => client.verification.as_ref().map(|v| v.kind.as_str()),
            wallet => client.wallet_account_id,
            memo => client.wallet_memo.as_ref().map(StellarMemo::value),
            base => page.base,
            query => page.query(),
            wallet_account => page.wallet_account,
        })
    })
}

#[cfg(test)]
mod tests {
    use lajan_i18n::{Lang, catalogue_keys};

    /// Every refusal a step can answer has the receiver's words in each language.
    #[test]
    fn every_refusal_is_worded_in_each_language() {
        let codes = [
            "wrong_step",
            "no_channel_available",
            "wrong_code",
            "code_expired",
            "invalid_answer",
            "locked",
            "wrong_answer",
            "invalid_address",
            "invalid_memo",
            "no_account",
            "no_trustline",
            "registration_incomplete",
            "too_soon",
            "unavailable",
        ];
        for lang in Lang::ALL {
            let keys = catalogue_keys(lang);
            for code in codes {
                assert!(keys.contains(&format!("register-refused-{code}")), "{lang:?} has no words for {code}");
            }
        }
    }
}
