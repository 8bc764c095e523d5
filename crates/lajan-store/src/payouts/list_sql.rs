// The payouts list, for both backends: a page under the filter, type and search, with the counts
// per status filter (from the count table kept by triggers when there is no search); included
// after `payouts/sql.rs`, which answers `PayoutStore::list_payouts` with this.

/// A page of payouts and the counts beside it.
async fn list_payouts(
    store: &ThisStore,
    tenant: &Tenant,
    q: &PayoutQuery,
) -> StoreResult<(Page<PayoutDetail>, PayoutCounts)> {
    let search = search_pattern(q.search.as_deref());
    let search = search.as_deref();
    let term = q.search.as_deref().map(|s| s.trim().to_lowercase()).unwrap_or_default();
    let kind = q.payout_type.map(|t| t.as_str());
    let (approval, exec) = q.filter.map_or((None, None), PayoutFilter::statuses);
    let (approval, exec) = (approval.map(ApprovalStatus::as_str), exec.map(ExecStatus::as_str));
    // Kept per tenant, type and state by triggers (migration 0006).
    let kept = query(
        "SELECT approval_status, exec_status, CAST(SUM(n) AS BIGINT) AS n FROM payout_counts
         WHERE org_id = $1 AND env = $2 AND ($3 IS NULL OR type = $3)
         GROUP BY approval_status, exec_status",
    )
    .bind(&tenant.org_id)
    .bind(tenant.env.as_str())
    .bind(kind)
    .fetch_all(store.reader())
    .await?;
    let scope = payout_scope(tenant, kind);
    let (mut select, mut by_index, mut walked) = (payout_select!(), false, None);
    let groups = match search {
        None => kept,
        Some(pattern) => {
            let size = kept.iter().map(|row| row.try_get::<i64, _>("n").map(count_of)).sum::<Result<u64, _>>()?;
            let matches = payout_matches(pattern);
            let from = "payouts p LEFT JOIN clients c ON c.id = p.client_id";
            let list = Searched { from, alias: "p", scope: &scope, matches: &matches, size };
            match store.search_reach(None, &term, list).await? {
                SearchReach::Index | SearchReach::Found(_) => {
                    by_index = true;
                    if ThisStore::BACKEND == Backend::Sqlite {
                        select = payout_select!(by_key);
                    }
                }
                SearchReach::Walk { estimate } => walked = Some(estimate),
                SearchReach::Scan => {}
            }
            // The counts per filter beside a search are counted to the bound, like its total.
            let mut qb = QueryBuilder::new(if by_index && ThisStore::BACKEND == Backend::Sqlite {
                "SELECT approval_status, exec_status, COUNT(*) AS n FROM (SELECT p.approval_status, p.exec_status
                 FROM payouts p INDEXED BY sqlite_autoindex_payouts_1 LEFT JOIN clients c ON c.id = p.client_id"
            } else {
                "SELECT approval_status, exec_status, COUNT(*) AS n FROM (SELECT p.approval_status, p.exec_status
                 FROM payouts p LEFT JOIN clients c ON c.id = p.client_id"
            });
            push_payout_search(&mut qb, tenant, scope, by_index, pattern, &trigram_phrase(&term));
            qb.push(format_args!(" LIMIT {}) AS matching GROUP BY approval_status, exec_status", store.bounds.get().saturating_add(1)));
            qb.build().fetch_all(store.reader()).await?
        }
    };
    let mut counts = PayoutCounts::default();
    for f in PayoutFilter::ALL {
        counts.by_filter.insert(f.as_str(), 0);
    }
    let mut total = 0;
    for row in &groups {
        let a: ApprovalStatus = row.try_get::<String, _>("approval_status")?.parse().map_err(corrupt)?;
        let e: ExecStatus = row.try_get::<String, _>("exec_status")?.parse().map_err(corrupt)?;
        let n = count_of(row.try_get("n")?);
        counts.all += n;
        *counts.by_filter.entry(PayoutFilter::of(a, e).as_str()).or_default() += n;
        let selected = approval.is_none_or(|s| s == a.as_str()) && exec.is_none_or(|s| s == e.as_str());
        if selected {
            total += n;
        }
    }
    let bound = store.bounds.get();
    let total = match walked {
        Some(estimate) => Total::Estimate(estimate),
        None if search.is_some() && counts.all > bound => Total::Estimate(total.min(bound)),
        None => Total::Known(total),
    };
    let phrase = trigram_phrase(&term);
    let page = store
        .list_page(
            tenant,
            &q.page,
            Listing { table: "payouts", alias: "p", select, total },
            move |qb| {
                match search {
                    Some(pattern) => push_payout_search(qb, tenant, scope, by_index, pattern, &phrase),
                    None => scope(qb),
                }
                if let Some(approval) = approval {
                    qb.push(" AND p.approval_status = ").push_bind(approval);
                }
                if let Some(exec) = exec {
                    qb.push(" AND p.exec_status = ").push_bind(exec);
                }
            },
            payout_from_row,
        )
        .await?;
    Ok((page, counts))
}

/// The tenant's payouts of the type given (` WHERE ...`, alias `p`), without the search.
fn payout_scope<'a>(tenant: &'a Tenant, kind: Option<&'a str>) -> impl Fn(&mut QueryBuilder<'a>) + Sync + Copy + 'a {
    move |qb| push_tenant_filters(qb, "p", tenant, &[("type", kind)])
}

/// Whether the payout `p` (its client `c`, if any) matches a search's LIKE `pattern`: its wallet
/// or its client's name.
fn payout_matches<'a>(pattern: &'a str) -> impl Fn(&mut QueryBuilder<'a>) + Sync + Copy + 'a {
    move |qb| {
        qb.push("(LOWER(p.wallet_account_id) LIKE ").push_bind(pattern);
        qb.push(" ESCAPE '\\' OR LOWER(COALESCE(c.first_name, '') || ' ' || COALESCE(c.last_name, '')) LIKE ");
        qb.push_bind(pattern).push(" ESCAPE '\\')");
    }
}

/// `scope` narrowed to a search: through the trigram indexes' candidates when `by_index`, always
/// through the search's LIKEs.
fn push_payout_search<'a>(
    qb: &mut QueryBuilder<'a>,
    tenant: &'a Tenant,
    scope: impl Fn(&mut QueryBuilder<'a>),
    by_index: bool,
    pattern: &'a str,
    phrase: &str,
) {
    scope(qb);
    if by_index {
        push_candidates_by_client(qb, tenant, "p", &PAYOUT_WALLET, pattern, phrase);
    }
    qb.push(" AND ");
    payout_matches(pattern)(qb);
}
