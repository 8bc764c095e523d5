// How a list's `search` reaches its rows through a trigram index, for both backends (#52): the
// LIKE pattern every search applies, and the choice between the index's candidates and a walk of
// the list newest first. Included after `shared.rs`; docs/lists.md tells the rules.

/// The LIKE pattern (`%term%`, ESCAPE '\') a list's search term matches, lowercased and with the
/// wildcard characters in the term escaped; `None` for no term or a blank one.
fn search_pattern(search: Option<&str>) -> Option<String> {
    let term = search.map(str::trim).filter(|s| !s.is_empty())?;
    let mut p = String::with_capacity(term.len() + 2);
    p.push('%');
    for c in term.to_lowercase().chars() {
        if matches!(c, '%' | '_' | '\\') {
            p.push('\\');
        }
        p.push(c);
    }
    p.push('%');
    Some(p)
}

/// How many rows a search may take from its trigram index, each looked up and sorted, before a
/// walk of the list's index newest first costs less: a term in more than one row in a thousand
/// meets a page of matches within a few thousand rows of the walk.
const INDEX_CANDIDATES: u64 = 1_000;

/// How a search reaches its rows.
enum SearchReach {
    /// Through the trigram index's candidates, then filtered by the same LIKE: the term is rare.
    Index,
    /// Those candidates themselves (SQLite, which named them while counting them), so the page
    /// looks them up by key without asking the index again.
    Found(Vec<String>),
    /// Newest first through the list's index, which soon meets a page of a common term. The
    /// total is an estimate (at most the count bound): on SQLite, the rows the trigram index
    /// holds the term in; on PostgreSQL, the share of the sampled rows that matched, of the list.
    Walk { estimate: u64 },
    /// No index can answer (a term under three characters has no trigram, so it matches much and
    /// its walk ends soon) or none is needed (a list small enough to sample whole): the LIKE scan.
    Scan,
}

/// A list's search, as [`ThisStore::search_reach`] judges it: the rows it searches and the test
/// one must pass.
struct Searched<'q, 'a> {
    /// The list's `FROM` (its table and aliases, joins the test needs).
    from: &'static str,
    /// The alias of the listed table in `from`.
    alias: &'static str,
    /// The tenant's list (` WHERE ...`), without the search.
    scope: &'q (dyn Fn(&mut QueryBuilder<'a>) + Sync),
    /// The search's test of a row: a boolean expression (the LIKEs).
    matches: &'q (dyn Fn(&mut QueryBuilder<'a>) + Sync),
    /// How many rows the list holds (from the count tables), to extrapolate a sample from.
    size: u64,
}

/// The trigram index of one searched table (migrations 0061 to 0063).
struct TrigramIndex {
    /// The searched table.
    table: &'static str,
    /// SQLite: the FTS5 table, its key table and the key table's column naming the row.
    fts: &'static str,
    keys: &'static str,
    row_id: &'static str,
    /// PostgreSQL: the GIN index's expression over the table aliased `x`, character for
    /// character, so the planner matches it.
    text: &'static str,
}

const CLIENT_TEXT: TrigramIndex = TrigramIndex {
    table: "clients",
    fts: "clients_search",
    keys: "client_search_keys",
    row_id: "client_id",
    text: "LOWER(x.first_name || ' ' || x.last_name || E'\\n' || COALESCE(x.email, '') || E'\\n'
           || COALESCE(x.phone_number, '') || E'\\n' || COALESCE(x.wallet_account_id, ''))",
};

const INVOICE_NUMBER: TrigramIndex = TrigramIndex {
    table: "invoices",
    fts: "invoices_search",
    keys: "invoice_search_keys",
    row_id: "invoice_id",
    text: "LOWER(x.number)",
};

const PAYOUT_WALLET: TrigramIndex = TrigramIndex {
    table: "payouts",
    fts: "payouts_search",
    keys: "payout_search_keys",
    row_id: "payout_id",
    text: "LOWER(x.wallet_account_id)",
};

/// `SELECT id ...`: the ids of the rows of `index`'s table whose indexed text holds a search's
/// term (`pattern` as LIKE, `phrase` as FTS5), a superset of those the search's LIKEs match:
/// the index folds case for every letter and does not see where one field ends.
fn push_candidates<'a>(qb: &mut QueryBuilder<'a>, tenant: &'a Tenant, index: &TrigramIndex, pattern: &'a str, phrase: &str) {
    let TrigramIndex { table, fts, keys, row_id, text } = index;
    if ThisStore::BACKEND == Backend::Sqlite {
        qb.push(format_args!("SELECT k.{row_id} FROM {fts} s JOIN {keys} k ON k.key = s.rowid WHERE {fts} MATCH "));
        qb.push_bind(phrase.to_owned());
    } else {
        qb.push(format_args!("SELECT x.id FROM {table} x WHERE x.org_id = ")).push_bind(&tenant.org_id);
        qb.push(" AND x.env = ").push_bind(tenant.env.as_str());
        qb.push(format_args!(" AND {text} LIKE ")).push_bind(pattern).push(" ESCAPE '\\'");
    }
}

/// ` AND {alias}.id IN (...)`: the rows of `table` (invoices, payouts) whose own text (`own`)
/// holds the term, or whose client's does.
fn push_candidates_by_client<'a>(
    qb: &mut QueryBuilder<'a>,
    tenant: &'a Tenant,
    alias: &str,
    own: &TrigramIndex,
    pattern: &'a str,
    phrase: &str,
) {
    qb.push(format_args!(" AND {alias}.id IN (SELECT y.id FROM {} y WHERE y.org_id = ", own.table));
    qb.push_bind(&tenant.org_id).push(" AND y.env = ").push_bind(tenant.env.as_str());
    qb.push(" AND y.client_id IN (");
    push_candidates(qb, tenant, &CLIENT_TEXT, pattern, phrase);
    qb.push(") UNION ALL ");
    push_candidates(qb, tenant, own, pattern, phrase);
    qb.push(")");
}

/// The FTS5 phrase that matches `term` as a substring in a trigram index.
fn trigram_phrase(term: &str) -> String {
    format!("\"{}\"", term.replace('"', "\"\""))
}

impl ThisStore {
    /// How a search for `term` (trimmed and lowercased) reaches its rows. When the list is one
    /// trigram `index`'s (clients), SQLite asks its FTS5 table for the rows that hold the term
    /// (then counts them, up to the bound, when there are too many to list). Otherwise, and always on PostgreSQL, whose GIN index cannot stop
    /// early (it reads every posting of the term's trigrams into a bitmap), the list's newest rows
    /// are read through the search's test: a term common there is walked.
    async fn search_reach<'a>(&self, index: Option<&TrigramIndex>, term: &str, list: Searched<'_, 'a>) -> StoreResult<SearchReach> {
        if term.chars().count() < 3 {
            return Ok(SearchReach::Scan);
        }
        let bound = self.bounds.get();
        if let (Backend::Sqlite, Some(index)) = (Self::BACKEND, index) {
            let TrigramIndex { fts, keys, row_id, .. } = index;
            let sql = format!(
                "SELECT k.{row_id} FROM {fts} s JOIN {keys} k ON k.key = s.rowid WHERE {fts} MATCH $1 LIMIT {}",
                INDEX_CANDIDATES.min(bound).saturating_add(1)
            );
            let phrase = trigram_phrase(term);
            let found: Vec<String> = query_scalar(&sql).bind(&phrase).fetch_all(self.reader()).await?;
            if found.len() as u64 <= INDEX_CANDIDATES.min(bound) {
                return Ok(SearchReach::Found(found));
            }
            let sql =
                format!("SELECT COUNT(*) FROM (SELECT 1 FROM {fts} WHERE {fts} MATCH $1 LIMIT {})", bound.saturating_add(1));
            let held = count_of(query_scalar(&sql).bind(&phrase).fetch_one(self.reader()).await?);
            return Ok(SearchReach::Walk { estimate: held.min(bound) });
        }
        let Searched { from, alias, scope, matches, size } = list;
        let (sample, common) = self.bounds.sample();
        let mut qb = QueryBuilder::new(
            "SELECT COUNT(*) AS sampled, CAST(COALESCE(SUM(CASE WHEN hit THEN 1 ELSE 0 END), 0) AS BIGINT) AS hits FROM (SELECT ",
        );
        matches(&mut qb);
        qb.push(format_args!(" AS hit FROM {from}"));
        scope(&mut qb);
        qb.push(format_args!(" ORDER BY {alias}.created_at DESC, {alias}.id DESC LIMIT {sample}) AS sample"));
        let row = qb.build().fetch_one(self.reader()).await?;
        let (read, hits) = (count_of(row.try_get("sampled")?), count_of(row.try_get("hits")?));
        Ok(if read < sample {
            SearchReach::Scan
        } else if hits >= common {
            let estimate = u128::from(hits) * u128::from(size.max(read)) / u128::from(read.max(1));
            SearchReach::Walk { estimate: u64::try_from(estimate).unwrap_or(u64::MAX).min(bound) }
        } else {
            SearchReach::Index
        })
    }
}
