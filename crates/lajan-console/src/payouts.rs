//! The payouts pages: the list (by status and type, with search and the count under each
//! status) and one payout with every attempt, its transaction hashes and its timeline.

use crate::approvals;
use crate::confirm::Done;
use crate::guard::Signed;
use crate::lists::{self, BadQuery, ListQuery};
use crate::pages::{self, Refused, render};
use crate::state::Console;
use crate::timeline;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use lajan_domain::id::IdKind;
use lajan_domain::payout::{ApprovalStatus, PayoutFilter, PayoutType};
use lajan_services::views::payouts::{PayoutSummary, PayoutView};
use lajan_store::payouts::PayoutQuery;
use minijinja::context;

pub(crate) async fn list(
    State(console): State<Console>,
    signed: Signed,
    Query(query): Query<ListQuery>,
) -> Result<Response, Refused> {
    let (found, counts) = console.services.store.list_payouts(&signed.session.tenant(), &payout_query(&query)?).await?;
    let payouts: Vec<PayoutSummary> = found.items.iter().map(PayoutSummary::from_detail).collect();
    let statuses: Vec<(&str, u64)> = PayoutFilter::ALL
        .iter()
        .map(|f| (f.as_str(), counts.by_filter.get(f.as_str()).copied().unwrap_or(0)))
        .collect();
    let types: Vec<&str> = PayoutType::ALL.iter().map(|t| t.as_str()).collect();
    let frame = signed.frame();
    Ok(render(
        StatusCode::OK,
        "payouts.html",
        context! { frame, payouts, statuses, types, all => counts.all, ..query.shown(&found) },
    ))
}

/// The list's query as the store reads it; a filter that names nothing is a 400 page.
fn payout_query(query: &ListQuery) -> Result<PayoutQuery, BadQuery> {
    Ok(PayoutQuery {
        filter: lists::filter(&query.status, "no-such-status")?,
        payout_type: lists::filter(&query.kind, "no-such-type")?,
        search: query.search()?,
        page: query.page()?,
    })
}

pub(crate) async fn detail(
    State(console): State<Console>,
    signed: Signed,
    Path(id): Path<String>,
    Query(done): Query<Done>,
) -> Response {
    let tenant = signed.session.tenant();
    let read = || console.services.store.get_payout(&tenant, &id);
    let detail = match pages::record(|| signed.frame(), IdKind::Payout, &id, read).await {
        Ok(detail) => detail,
        Err(page) => return page,
    };
    // A batch's payouts are decided with their disbursement, unless their approval was withdrawn.
    let waiting = detail.payout.approval == ApprovalStatus::Pending && detail.payout.decided_alone();
    let own = |distinct| approvals::own_payout(&signed.session, distinct, &detail);
    let decision = match approvals::decision(&console, &signed.session, waiting, own).await {
        Ok(decision) => decision,
        Err(e) => return pages::failure(&e),
    };
    let payout = PayoutView::from_detail(&detail);
    let events = match timeline::of(&console.services, &tenant, &id).await {
        Ok(events) => events,
        Err(e) => return pages::failure(&e),
    };
    let frame = signed.frame();
    render(StatusCode::OK, "payout.html", context! { frame, payout, events, decision, notice => done.notice() })
}
