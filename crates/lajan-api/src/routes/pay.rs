//! The hosted payment page `GET /pay/{pi_id}`: public (no key), server-rendered, mobile-first,
//! no external assets. It shows what is owed and how to pay it on Stellar (account, asset, memo,
//! a SEP-0007 URI and its QR code). The first GET of a sent invoice's page marks it viewed (a
//! HEAD never does). Sandbox pages offer "Simulate payment", which posts to
//! `/pay/{pi_id}/simulate`. It speaks English, French or Haitian Creole: the one its link names
//! (`?lang=fr`, as an organization may send it, or as the page's own switch sets it), else the
//! first the payer's browser asks for, from the console's catalogues.

use crate::error::ApiError;
use crate::payment_request::{PayRequest, qr_svg, sep7_pay_uri};
use crate::state::AppState;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::{Extension, Router};
use lajan_domain::Timestamp;
use lajan_domain::installment::InstallmentState;
use lajan_domain::invoice::InvoiceStatus;
use lajan_domain::network::ClientAddress;
use lajan_domain::payment::{PaymentIntent, asked_amount};
use lajan_i18n::{Lang, asked_language, text};
use lajan_ledger::sandbox;
use lajan_services::assets;
use lajan_services::payments::refusal;
use lajan_services::views::money;
use lajan_store::incoming_payments::IntentTarget;
use minijinja::{Environment, context};
use serde::Deserialize;
use std::net::IpAddr;
use std::sync::OnceLock;
use tower_http::set_header::SetResponseHeaderLayer;

/// The page's URL is the capability to see what is owed, so nothing may frame it, send it on as
/// a referrer or load anything into it; these headers go on every `/pay` answer, and the page
/// itself adds a policy that lets in its own style and script by nonce.
pub(crate) fn routes() -> Router<AppState> {
    let fixed = |name, value| SetResponseHeaderLayer::overriding(name, HeaderValue::from_static(value));
    Router::new()
        .route("/pay/{id}", get(page))
        .route("/pay/{id}/simulate", post(simulate))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static("default-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"),
        ))
        .layer(fixed(header::X_FRAME_OPTIONS, "DENY"))
        .layer(fixed(header::REFERRER_POLICY, "no-referrer"))
}

/// The page's policy: nothing but its own inline style and script (by this answer's nonce),
/// images from `data:` and its icon from Lajan only, forms posting back to Lajan, never framed.
pub(crate) fn page_policy(nonce: &str) -> String {
    format!(
        "default-src 'none'; style-src 'nonce-{nonce}'; script-src 'nonce-{nonce}'; img-src data: 'self'; \
         form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
    )
}

fn templates() -> &'static Environment<'static> {
    static ENV: OnceLock<Environment<'static>> = OnceLock::new();
    ENV.get_or_init(|| {
        let mut env = Environment::new();
        lajan_i18n::add_to(&mut env);
        // `.html` names turn on HTML auto-escaping of every interpolated value.
        env.add_template("pay.html", include_str!("../../templates/pay.html"))
            .unwrap_or_else(|e| panic!("the payment page template does not parse: {e}"));
        env
    })
}

/// The page's query: the language its link asks for, and the part of what is due the payer
/// chose to pay (an invoice's page, when its organization allows it).
#[derive(Deserialize)]
pub(crate) struct PageQuery {
    lang: Option<String>,
    amount: Option<String>,
}

impl PageQuery {
    /// The language the link names, if it names one the page speaks.
    fn named(&self) -> Option<Lang> {
        self.lang.as_deref().and_then(Lang::parse)
    }
}

/// The language the page speaks: its link's, else the browser's first.
fn language(query: &PageQuery, headers: &HeaderMap) -> Lang {
    query.named().unwrap_or_else(|| asked_language(headers))
}

/// A page of one sentence, for the answers that show no payment.
pub(crate) fn plain_page(
    status: StatusCode,
    lang: Lang,
    title_key: &str,
    text_key: &str,
    args: &[(&str, String)],
) -> Response {
    let (title, said) = (text(lang, title_key, &[]), text(lang, text_key, args));
    let body = format!(
        "<!doctype html><html lang=\"{}\"><meta charset=utf-8><meta name=viewport content=\"width=device-width\"><title>{title}</title><p>{said}</p>",
        lang.code()
    );
    (status, Html(body)).into_response()
}

fn not_found_page(lang: Lang) -> Response {
    plain_page(StatusCode::NOT_FOUND, lang, "not-found", "pay-not-found", &[])
}

/// Only the `pi_` ids Lajan issues can name a page.
fn plausible(id: &str) -> bool {
    id.starts_with("pi_") && id.len() <= 64 && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// 429 for an address that spent its misses, 404 (or 429) for an id Lajan never issues; `None`
/// when the page may be looked up.
async fn refused(state: &AppState, client: IpAddr, id: &str, lang: Lang) -> Option<Response> {
    if let Some(retry_after) = state.pay_misses.blocked(client, Timestamp::now()) {
        return Some(too_many_guesses(retry_after, lang));
    }
    if !plausible(id) {
        return Some(missed(state, client, lang).await);
    }
    None
}

/// A page that does not exist: 404, or 429 once the address has guessed too often.
async fn missed(state: &AppState, client: IpAddr, lang: Lang) -> Response {
    match state.pay_misses.miss(state.limiter.as_ref(), state.config.pay_miss_limit, client, Timestamp::now()).await {
        Some(retry_after) => too_many_guesses(retry_after, lang),
        None => not_found_page(lang),
    }
}

pub(crate) fn too_many_guesses(retry_after: u64, lang: Lang) -> Response {
    let seconds = [("seconds", retry_after.to_string())];
    let mut response = plain_page(StatusCode::TOO_MANY_REQUESTS, lang, "pay-too-many-title", "pay-too-many", &seconds);
    response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(retry_after));
    response
}

async fn page(
    method: Method,
    State(state): State<AppState>,
    Extension(ClientAddress(client)): Extension<ClientAddress>,
    Path(id): Path<String>,
    Query(query): Query<PageQuery>,
    headers: HeaderMap,
) -> Response {
    let lang = language(&query, &headers);
    if let Some(refused) = refused(&state, client, &id, lang).await {
        return refused;
    }
    let nonce = lajan_domain::hex::encode(&rand::random::<[u8; 16]>());
    // A HEAD (a link preview, a crawler checking the URL) reads; only a GET is a person viewing.
    let viewing = method == Method::GET;
    let speaking = (lang, query.named().is_some());
    match render(&state, &id, &nonce, viewing, speaking, query.amount.as_deref()).await {
        Ok(Some(html)) => {
            let mut response = Html(html).into_response();
            let headers = response.headers_mut();
            headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
            // The same address answers in the browser's language unless its link names one.
            headers.insert(header::VARY, HeaderValue::from_static("accept-language"));
            if let Ok(policy) = HeaderValue::from_str(&page_policy(&nonce)) {
                headers.insert(header::CONTENT_SECURITY_POLICY, policy);
            }
            response
        }
        Ok(None) => missed(&state, client, lang).await,
        Err(e) => e.into_response(),
    }
}

/// `speaking`: the page's language, and whether its link named it (then its form keeps it);
/// `chose`: the part of what is due the payer asked to pay.
async fn render(
    state: &AppState,
    id: &str,
    nonce: &str,
    viewing: bool,
    speaking: (Lang, bool),
    chose: Option<&str>,
) -> Result<Option<String>, ApiError> {
    let Some((mut intent, mut target)) = state.store.get_payment_intent(id).await? else { return Ok(None) };
    if let IntentTarget::Invoice(d) = &target
        && viewing
        && d.invoice.status == InvoiceStatus::Sent
    {
        let payer = lajan_domain::Actor::System(lajan_domain::Actor::PAYMENT_PAGE.to_owned());
        let tenant = lajan_domain::Tenant::new(intent.org_id.clone(), intent.env).acting_as(payer);
        let viewed = state.services.mark_viewed(&tenant, &d.invoice.id).await?;
        intent = viewed.intent.clone();
        target = IntentTarget::Invoice(Box::new(viewed));
    }
    let org = state.store.get_organization(&intent.org_id).await?.map(|o| o.name).unwrap_or_default();
    // Live: the configured receiving account, and the configured issuer of the currency.
    let live = state.services.live_ledger().and_then(|ledger| {
        let code = intent.currency.code();
        let issuer = assets::issuer(intent.env, code, &state.services.config.live_asset_issuers);
        (code == lajan_domain::asset::NATIVE || issuer.is_some())
            .then(|| (ledger.receiving_account().to_owned(), issuer))
    });
    let asking = Asking { partial: partial_allowed(state, &intent, &target).await?, chose };
    page_html(&org, &intent, &target, live, nonce, speaking, asking).map(Some)
}

/// Whether the page lets the payer pay part of what is due: an invoice's, when its organization
/// allows it (a payment link asks for its amount).
async fn partial_allowed(state: &AppState, intent: &PaymentIntent, target: &IntentTarget) -> Result<bool, ApiError> {
    if !matches!(target, IntentTarget::Invoice(_)) {
        return Ok(false);
    }
    let tenant = lajan_domain::Tenant::new(intent.org_id.clone(), intent.env);
    Ok(state.store.get_settings(&tenant).await?.invoicing.allow_partial_payments)
}

/// The instalment an invoice's page asks for: the oldest not paid in full.
fn next_installment(target: &IntentTarget) -> Option<InstallmentState> {
    match target {
        IntentTarget::Invoice(d) => d.invoice.next_installment(),
        IntentTarget::Link(_) => None,
    }
}

/// All that is still owed, and what the page asks for unless the payer chooses: the next
/// instalment, or all of it.
fn owed_and_asked(intent: &PaymentIntent, target: &IntentTarget) -> (i64, i64) {
    let owed = (intent.amount - intent.amount_received).max(0);
    (owed, next_installment(target).map_or(owed, |n| n.remaining()).min(owed))
}

fn installment_count(target: &IntentTarget) -> usize {
    match target {
        IntentTarget::Invoice(d) => d.invoice.installments.len(),
        IntentTarget::Link(_) => 0,
    }
}

/// What the page may ask for: part of what is due (`partial`), and the part the payer chose.
struct Asking<'a> {
    partial: bool,
    chose: Option<&'a str>,
}

/// `live`: where live payments go (receiving account and asset issuer), when they can be taken.
fn page_html(
    organization: &str,
    intent: &PaymentIntent,
    target: &IntentTarget,
    live: Option<(String, Option<String>)>,
    nonce: &str,
    (lang, named_in_link): (Lang, bool),
    asking: Asking<'_>,
) -> Result<String, ApiError> {
    let now = Timestamp::now();
    let sandbox = !intent.env.is_live();
    let currency = intent.currency.code();
    let next = next_installment(target);
    let (owed, ask) = owed_and_asked(intent, target);
    let (asked, amount_refused) = match asked_amount(ask, owed, asking.partial, asking.chose) {
        Ok(part) => (part, false),
        Err(all) => (all, true),
    };
    let due = money(asked);
    let refusal = refusal(intent, target, now);
    // An invoice's page adds up: its total, less its credit notes and what it received, is what
    // is left.
    let (invoice_total, credited) = match target {
        IntentTarget::Invoice(d) => {
            (money(d.invoice.totals.total), (d.invoice.amount_credited > 0).then(|| money(d.invoice.amount_credited)))
        }
        IntentTarget::Link(_) => (money(intent.amount), None),
    };
    let (title, status, due_date, lines, subtotal, tax, memo) = match target {
        IntentTarget::Invoice(d) => {
            let i = &d.invoice;
            let lines: Vec<_> = i
                .line_items
                .iter()
                .map(|l| context! { description => l.description, quantity => l.quantity_text(), amount => money(l.amount) })
                .collect();
            (
                text(lang, "invoice-number", &[("number", i.number.to_string())]),
                i.status.as_str().to_owned(),
                Some(i.due_date.to_string()),
                lines,
                money(i.totals.subtotal),
                money(i.totals.tax),
                i.memo.clone(),
            )
        }
        IntentTarget::Link(l) => (
            l.description.clone(),
            intent.effective_status(now).as_str().to_owned(),
            None,
            Vec::new(),
            String::new(),
            String::new(),
            None,
        ),
    };
    // Without a live ledger (or an issuer for the currency) a live page shows what is owed
    // without payment instructions.
    let payable = sandbox || live.is_some();
    let (destination, issuer) = match live {
        _ if sandbox => (sandbox::receiving_account(&intent.org_id), sandbox::issuer(currency)),
        Some((account, issuer)) => (account, issuer),
        None => (String::new(), None),
    };
    let refusal = match (refusal, payable) {
        (Some(r), _) => Some(r.name()),
        (None, false) => Some("not-available"),
        (None, true) => None,
    };
    let sep7 = sep7_pay_uri(&PayRequest {
        destination: &destination,
        amount: &due,
        asset_code: currency,
        asset_issuer: issuer.as_deref(),
        memo: &intent.reference,
        message: &text(
            lang,
            "pay-wallet-message",
            &[("title", title.clone()), ("organization", organization.to_owned())],
        ),
    });
    let qr = if refusal.is_none() { qr_svg(&sep7).unwrap_or_default() } else { String::new() };
    templates()
        .get_template("pay.html")
        .and_then(|t| {
            t.render(context! {
                title, organization, status, due_date, lines, subtotal, tax, memo, sandbox, currency, due, refusal,
                owed => money(owed), part => (asked < owed).then(|| money(asked)), amount_refused,
                installment => next.map(|n| context! { number => n.number, due_date => n.due_date.to_string() }),
                installments => installment_count(target),
                partial => asking.partial && owed > 1, chose => asking.chose,
                total => money(intent.amount), invoice_total, credited,
                received => (intent.amount_received > 0).then(|| money(intent.amount_received)),
                paid_at => intent.paid_at.map(|t| t.to_string()), lang, named_in_link,
                destination, issuer, reference => intent.reference, intent_id => intent.id,
                sep7_uri => sep7, qr_svg => qr, nonce,
            })
        })
        .map_err(|e| ApiError::internal(&e))
}

/// The sandbox page's "Simulate payment" button.
async fn simulate(
    State(state): State<AppState>,
    Extension(ClientAddress(client)): Extension<ClientAddress>,
    Path(id): Path<String>,
    Query(query): Query<PageQuery>,
    headers: HeaderMap,
) -> Response {
    let lang = language(&query, &headers);
    if let Some(refused) = refused(&state, client, &id, lang).await {
        return refused;
    }
    let found = match state.store.get_payment_intent(&id).await {
        Ok(Some(found)) => found,
        Ok(None) => return missed(&state, client, lang).await,
        Err(e) => return ApiError::from(e).into_response(),
    };
    // What the page asked for, as the page judged it.
    let (owed, ask) = owed_and_asked(&found.0, &found.1);
    let part = match partial_allowed(&state, &found.0, &found.1).await {
        Ok(partial) => {
            let (Ok(asked) | Err(asked)) = asked_amount(ask, owed, partial, query.amount.as_deref());
            (asked < owed).then_some(asked)
        }
        Err(e) => return e.into_response(),
    };
    // A refusal (already paid, voided...) is what the page shows after the redirect.
    if let Err(e) = state.services.simulate_payment(&found.0, &found.1, part, None).await {
        tracing::info!(intent = %id, error = %e, "simulated payment refused");
    }
    // Back to the page in the language it was shown in.
    match query.named() {
        Some(chosen) => Redirect::to(&format!("/pay/{id}?lang={}", chosen.code())).into_response(),
        None => Redirect::to(&format!("/pay/{id}")).into_response(),
    }
}
