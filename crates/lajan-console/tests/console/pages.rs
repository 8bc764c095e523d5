//! The console's read-only pages through the real router: each list and detail shows the
//! session's organization and environment only, amounts exactly, with filters and pages.

use crate::browser::{Browser, location, user};
use lajan_domain::Environment;
use lajan_domain::org::Tier;
use lajan_domain::user::Role;
use lajan_testkit::{TestApp, WALLET};
use serde_json::{Value, json};

async fn ok(r: reqwest::Response) -> Value {
    let status = r.status();
    let body: Value = r.json().await.unwrap();
    assert!(status.is_success(), "{status}: {body}");
    body
}

/// A page's status and its HTML with minijinja's entities decoded (it writes `/` as `&#x2f;`).
async fn page(browser: &Browser, path: &str) -> (u16, String) {
    let r = browser.get(path).await;
    let status = r.status().as_u16();
    let html = r.text().await.unwrap();
    let text = [("&#x2f;", "/"), ("&quot;", "\""), ("&#x27;", "'"), ("&lt;", "<"), ("&gt;", ">"), ("&amp;", "&")]
        .iter()
        .fold(html, |t, (entity, c)| t.replace(entity, c));
    (status, text)
}

api_test!(the_pages_show_the_sessions_organization_and_environment_only, |app| {
    user(app, None, "viewer@example.ht", Role::Viewer).await;
    let client = app.reachable_client().await;
    let client_id = client["id"].as_str().unwrap();
    let invoice = app
        .invoice(
            client_id,
            json!({ "lineItems": [{ "description": "Loan fee", "quantity": 3, "unitPrice": 1234.56, "taxRate": 0 }] }),
        )
        .await;
    let invoice_id = invoice["id"].as_str().unwrap();
    let number = invoice["invoiceNumber"].as_str().unwrap();
    let body = json!({ "walletAccountId": WALLET, "assetAmount": 40.05, "assetCode": "USDC", "memo": "Loan 2231" });
    let payout = ok(app.post("/v1/payouts", &body).await).await;
    let payout_id = payout["id"].as_str().unwrap();
    ok(app.post(&format!("/v1/payouts/{payout_id}/approve"), &json!({})).await).await;
    app.drain_payouts().await;
    let sent = ok(app.get(&format!("/v1/payouts/{payout_id}")).await).await;
    let tx_hash = sent["attempts"][0]["txHash"].as_str().expect("the payout was sent").to_owned();

    // The same organization's live data, and another organization's sandbox.
    let live_key = app.key(None, Environment::Live, &["*"]).await;
    let live_client = json!({ "firstName": "Livia", "lastName": "Live", "walletAccountId": WALLET });
    let live = ok(app.post_with(&live_key, "/v1/clients", &live_client).await).await;
    let other = app.org("Other MFI", Tier::Standard).await;
    let other_key = app.key(Some(&other.id), Environment::Test, &["*"]).await;
    let foreign_client = json!({ "firstName": "Foreign", "lastName": "Person", "email": "f@example.ht" });
    let foreign = ok(app.post_with(&other_key, "/v1/clients", &foreign_client).await).await;
    let foreign_invoice = json!({ "clientId": foreign["id"], "dueDate": "2030-01-31",
        "lineItems": [{ "description": "Other", "quantity": 1, "unitPrice": 5 }] });
    let foreign_invoice = ok(app.post_with(&other_key, "/v1/invoices", &foreign_invoice).await).await;

    let browser = Browser::signed_in(app, "viewer@example.ht").await;
    let (status, list) = page(&browser, "/console/invoices").await;
    assert_eq!(status, 200);
    assert!(list.contains(number) && list.contains("3,703.68 HTG"), "exact amount with its currency: {list}");
    let (_, drafts) = page(&browser, "/console/invoices?status=draft&search=").await;
    assert!(drafts.contains(number));
    let (_, paid) = page(&browser, "/console/invoices?status=paid").await;
    assert!(!paid.contains(number) && paid.contains("No invoices match."));
    let (_, of_client) = page(&browser, &format!("/console/invoices?client={client_id}")).await;
    assert!(of_client.contains(number));
    assert_eq!(page(&browser, "/console/invoices?status=bogus").await.0, 400);
    assert_eq!(page(&browser, "/console/invoices?page=0").await.0, 400);

    let (status, detail) = page(&browser, &format!("/console/invoices/{invoice_id}")).await;
    assert_eq!(status, 200);
    let line = "<td data-label=\"Description\">Loan fee</td><td class=\"num\" data-label=\"Quantity\">3</td>\
                <td class=\"num\" data-label=\"Unit price\">1,234.56</td><td class=\"num\" data-label=\"Tax %\">0</td>\
                <td class=\"num\" data-label=\"Amount\">3,703.68</td>";
    for shown in
        [line, "3,703.68 HTG", "invoice.created", "https://pay.lajan.test/pay/pi_", "by API key “test” (sk_test_"]
    {
        assert!(detail.contains(shown), "{shown} on the invoice page: {detail}");
    }

    let (_, payouts) = page(&browser, "/console/payouts").await;
    assert!(payouts.contains("40.05 USDC") && payouts.contains(&format!("/console/payouts/{payout_id}")), "{payouts}");
    let (_, completed) = page(&browser, "/console/payouts?status=completed").await;
    assert!(completed.contains("completed (1)") && completed.contains(payout_id));
    let (_, pending) = page(&browser, "/console/payouts?status=pending_approval&type=direct").await;
    assert!(!pending.contains(payout_id));
    let (status, detail) = page(&browser, &format!("/console/payouts/{payout_id}")).await;
    assert_eq!(status, 200);
    let by_worker = "title=\"payout.completed\">Payout sent</span>";
    for shown in [tx_hash.as_str(), "payout.created", "payout.approved", by_worker, "Loan 2231", WALLET] {
        assert!(detail.contains(shown), "{shown} on the payout page");
    }
    let completed_entry = detail.split(by_worker).nth(1).and_then(|rest| rest.split("</li>").next()).unwrap();
    assert!(completed_entry.contains("by Lajan (background work)"), "the worker sent it: {completed_entry}");

    let (_, clients) = page(&browser, "/console/clients").await;
    assert!(clients.contains("Marie") && !clients.contains("Livia") && !clients.contains("Foreign"));
    let (_, events) = page(&browser, "/console/events?type=invoice.created").await;
    assert!(
        events.contains(&format!("/console/invoices/{invoice_id}")) && !events.contains("<code>payout.created</code>")
    );
    assert!(events.contains("<td data-label=\"By\">API key “test” (sk_test_"), "each event names its maker: {events}");
    assert_eq!(page(&browser, "/console/events?type=nothing.happened").await.0, 400);

    // Another organization's ids, the other environment's, and ids of no shape: the same 404.
    let foreign_invoice_id = foreign_invoice["id"].as_str().unwrap();
    for path in [
        format!("/console/invoices/{foreign_invoice_id}"),
        format!("/console/payouts/{}", payout_id.replace("pyt_0", "pyt_f")),
        "/console/invoices/inv_nope".to_owned(),
        format!("/console/invoices/{payout_id}"),
    ] {
        let (status, text) = page(&browser, &path).await;
        assert_eq!(status, 404, "{path}");
        assert!(text.contains("Nothing with this id exists here."), "{path}");
    }
    let csrf = browser.csrf().await;
    let r = browser.post("/console/environment", &[("environment", "live"), ("csrf", &csrf)]).await;
    assert_eq!(location(&r), "/console");
    let (_, live_clients) = page(&browser, "/console/clients").await;
    assert!(live_clients.contains("Livia") && !live_clients.contains("Marie"), "live shows live data only");
    assert_eq!(page(&browser, &format!("/console/invoices/{invoice_id}")).await.0, 404, "a sandbox id in live");
    assert_eq!(page(&browser, &format!("/console/payouts/{payout_id}")).await.0, 404);
    assert!(live["id"].is_string());
});

api_test!(lists_page_with_the_apis_limits_and_keep_their_filters, |app| {
    user(app, None, "viewer@example.ht", Role::Viewer).await;
    for name in ["Ana", "Bea", "Cal"] {
        app.client(name, "Jean").await;
    }
    let browser = Browser::signed_in(app, "viewer@example.ht").await;
    let (status, first) = page(&browser, "/console/clients?limit=2&search=Jean").await;
    assert_eq!(status, 200);
    assert!(first.contains("Page 1 of 2 · 3 in all"), "{first}");
    assert!(first.contains("href=\"?search=Jean&limit=2&page=2\""), "the next link keeps the filters: {first}");
    let (_, second) = page(&browser, "/console/clients?search=Jean&limit=2&page=2").await;
    assert!(second.contains("Page 2 of 2") && second.contains("rel=\"prev\"") && !second.contains("rel=\"next\""));
    assert_eq!(page(&browser, "/console/clients?limit=101").await.0, 400, "at most the API's 100");
    assert_eq!(page(&browser, &format!("/console/clients?search={}", "x".repeat(201))).await.0, 400);
});

api_test!(the_dashboard_sums_what_waits_and_what_was_paid_and_disbursements_show_their_items, |app| {
    user(app, None, "viewer@example.ht", Role::Viewer).await;
    let payout = async |amount: Value, asset: &str| {
        let body = json!({ "walletAccountId": WALLET, "assetAmount": amount, "assetCode": asset });
        ok(app.post("/v1/payouts", &body).await).await["id"].as_str().unwrap().to_owned()
    };
    let sent = payout(json!(40.05), "USDC").await;
    ok(app.post(&format!("/v1/payouts/{sent}/approve"), &json!({})).await).await;
    app.drain_payouts().await;
    payout(json!(12.5), "USDC").await;
    payout(json!(7.25), "HTG").await;
    let items = [
        json!({ "walletAccountId": WALLET, "assetAmount": 15, "externalId": "june-1", "memo": "=1+1" }),
        json!({ "walletAccountId": WALLET, "assetAmount": 15, "externalId": "june-2" }),
    ];
    let batch = json!({ "name": "June stipends", "assetCode": "USDC", "items": items });
    let d = ok(app.post("/v1/disbursements", &batch).await).await;
    let d_id = d["id"].as_str().unwrap();
    ok(app.post(&format!("/v1/disbursements/{d_id}/submit"), &json!({})).await).await;

    let browser = Browser::signed_in(app, "viewer@example.ht").await;
    let (status, dashboard) = page(&browser, "/console").await;
    assert_eq!(status, 200);
    assert!(
        dashboard.contains("<meta name=\"description\" content=\"Lajan console: invoice your clients"),
        "{dashboard}"
    );
    let squashed: String = dashboard.split_whitespace().collect::<Vec<_>>().join(" ");
    for shown in [
        "<th>USDC</th><td class=\"num\">999,959.95</td>",
        "<th>1 in USDC</th><td class=\"num\">12.50 USDC</td>",
        "<th>1 in HTG</th><td class=\"num\">7.25 HTG</td>",
        "June stipends</a> (2 items)</th><td class=\"num\">30.00 USDC</td>",
        "<th>1 sent</th><td class=\"num\">40.05 USDC</td>",
        "<span title=\"disbursement.submitted\">Disbursement submitted</span>",
    ] {
        assert!(squashed.contains(shown), "{shown} on the dashboard: {squashed}");
    }

    let (_, list) = page(&browser, "/console/disbursements?status=pending_approval").await;
    assert!(list.contains("June stipends") && list.contains("30.00 USDC"));
    let (status, detail) = page(&browser, &format!("/console/disbursements/{d_id}")).await;
    assert_eq!(status, 200);
    for shown in ["2 pending", "june-1", "june-2", "disbursement.submitted", "report.csv"] {
        assert!(detail.contains(shown), "{shown} on the disbursement page");
    }
    let (_, sent_items) = page(&browser, &format!("/console/disbursements/{d_id}?status=sent")).await;
    assert!(!sent_items.contains("june-1") && sent_items.contains("No items match."));

    let r = browser.get(&format!("/console/disbursements/{d_id}/report.csv")).await;
    assert_eq!(r.status(), 200);
    assert_eq!(r.headers()["content-type"], "text/csv; charset=utf-8");
    assert!(r.headers()["content-disposition"].to_str().unwrap().contains(&format!("{d_id}-items.csv")));
    let csv = r.text().await.unwrap();
    let lines: Vec<&str> = csv.split("\r\n").filter(|l| !l.is_empty()).collect();
    assert_eq!(lines.len(), 3, "{csv}");
    assert!(lines[0].starts_with("id,row,externalId") && csv.contains("'=1+1"), "formulas defused: {csv}");

    let other = app.org("Other MFI", Tier::Standard).await;
    let other_key = app.key(Some(&other.id), Environment::Test, &["*"]).await;
    let foreign = ok(app.post_with(&other_key, "/v1/disbursements", &batch).await).await;
    let foreign_id = foreign["id"].as_str().unwrap();
    assert_eq!(page(&browser, &format!("/console/disbursements/{foreign_id}")).await.0, 404);
    assert_eq!(browser.get(&format!("/console/disbursements/{foreign_id}/report.csv")).await.status(), 404);
    let (_, mine) = page(&browser, "/console/disbursements").await;
    assert_eq!(mine.matches("June stipends").count(), 1, "the other organization's batch is not listed");
});
