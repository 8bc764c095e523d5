//! Statements to hand over: a client's page (every invoice, what is owed, what is held as
//! credit) and the CSV downloads of a client's and an invoice's statement. Both pages print on
//! one A4 page headed with the organization's name.

use crate::guard::Signed;
use crate::pages::{self, Refused, render};
use crate::state::Console;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use lajan_domain::Timestamp;
use lajan_domain::id::IdKind;
use lajan_services::ServiceError;
use lajan_services::report;
use lajan_services::views::client_statement::ClientStatementView;
use lajan_services::views::invoice_statement::StatementLineView;
use minijinja::context;

pub(crate) async fn client(
    State(console): State<Console>,
    signed: Signed,
    Path(id): Path<String>,
) -> Result<Response, Refused> {
    let Some(statement) = client_statement(&console, &signed, &id).await? else {
        return Ok(pages::not_found(signed.frame()));
    };
    let organization = organization_name(&console, &signed).await?;
    let frame = signed.frame();
    let as_of = Timestamp::now().to_string();
    Ok(render(StatusCode::OK, "client.html", context! { frame, statement, organization, as_of }))
}

pub(crate) async fn client_csv(
    State(console): State<Console>,
    signed: Signed,
    Path(id): Path<String>,
) -> Result<Response, Refused> {
    let Some(statement) = client_statement(&console, &signed, &id).await? else {
        return Ok(pages::not_found(signed.frame()));
    };
    Ok(pages::csv_download(report::client_statement_csv(&statement), &format!("{id}-statement.csv")))
}

pub(crate) async fn invoice_csv(
    State(console): State<Console>,
    signed: Signed,
    Path(id): Path<String>,
) -> Result<Response, Refused> {
    let Some((number, lines)) = invoice_statement(&console, &signed, &id).await? else {
        return Ok(pages::not_found(signed.frame()));
    };
    Ok(pages::csv_download(report::statement_csv(&lines), &format!("{number}-statement.csv")))
}

/// The statement of the signed-in tenant's invoice `id` with its number; `None` when `id`
/// names no invoice of theirs.
pub(crate) async fn invoice_statement(
    console: &Console,
    signed: &Signed,
    id: &str,
) -> Result<Option<(String, Vec<StatementLineView>)>, Refused> {
    if !IdKind::Invoice.is_id(id) {
        return Ok(None);
    }
    match console.services.invoice_statement(&signed.session.tenant(), id).await {
        Ok((invoice, movements)) => Ok(Some((invoice.invoice.number, movements.iter().map(Into::into).collect()))),
        Err(ServiceError::NotFound(_)) => Ok(None),
        Err(e) => Err(e.into()),
    }
}

/// The name a printed statement is headed with.
pub(crate) async fn organization_name(console: &Console, signed: &Signed) -> Result<String, Refused> {
    let org = console.services.store.get_organization(&signed.session.user.org_id).await?;
    Ok(org.map(|o| o.name).unwrap_or_default())
}

async fn client_statement(
    console: &Console,
    signed: &Signed,
    id: &str,
) -> Result<Option<ClientStatementView>, Refused> {
    if !IdKind::Client.is_id(id) {
        return Ok(None);
    }
    match console.services.client_statement(&signed.session.tenant(), id).await {
        Ok(statement) => Ok(Some(ClientStatementView::from(&statement))),
        Err(ServiceError::NotFound(_)) => Ok(None),
        Err(e) => Err(e.into()),
    }
}
