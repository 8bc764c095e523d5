//! The OpenAPI 3.1 document, generated from the handlers and types, served at `/v1/openapi.json`
//! and browsable at `/docs` (Swagger UI, bundled: no CDN).

use crate::error::{ErrorBody, FieldDetail};
use crate::routes;
use crate::routes::common::{Deleted, PaginationView};
use crate::routes::doc_types::OPTIONAL_BODY;
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};

const DESCRIPTION: &str = "\
Lajan lets an organization invoice its clients and pay them out in Stellar assets.

**Authentication.** Send `Authorization: Bearer <key>`. Sandbox keys start with `sk_test_` and only \
see sandbox data; live keys start with `sk_live_`. A key without the scope an operation needs gets 403.
Scopes: `*`, `<area>:read`, `<area>:write` (write includes read) and `payouts:approve`.

**Paths.** Every area answers at `/v1/<area>` and at `/v1/mfi/<area>`; both are the same operation.

**Errors.** Every error has the shape `{ statusCode, error, code, message, details? }`; `code` is \
stable and machine-readable, `details` names the fields at fault. Each operation lists the codes it \
may answer; on top of those, a method a path does not take is 405 `method_not_allowed`, and a \
failure of the server is 500 `internal_error` (nothing half-done: a retry is safe).

**Lists.** `page` (from 1) and `limit` (1 to 100, default 20); anything else is 400 `invalid_pagination`. \
A filter that could match nothing is refused rather than answered with an empty page: a `search` over 200 \
characters, a `status` or event `type` outside its list, a malformed id (400 `validation_error`).

**Rate limits.** Per organization and environment: 60 requests per minute (Standard) or 300 \
(Enterprise). Every authenticated response carries `X-RateLimit-Limit`, `X-RateLimit-Remaining` \
and `X-RateLimit-Reset` (Unix seconds when the window resets); over the limit: 429 with `Retry-After`.

**Idempotency.** Send `Idempotency-Key` on any POST to make it safe to retry: the first completed \
response is replayed for 24 hours with `Idempotent-Replayed: true`; the same key with a different \
request is 422. The response of a change is stored in the change's own transaction, so a retry \
after a crash replays it or, when nothing committed, runs. While the first request runs, a second \
with its key is 409 when it reaches the same server; when it reaches another, the database puts \
the two in line and the later one replays the earlier one's response.

**Bodies.** JSON only (`Content-Type: application/json`, else 415), at most 1 MiB (else 413); \
`POST /v1/disbursements` also takes `text/csv`, and up to 5 MiB. \
Unknown fields are rejected. Money in requests is a JSON number read exactly, positive and at most \
922337203685.47; in responses, a decimal string with two places. Timestamps are RFC 3339 UTC with \
milliseconds. Text refuses control and invisible formatting characters (memos and reasons may \
span lines). In a PUT, a \
field left out keeps its value and `null` is refused except where a field says it clears.

**Sandbox tools.** `/v1/sandbox/...` takes sandbox keys only; each operation names the scope it needs.";

#[derive(OpenApi)]
#[openapi(
    info(title = "Lajan API", version = "1.0.0", description = DESCRIPTION),
    paths(
        routes::clients::list,
        routes::clients::create,
        routes::clients::fetch,
        routes::clients::update,
        routes::clients::archive,
        routes::clients::invitation,
        routes::clients::invite,
        routes::clients::unlock,
        routes::credit_balances::balance,
        routes::credit_balances::transactions,
        routes::events::list,
        routes::events::fetch,
        routes::settings::fetch,
        routes::settings::update,
        routes::settings::confirm,
        routes::settings::cancel,
        routes::home_domain::fetch,
        routes::home_domain::verify,
        routes::invoices::list,
        routes::invoices::create,
        routes::invoices::fetch,
        routes::invoices::update,
        routes::invoices::send,
        routes::invoices::void,
        routes::invoice_payments::list,
        routes::invoice_payments::record,
        routes::invoice_payments::reverse,
        routes::invoice_payments::statement,
        routes::credit_notes::list,
        routes::credit_notes::issue,
        routes::credit_notes::void,
        routes::payment_links::list,
        routes::payment_links::create,
        routes::payment_links::fetch,
        routes::payment_links::delete,
        routes::payouts::list,
        routes::payouts::create,
        routes::payouts::fetch,
        routes::payouts::approve,
        routes::payouts::reject,
        routes::payouts::retry,
        routes::payouts::cancel,
        routes::payouts::assets,
        routes::disbursements::list,
        routes::disbursements::create,
        routes::disbursements::fetch,
        routes::disbursements::items,
        routes::disbursements::submit,
        routes::disbursements::approve,
        routes::disbursements::reject,
        routes::disbursements::retry_failed,
        routes::disbursements::delete,
        routes::webhooks::list,
        routes::webhooks::create,
        routes::webhooks::fetch,
        routes::webhooks::update,
        routes::webhooks::remove,
        routes::webhooks::send_test,
        routes::webhooks::rotate_secret,
        routes::webhook_deliveries::list,
        routes::webhook_deliveries::fetch,
        routes::webhook_deliveries::retry,
        routes::webhook_deliveries::recover,
        routes::sandbox::balances,
        routes::sandbox::top_up,
        routes::sandbox::pay,
        routes::sandbox::messages,
        routes::sandbox::remind,
        routes::messages::list,
        routes::messages::fetch,
        routes::health::healthz,
        routes::health::readyz,
    ),
    components(schemas(ErrorBody, FieldDetail, PaginationView, Deleted, lajan_services::views::invitations::InvitedClientView, lajan_services::views::messages::ReminderView)),
    modifiers(&BearerAuth, &CommonErrors, &OptionalBodies, &TextRules, &Webhooks, &Examples),
    security(("bearer" = [])),
    tags(
        (name = "Clients", description = "The people an organization invoices and pays"),
        (name = "Invoices", description = "Invoices: draft -> sent -> viewed -> paid, or overdue, or void. Every invoice has a hosted payment page at paymentLink.url"),
        (name = "Payment links", description = "Standalone amounts to collect through a hosted payment page"),
        (name = "Payouts", description = "Send assets to wallets: approval (pending, approved, rejected) then execution (pending, ready_to_send, sent, failed), every submission recorded as an attempt"),
        (name = "Disbursements", description = "Batches of payouts of one asset from JSON or CSV: draft -> pending_approval -> approved -> processing -> completed, partially_failed or failed; or rejected. Submitting creates one payout per item; approving checks the ledger balance and approves them all. Events: disbursement.created/submitted/approved/rejected/completed/partially_failed/failed"),
        (name = "Webhook endpoints", description = "Where events are POSTed, signed as Standard Webhooks says (webhook-id, webhook-timestamp, webhook-signature: v1,<base64 HMAC-SHA256 of id.timestamp.body> with the endpoint's whsec_ secret). Each delivery is written in its event's transaction, so no committed event is missed; any 2xx delivers, anything else is retried (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, +-20 %) and then failed; 410 disables the endpoint"),
        (name = "Webhook events", description = "What Lajan POSTs to a subscribed endpoint, one operation per event type (the document's webhooks section)"),
        (name = "Messages", description = "Every email, SMS and WhatsApp message to a client, and its status: queued, sent, delivered, failed, undeliverable"),
        (name = "Sandbox", description = "Sandbox-only tools: simulate a customer's payment, read the messages a send would have delivered, run an invoice's reminders at a chosen time"),
        (name = "Events", description = "What happened, written with each change: client.created/updated/deleted, invoice.created/sent/viewed/paid/overdue/voided, payment_link.created/deactivated/paid, payout.created/approved/rejected/retried/completed/failed, disbursement.created/submitted/approved/rejected/completed/partially_failed/failed, settings.updated/change_requested/change_cancelled, webhook_endpoint.test/disabled"),
        (name = "Settings", description = "Per-environment defaults and rules"),
        (name = "Operations", description = "Health and readiness, no key needed"),
    )
)]
pub struct ApiDoc;

struct BearerAuth;

impl Modify for BearerAuth {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(
                HttpBuilder::new().scheme(HttpAuthScheme::Bearer).bearer_format("sk_test_... or sk_live_...").build(),
            ),
        );
    }
}

/// The answers every operation can give for reasons of the API as a whole, said once here
/// instead of on each operation (and never missed on a new one): without a valid key 401, without
/// the scope 403, over the rate limit 429; an `{id}` that names nothing 404; a bad `page` or
/// `limit` 400; a body over 1 MiB 413 and one that is not JSON 415; a write that lost a race on a
/// uniqueness rule 409 `conflict`; with an `Idempotency-Key`, 409 while the same key runs and 422
/// when it was used with another request. Answers an operation documents itself are kept.
struct CommonErrors;

impl Modify for CommonErrors {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::{ContentBuilder, Ref, ResponseBuilder};
        let error = |description: &str| {
            let body = ContentBuilder::new().schema(Some(Ref::from_schema_name("ErrorBody"))).build();
            ResponseBuilder::new().description(description).content("application/json", body).build()
        };
        for (path, item) in openapi.paths.paths.iter_mut() {
            if !path.starts_with("/v1/") {
                continue;
            }
            let operations =
                [(&mut item.get, false), (&mut item.post, true), (&mut item.put, true), (&mut item.delete, true)];
            for (operation, writes) in
                operations.into_iter().filter_map(|(op, writes)| op.as_mut().map(|op| (op, writes)))
            {
                let takes = |name: &str| operation.parameters.iter().flatten().any(|p| p.name == name);
                let (keyed, paged) = (takes("Idempotency-Key"), takes("page"));
                let mut common = vec![
                    ("401", "unauthorized: the key is missing, malformed, unknown or revoked"),
                    ("403", "forbidden: the key lacks the scope this operation needs"),
                    ("429", "rate_limited: the minute's budget is spent; see Retry-After"),
                ];
                if path.contains("{id}") {
                    common.push(("404", "not_found: no such resource for this organization and environment"));
                }
                if paged {
                    common.push(("400", "invalid_pagination: page or limit out of range, or not an integer"));
                }
                let filtered = operation.parameters.iter().flatten().any(|p| {
                    matches!(p.parameter_in, utoipa::openapi::path::ParameterIn::Query)
                        && !matches!(p.name.as_str(), "page" | "limit")
                });
                if paged && filtered {
                    common.push((
                        "400",
                        "validation_error: a filter is outside what its parameter allows (a status or type not \
                         in its list, a search over 200 characters, a malformed id), named in details",
                    ));
                }
                // A keyed request's body is read whole before anything else, body or not.
                if operation.request_body.is_some() || keyed {
                    common.push(("413", "payload_too_large: the body is over 1 MiB"));
                }
                if operation.request_body.is_some() {
                    common.push(("415", "unsupported_media_type: the body is not application/json"));
                }
                if keyed {
                    common.push((
                        "400",
                        "validation_error: the Idempotency-Key is not 1 to 255 visible ASCII characters",
                    ));
                    common.push((
                        "409",
                        "idempotency_in_progress: a request with this Idempotency-Key is still running; or conflict: \
                         the write lost a race with another and changed nothing (read again and retry)",
                    ));
                    common.push((
                        "422",
                        "idempotency_key_reused: this Idempotency-Key was used with a different request",
                    ));
                }
                if writes && !keyed {
                    common.push((
                        "409",
                        "conflict: the write lost a race with another and changed nothing (read again and retry)",
                    ));
                }
                if operation.request_body.is_some() {
                    common.push((
                        "400",
                        "invalid_json: the body is not JSON, or not an object; validation_error: a field is \
                         missing or wrong, each named in details",
                    ));
                }
                common.push((
                    "500",
                    "internal_error: the server failed and changed nothing half-way; retrying \
                                     (with the same Idempotency-Key) is safe",
                ));
                // One description per status, naming every code it may carry; an operation's own
                // description comes first and keeps its place.
                let mut by_status: std::collections::BTreeMap<&str, Vec<&str>> = Default::default();
                for (status, description) in common {
                    by_status.entry(status).or_default().push(description);
                }
                for (status, descriptions) in by_status {
                    let joined = descriptions.join("; ");
                    match operation.responses.responses.get_mut(status) {
                        Some(utoipa::openapi::RefOr::T(response)) if response.description.is_empty() => {
                            response.description = joined;
                        }
                        Some(utoipa::openapi::RefOr::T(response)) => {
                            for description in descriptions {
                                let code = description.split(':').next().unwrap_or_default();
                                if !response.description.contains(code) {
                                    response.description = format!("{}; {description}", response.description);
                                }
                            }
                        }
                        Some(utoipa::openapi::RefOr::Ref(_)) => {}
                        None => {
                            operation.responses.responses.insert(status.into(), error(&joined).into());
                        }
                    }
                }
            }
        }
    }
}

/// A body the server reads as `{}` when it is empty (approvals' and rejections' reasons, a send's
/// channels, a simulated payment's amount) is not required: a generated client may leave it out.
/// Its schema stays the object (a JSON `null` is still refused).
struct OptionalBodies;

impl Modify for OptionalBodies {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        for item in openapi.paths.paths.values_mut() {
            for operation in [&mut item.post, &mut item.put].into_iter().flatten() {
                if let Some(body) =
                    operation.request_body.as_mut().filter(|b| b.description.as_deref() == Some(OPTIONAL_BODY))
                {
                    body.required = Some(utoipa::openapi::Required::False);
                }
            }
        }
    }
}

/// The rules of text fields (see `openapi_rules`).
struct TextRules;

impl Modify for TextRules {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        crate::openapi_rules::apply(openapi);
    }
}

/// The `webhooks` section. utoipa 5 has no field for it, so it goes in through the document's
/// flattened extensions, which serialize at the top level beside `paths`.
struct Webhooks;

impl Modify for Webhooks {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        openapi
            .extensions
            .get_or_insert_with(Default::default)
            .insert("webhooks".into(), crate::openapi_webhooks::webhooks());
    }
}

/// The examples (see `openapi_examples`); after `CommonErrors`, whose answers get them too.
struct Examples;

impl Modify for Examples {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        crate::openapi_examples::apply(openapi);
    }
}

pub fn document() -> utoipa::openapi::OpenApi {
    ApiDoc::openapi()
}
