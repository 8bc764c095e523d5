//! The disbursements pages: the list (by status, with search), one batch with its counts, its
//! items a page at a time (by status) and its timeline, and its CSV report to download.

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
use lajan_domain::disbursement::{DisbursementStatus, ItemStatus};
use lajan_domain::id::IdKind;
use lajan_domain::user::Duty;
use lajan_services::report;
use lajan_services::views::disbursements::{DisbursementItemView, DisbursementView};
use lajan_store::StoreError;
use lajan_store::disbursements::DisbursementQuery;
use minijinja::context;

pub(crate) async fn list(
    State(console): State<Console>,
    signed: Signed,
    Query(query): Query<ListQuery>,
) -> Result<Response, Refused> {
    let tenant = signed.session.tenant();
    let found = console.services.store.list_disbursements(&tenant, &disbursement_query(&query)?).await?;
    let disbursements: Vec<DisbursementView> = found.items.iter().map(DisbursementView::from).collect();
    let statuses: Vec<&str> = DisbursementStatus::ALL.iter().map(|s| s.as_str()).collect();
    let frame = signed.frame();
    Ok(render(StatusCode::OK, "disbursements.html", context! { frame, disbursements, statuses, ..query.shown(&found) }))
}

/// The list's query as the store reads it; a filter that names nothing is a 400 page.
fn disbursement_query(query: &ListQuery) -> Result<DisbursementQuery, BadQuery> {
    Ok(DisbursementQuery {
        status: lists::filter(&query.status, "no-such-status")?,
        search: query.search()?,
        page: query.page()?,
    })
}

pub(crate) async fn detail(
    State(console): State<Console>,
    signed: Signed,
    Path(id): Path<String>,
    Query(query): Query<ListQuery>,
    Query(done): Query<Done>,
) -> Result<Response, Refused> {
    let frame = signed.frame();
    let tenant = signed.session.tenant();
    let found = if IdKind::Disbursement.is_id(&id) {
        console.services.store.get_disbursement(&tenant, &id).await?
    } else {
        None
    };
    let Some(batch) = found else { return Ok(pages::not_found(frame)) };
    let waiting = batch.status == DisbursementStatus::PendingApproval;
    let own = |distinct| approvals::own_disbursement(&signed.session, distinct, &batch);
    let decision = approvals::decision(&console, &signed.session, waiting, own).await?;
    let submittable = batch.status == DisbursementStatus::Draft && signed.session.user.role.may(Duty::Prepare);
    // The page reloads itself while payouts go out, so its counts follow the batch.
    let running = matches!(batch.status, DisbursementStatus::Approved | DisbursementStatus::Processing);
    let disbursement = DisbursementView::from(&batch);
    let status = lists::filter::<ItemStatus>(&query.status, "no-such-status")?;
    let items = console.services.store.list_disbursement_items(&tenant, &id, status, query.page()?).await?;
    let events = timeline::of(&console.services, &tenant, &id).await?;
    let rows: Vec<DisbursementItemView> = items.items.iter().map(DisbursementItemView::from).collect();
    let statuses: Vec<&str> = ItemStatus::ALL.iter().map(|s| s.as_str()).collect();
    Ok(render(
        StatusCode::OK,
        "disbursement.html",
        context! { frame, disbursement, items => rows, statuses, events, decision, submittable, running,
        notice => done.notice(), ..query.shown(&items) },
    ))
}

/// Every item as the CSV report, as a download.
pub(crate) async fn report_csv(State(console): State<Console>, signed: Signed, Path(id): Path<String>) -> Response {
    let tenant = signed.session.tenant();
    let all = if IdKind::Disbursement.is_id(&id) {
        console.services.store.disbursement_report(&tenant, &id, None).await
    } else {
        Err(StoreError::NotFound)
    };
    let items: Vec<DisbursementItemView> = match all {
        Ok(all) => all.iter().map(DisbursementItemView::from).collect(),
        Err(StoreError::NotFound) => return pages::not_found(signed.frame()),
        Err(e) => return pages::failure(&e.into()),
    };
    pages::csv_download(report::items_csv(&items), &format!("{id}-items.csv"))
}
