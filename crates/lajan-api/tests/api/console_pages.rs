//! The console's read-only pages through the real router: each list and detail shows the
//! session's organization and environment only, amounts exactly, with filters and pages.

use crate::common::{TestApp, WALLET};
use crate::console_browser::{Browser, location, user};
use lajan_domain::Environment;
use lajan_domain::org::Tier;
use lajan_domain::user::Role;
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
    assert!(list.contains(number) && list.contains("3703.68 HTG"), "exact amount with its currency: {list}");
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
    for shown in ["Loan fee", "1234.56", "3703.68 HTG", "invoice.created", "https://pay.lajan.test/pay/pi_"] {
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
    for shown in [tx_hash.as_str(), "payout.created", "payout.approved", "payout.completed", "Loan 2231", WALLET] {
        assert!(detail.contains(shown), "{shown} on the payout page");
    }

    let (_, clients) = page(&browser, "/console/clients").await;
    assert!(clients.contains("Marie") && !clients.contains("Livia") && !clients.contains("Foreign"));
    let (_, events) = page(&browser, "/console/events?type=invoice.created").await;
    assert!(
        events.contains(&format!("/console/invoices/{invoice_id}")) && !events.contains("<code>payout.created</code>")
    );
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
