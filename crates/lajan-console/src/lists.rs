//! What every list page shares: its query (page, filters; an empty form field is no filter),
//! read with the API's limits, and the pager that keeps the filters on its links.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use lajan_domain::pagination::{DEFAULT_LIMIT, MAX_LIMIT, MAX_SEARCH_CHARS, Page, PageRequest};
use serde::{Deserialize, Serialize};

use crate::pages::{self, Refused};
use crate::state::Console;
use lajan_domain::Tenant;
use lajan_i18n::{say, say_with};
use lajan_services::ServiceResult;
use lajan_store::ClientQuery;

/// A query a list cannot answer: 400 with a page saying why.
pub(crate) struct BadQuery {
    pub title: String,
    pub text: String,
}

impl IntoResponse for BadQuery {
    fn into_response(self) -> Response {
        pages::message(StatusCode::BAD_REQUEST, &self.title, &self.text)
    }
}

impl From<BadQuery> for Refused {
    fn from(refusal: BadQuery) -> Self {
        Refused(refusal.into_response())
    }
}

/// A list page's query string as a filter form sends it.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct ListQuery {
    page: Option<String>,
    limit: Option<String>,
    pub status: Option<String>,
    pub client: Option<String>,
    pub search: Option<String>,
    #[serde(rename = "type")]
    pub kind: Option<String>,
    pub invoice: Option<String>,
    pub channel: Option<String>,
}

/// A filter read as a `T` (empty: no filter); a value that is none is a 400 page titled by the
/// catalogue's `title_key`.
pub(crate) fn filter<T: std::str::FromStr<Err = String>>(
    field: &Option<String>,
    title_key: &str,
) -> Result<Option<T>, BadQuery> {
    let unknown = |_| BadQuery { title: say(title_key), text: say("choose-from-list") };
    given(field).map(str::parse::<T>).transpose().map_err(unknown)
}

/// A field the form left empty is no filter.
pub(crate) fn given(field: &Option<String>) -> Option<&str> {
    field.as_deref().map(str::trim).filter(|s| !s.is_empty())
}

impl ListQuery {
    /// The page asked for, within the API's limits; else a 400 page saying which.
    pub(crate) fn page(&self) -> Result<PageRequest, BadQuery> {
        let number = |raw: Option<&str>, default: u32, max: u32, rule: &str| match raw {
            None => Ok(default),
            Some(text) => text.parse::<u32>().ok().filter(|n| (1..=max).contains(n)).ok_or_else(|| BadQuery {
                title: say("no-such-page"),
                text: say_with(rule, &[("max", max.to_string())]),
            }),
        };
        Ok(PageRequest::numbered(
            number(given(&self.page), 1, u32::MAX, "page-number-range")?,
            number(given(&self.limit), DEFAULT_LIMIT, MAX_LIMIT, "page-size-range")?,
        ))
    }

    /// The search text, at most the API's length.
    pub(crate) fn search(&self) -> Result<Option<String>, BadQuery> {
        match given(&self.search) {
            Some(text) if text.chars().count() > MAX_SEARCH_CHARS => Err(BadQuery {
                title: say("search-too-long"),
                text: say_with("search-at-most", &[("max", MAX_SEARCH_CHARS.to_string())]),
            }),
            // No text Lajan keeps holds a NUL, nor can a query carry one: it matches nothing more.
            found => Ok(found.map(|text| text.replace('\0', ""))),
        }
    }

    /// What a list template shows beside its rows: the pager over `found`, and the filters as
    /// the form was filled (`status`, `client`, `search`, `invoice`, `channel`, and `type` as
    /// `kind`), so the form
    /// shows them again.
    pub(crate) fn shown<T>(&self, found: &Page<T>) -> minijinja::Value {
        minijinja::context! {
            pager => Pager::of(found, self),
            status => given(&self.status),
            client => given(&self.client),
            search => given(&self.search),
            kind => given(&self.kind),
            invoice => given(&self.invoice),
            channel => given(&self.channel),
        }
    }

    /// This query with another page number, as a link's query string.
    fn link(&self, page: u64) -> String {
        let pairs: Vec<(&str, String)> = [
            ("status", given(&self.status)),
            ("client", given(&self.client)),
            ("search", given(&self.search)),
            ("type", given(&self.kind)),
            ("invoice", given(&self.invoice)),
            ("channel", given(&self.channel)),
            ("limit", given(&self.limit)),
        ]
        .into_iter()
        .filter_map(|(k, v)| v.map(|v| (k, v.to_owned())))
        .chain(std::iter::once(("page", page.to_string())))
        .collect();
        format!("?{}", serde_urlencoded::to_string(pairs).unwrap_or_default())
    }
}

/// Where a list stands and the links to its neighbours.
#[derive(Serialize)]
pub(crate) struct Pager {
    pub page: u32,
    pub total_pages: u64,
    pub total: u64,
    pub previous: Option<String>,
    pub next: Option<String>,
}

impl Pager {
    pub(crate) fn of<T>(found: &Page<T>, query: &ListQuery) -> Pager {
        let page = found.request.page;
        let total_pages = found.total_pages();
        Pager {
            page,
            total_pages,
            total: found.total,
            previous: (page > 1).then(|| query.link(u64::from(page) - 1)),
            next: (u64::from(page) < total_pages).then(|| query.link(u64::from(page) + 1)),
        }
    }
}

/// The tenant's clients (the 100 most recent) as a form's choices: id, name, whether they can
/// be written to (an email or a phone number: an invoice or an invitation reaches them) and
/// whether they have a wallet (a payout to one without waits for them to register it).
pub(crate) async fn client_choices(console: &Console, tenant: &Tenant) -> ServiceResult<Vec<minijinja::Value>> {
    let query = ClientQuery { search: None, page: PageRequest::numbered(1, MAX_LIMIT) };
    let clients = console.services.store.list_clients(tenant, &query).await?.items;
    Ok(clients
        .iter()
        .map(|c| {
            minijinja::context! {
                id => c.id,
                name => format!("{} {}", c.first_name, c.last_name),
                reachable => c.reachable(),
                has_wallet => c.wallet_account_id.is_some(),
            }
        })
        .collect())
}
