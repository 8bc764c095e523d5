//! Webhook endpoints (admins): the list and a new endpoint (its signing secret shown once), and
//! one endpoint's page: change it (URL, events, description, on or off), send a test event,
//! rotate the secret (the new one shown once), its latest deliveries, each with its attempts
//! and a retry. Everything goes through the API's service methods as the user.

use crate::domain_text;
use crate::guard::Admins;
use crate::guard::{NoFields, Protected, Signed};
use crate::once::{self, Before};
use crate::pages::{self, render};
use crate::state::Console;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use lajan_domain::event::EVENT_TYPES;
use lajan_domain::pagination::{MAX_LIMIT, PageRequest};
use lajan_domain::user::Duty;
use lajan_domain::webhook::{EndpointInput, EndpointPatchInput, WebhookEndpoint};
use lajan_services::ServiceError;
use lajan_services::views::webhooks::{DeliveryAttemptView, DeliveryView, WebhookEndpointView};
use lajan_store::{IdempotentResponse, StoreError};
use minijinja::{Value, context};

/// Deliveries an endpoint's page lists, newest first.
const DELIVERIES_SHOWN: u32 = 50;

/// The patterns the form offers: everything, each area, then each event type.
fn patterns() -> Vec<String> {
    let mut areas: Vec<String> =
        EVENT_TYPES.iter().filter_map(|t| t.split_once('.').map(|(area, _)| format!("{area}.*"))).collect();
    areas.dedup();
    let mut all = vec!["*".to_owned()];
    all.extend(areas);
    all.extend(EVENT_TYPES.iter().map(|t| (*t).to_owned()));
    all
}

/// A posted endpoint form: its text fields, and the ticked event patterns.
struct EndpointForm {
    url: String,
    description: String,
    events: Vec<String>,
    enabled: bool,
    once: String,
}

fn read(pairs: &[(String, String)]) -> EndpointForm {
    let field =
        |name: &str| pairs.iter().find(|(k, _)| k == name).map(|(_, v)| v.trim().to_owned()).unwrap_or_default();
    EndpointForm {
        url: field("url"),
        description: field("description"),
        events: pairs.iter().filter(|(k, _)| k == "events").map(|(_, v)| v.clone()).collect(),
        enabled: pairs.iter().any(|(k, _)| k == "enabled"),
        once: field("once"),
    }
}

async fn list_page(console: &Console, signed: &Signed, status: StatusCode, extra: Value) -> Response {
    let tenant = signed.session.tenant();
    let endpoints =
        match console.services.store.list_webhook_endpoints(&tenant, PageRequest::numbered(1, MAX_LIMIT)).await {
            Ok(found) => found.items,
            Err(e) => return pages::failure(&e.into()),
        };
    let endpoints: Vec<WebhookEndpointView> = endpoints.iter().map(WebhookEndpointView::from).collect();
    let once = match once::new_key() {
        Ok(once) => once,
        Err(e) => return pages::failure(&e),
    };
    let values = context! { frame => signed.frame(), endpoints, patterns => patterns(), once };
    render(status, "webhooks.html", context! { ..values, ..extra })
}

pub(crate) async fn list(State(console): State<Console>, signed: Signed) -> Response {
    if let Some(refused) = signed.refused_unless(Duty::Administer) {
        return refused;
    }
    list_page(&console, &signed, StatusCode::OK, context! {}).await
}

pub(crate) async fn create(
    State(console): State<Console>,
    request: Protected<Vec<(String, String)>, Admins>,
) -> Response {
    let signed = &request.signed;
    let form = read(&request.form);
    let tenant = signed.session.tenant();
    let claim = match once::before(&console, &tenant, signed.frame(), "/console/webhooks", &form.once).await {
        Ok(Before::Fresh(claim)) => claim,
        Ok(Before::Made(made)) => return made,
        Err(refused) => return refused,
    };
    let input = EndpointInput {
        url: Some(form.url.clone()),
        events: Some(form.events.clone()),
        description: Some(form.description.clone()).filter(|d| !d.is_empty()),
        enabled: None,
    };
    // A repeat of this post goes to the endpoint's page: the secret is shown on this answer only.
    let body = |e: &WebhookEndpoint| format!("/console/webhooks/{}", e.id).into_bytes();
    let answer = IdempotentResponse { claim: &claim, status: 303, body: &body };
    match console.services.create_webhook_endpoint(&tenant, input, Some(answer)).await {
        Ok(made) => {
            let created = context! { id => made.id, url => made.url, secret => made.secret };
            list_page(&console, signed, StatusCode::CREATED, context! { created }).await
        }
        Err(ServiceError::Store(StoreError::IdempotencyKeyTaken)) => once::taken(&console, &tenant, &claim).await,
        Err(ServiceError::Invalid(refusal)) => {
            let typed = context! { url => form.url, description => form.description, ticked => form.events };
            list_page(
                &console,
                signed,
                StatusCode::BAD_REQUEST,
                context! { errors => domain_text::refusal_lines(&refusal), typed },
            )
            .await
        }
        Err(e) => pages::failure(&e),
    }
}

async fn endpoint_page(console: &Console, signed: &Signed, id: &str, status: StatusCode, extra: Value) -> Response {
    let tenant = signed.session.tenant();
    let frame = signed.frame();
    let endpoint = match console.services.store.get_webhook_endpoint(&tenant, id).await {
        Ok(Some(endpoint)) => WebhookEndpointView::from(&endpoint),
        Ok(None) => return pages::not_found(frame),
        Err(e) => return pages::failure(&e.into()),
    };
    let page = PageRequest::numbered(1, DELIVERIES_SHOWN);
    let deliveries = match console.services.store.list_deliveries(&tenant, id, None, page).await {
        Ok(found) => found.items,
        Err(e) => return pages::failure(&e.into()),
    };
    let deliveries: Vec<DeliveryView> = deliveries.iter().map(DeliveryView::from).collect();
    let values = context! { frame, endpoint, deliveries, patterns => patterns() };
    render(status, "webhook.html", context! { ..values, ..extra })
}

pub(crate) async fn detail(State(console): State<Console>, signed: Signed, Path(id): Path<String>) -> Response {
    if let Some(refused) = signed.refused_unless(Duty::Administer) {
        return refused;
    }
    endpoint_page(&console, &signed, &id, StatusCode::OK, context! {}).await
}

pub(crate) async fn update(
    State(console): State<Console>,
    Path(id): Path<String>,
    request: Protected<Vec<(String, String)>, Admins>,
) -> Response {
    let signed = &request.signed;
    let form = read(&request.form);
    let patch = EndpointPatchInput {
        url: Some(form.url),
        events: Some(form.events),
        description: Some(Some(form.description).filter(|d| !d.is_empty())),
        enabled: Some(form.enabled),
    };
    match console.services.update_webhook_endpoint(&signed.session.tenant(), &id, patch).await {
        Ok(_) => Redirect::to(&format!("/console/webhooks/{id}")).into_response(),
        Err(ServiceError::NotFound(_)) => pages::not_found(signed.frame()),
        Err(ServiceError::Invalid(refusal)) => {
            endpoint_page(
                &console,
                signed,
                &id,
                StatusCode::BAD_REQUEST,
                context! { errors => domain_text::refusal_lines(&refusal) },
            )
            .await
        }
        Err(e) => pages::failure(&e),
    }
}

pub(crate) async fn test(
    State(console): State<Console>,
    Path(id): Path<String>,
    request: Protected<NoFields, Admins>,
) -> Response {
    let signed = &request.signed;
    match console.services.send_test_event(&signed.session.tenant(), &id, None).await {
        Ok(_) => Redirect::to(&format!("/console/webhooks/{id}")).into_response(),
        Err(ServiceError::NotFound(_)) => pages::not_found(signed.frame()),
        Err(e) => pages::failure(&e),
    }
}

pub(crate) async fn rotate(
    State(console): State<Console>,
    Path(id): Path<String>,
    request: Protected<NoFields, Admins>,
) -> Response {
    let signed = &request.signed;
    match console.services.rotate_webhook_secret(&signed.session.tenant(), &id, None).await {
        Ok(rotated) => {
            let rotated = context! { secret => rotated.secret };
            endpoint_page(&console, signed, &id, StatusCode::OK, context! { rotated }).await
        }
        Err(ServiceError::NotFound(_)) => pages::not_found(signed.frame()),
        Err(e) => pages::failure(&e),
    }
}

pub(crate) async fn delivery(
    State(console): State<Console>,
    signed: Signed,
    Path((endpoint_id, id)): Path<(String, String)>,
) -> Response {
    if let Some(refused) = signed.refused_unless(Duty::Administer) {
        return refused;
    }
    let tenant = signed.session.tenant();
    let frame = signed.frame();
    let found = match console.services.store.get_delivery(&tenant, &endpoint_id, &id).await {
        Ok(Some(found)) => found,
        Ok(None) => return pages::not_found(frame),
        Err(e) => return pages::failure(&e.into()),
    };
    let attempts = match console.services.store.delivery_attempts(&tenant, &id).await {
        Ok(attempts) => attempts,
        Err(e) => return pages::failure(&e.into()),
    };
    let attempts: Vec<DeliveryAttemptView> = attempts.iter().map(DeliveryAttemptView::from).collect();
    let delivery = DeliveryView::from(&found);
    render(StatusCode::OK, "webhook_delivery.html", context! { frame, delivery, attempts })
}

pub(crate) async fn retry(
    State(console): State<Console>,
    Path((endpoint_id, id)): Path<(String, String)>,
    request: Protected<NoFields, Admins>,
) -> Response {
    let signed = &request.signed;
    match console.services.retry_delivery(&signed.session.tenant(), &endpoint_id, &id, None).await {
        Ok(_) => Redirect::to(&format!("/console/webhooks/{endpoint_id}/deliveries/{id}")).into_response(),
        Err(ServiceError::NotFound(_)) => pages::not_found(signed.frame()),
        Err(e) => pages::failure(&e),
    }
}
