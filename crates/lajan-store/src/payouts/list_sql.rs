// The payouts list, for both backends: a page under the filter, type and search, with the counts
// per status filter (from the count table kept by triggers when there is no search); included
// after `payouts/sql.rs`, which answers `PayoutStore::list_payouts` with this.

/// A page of payouts and the counts beside it.
async fn list_payouts(
    store: &ThisStore,
    tenant: &Tenant,
    q: &PayoutQuery,
) -> StoreResult<(Page<PayoutDetail>, PayoutCounts)> {
    fn scope<'a>(
        qb: &mut QueryBuilder<'a>,
        tenant: &'a Tenant,
        kind: Option<&'a str>,
        pattern: Option<&'a str>,
    ) {
        push_tenant_filters(qb, "p", tenant, &[("type", kind)]);
        if let Some(pattern) = pattern {
            qb.push(" AND (LOWER(p.wallet_account_id) LIKE ").push_bind(pattern);
            qb.push(" ESCAPE '\\' OR LOWER(COALESCE(c.first_name, '') || ' ' || COALESCE(c.last_name, '')) LIKE ");
            qb.push_bind(pattern).push(" ESCAPE '\\')");
        }
    }
    let search = search_pattern(q.search.as_deref());
    let search = search.as_deref();
    let kind = q.payout_type.map(|t| t.as_str());
    let (approval, exec) = q.filter.map_or((None, None), PayoutFilter::statuses);
    let (approval, exec) = (approval.map(ApprovalStatus::as_str), exec.map(ExecStatus::as_str));
    let groups = if search.is_none() {
        // Kept per tenant, type and state by triggers (migration 0006).
        query(
            "SELECT approval_status, exec_status, CAST(SUM(n) AS BIGINT) AS n FROM payout_counts
             WHERE org_id = $1 AND env = $2 AND ($3 IS NULL OR type = $3)
             GROUP BY approval_status, exec_status",
        )
        .bind(&tenant.org_id)
        .bind(tenant.env.as_str())
        .bind(kind)
        .fetch_all(store.reader())
        .await?
    } else {
        let mut qb = QueryBuilder::new(
            "SELECT p.approval_status, p.exec_status, COUNT(*) AS n FROM payouts p LEFT JOIN clients c ON c.id = p.client_id",
        );
        scope(&mut qb, tenant, kind, search);
        qb.push(" GROUP BY p.approval_status, p.exec_status");
        qb.build().fetch_all(store.reader()).await?
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
    let page = store
        .list_page(
            tenant,
            &q.page,
            Listing { table: "payouts", alias: "p", select: payout_select!(), total: Total::Known(total) },
            move |qb| {
                scope(qb, tenant, kind, search);
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
