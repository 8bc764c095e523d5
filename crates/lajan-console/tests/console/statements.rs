//! Statements a clerk hands over: a client's page with every invoice, what is owed and what is
//! held as credit, and an invoice's statement on its page, each printable under the
//! organization's name and downloadable as CSV.

use crate::browser::{Browser, location, user};
use lajan_domain::user::Role;
use lajan_testkit::TestApp;
use serde_json::{Value, json};

async fn sent_invoice(app: &TestApp, client_id: &str, unit_price: &str) -> String {
    let unit_price: Value = serde_json::from_str(unit_price).unwrap();
    let lines = json!([{ "description": "Prè", "quantity": 1, "unitPrice": unit_price }]);
    let sent = app.invoice(client_id, json!({ "sendImmediately": true, "lineItems": lines })).await;
    sent["id"].as_str().unwrap().to_owned()
}

async fn pay_cash(app: &TestApp, invoice_id: &str, amount: &str) {
    let amount: Value = serde_json::from_str(amount).unwrap();
    let body = json!({ "amount": amount, "method": "cash", "reference": "REC-1" });
    let r = app.post(&format!("/v1/invoices/{invoice_id}/payments"), &body).await;
    assert_eq!(r.status(), 201, "{}", r.text().await.unwrap());
}

/// The page with its narrow no-break spaces (French grouping) read as plain spaces.
fn squashed(page: String) -> String {
    page.replace(['\u{202f}', '\u{a0}'], " ")
}

api_test!(a_clerk_hands_over_a_clients_statement_on_screen_on_paper_and_as_csv, |app| {
    let client = app.reachable_client().await;
    let client_id = client["id"].as_str().unwrap();
    let partly = sent_invoice(app, client_id, "2401").await;
    pay_cash(app, &partly, "1801").await;
    let overpaid = sent_invoice(app, client_id, "300").await;
    pay_cash(app, &overpaid, "500").await;
    let other: Value =
        app.post("/v1/clients", &json!({ "firstName": "Paul", "lastName": "Michel" })).await.json().await.unwrap();
    let others = app.invoice(other["id"].as_str().unwrap(), json!({})).await;
    let numbers: Vec<String> = {
        let mut numbers = Vec::new();
        for id in [&partly, &overpaid] {
            let invoice: Value = app.get(&format!("/v1/invoices/{id}")).await.json().await.unwrap();
            numbers.push(invoice["invoiceNumber"].as_str().unwrap().to_owned());
        }
        numbers
    };
    user(app, None, "ajan@example.ht", Role::Viewer).await;
    let french = Browser::speaking(app, "fr");
    assert_eq!(location(&french.sign_in("ajan@example.ht", crate::browser::PASSWORD).await), "/console");

    let clients = french.get("/console/clients").await.text().await.unwrap();
    assert!(clients.contains(&format!("href=\"/console/clients/{client_id}\"")), "the name leads to the statement");
    let page = squashed(french.get(&format!("/console/clients/{client_id}")).await.text().await.unwrap());
    assert!(page.contains("Relevé de compte de Marie Jean"), "{page}");
    let owed = &page[page.find("id=\"owed\"").unwrap()..];
    assert!(owed.starts_with("id=\"owed\">600,00 HTG</dd>"), "2 401,00 less 1 801,00: {owed}");
    let held = &page[page.find("id=\"credit-held\"").unwrap()..];
    assert!(held.starts_with("id=\"credit-held\">200,00 HTG</dd>"), "500,00 paid on 300,00: {held}");
    for number in &numbers {
        assert!(page.contains(number.as_str()), "{number} on {page}");
    }
    assert!(!page.contains(others["invoiceNumber"].as_str().unwrap()), "another client's invoice: {page}");
    assert!(page.contains("class=\"print-only organization\">Acme</p>"), "the printed page names the organization");
    let css = french.get("/console/assets/console.css").await.text().await.unwrap();
    assert!(css.contains("size: A4") && css.contains("@media print"), "a print style for one A4 page");

    let r = french.get(&format!("/console/clients/{client_id}/statement.csv")).await;
    assert_eq!(r.status(), 200);
    assert_eq!(r.headers()["content-type"], "text/csv; charset=utf-8");
    let csv = r.text().await.unwrap();
    let rows: Vec<Vec<&str>> = csv.lines().map(|l| l.split(',').collect()).collect();
    assert_eq!(
        rows[0],
        [
            "type",
            "invoiceNumber",
            "invoiceId",
            "status",
            "currency",
            "createdAt",
            "dueDate",
            "total",
            "credited",
            "paid",
            "owed"
        ]
    );
    let row = |id: &str| rows.iter().find(|r| r[2] == id).unwrap_or_else(|| panic!("{id} in {csv}"));
    assert_eq!(
        (row(&partly)[3], row(&partly)[7], row(&partly)[9], row(&partly)[10]),
        ("partially_paid", "2401.00", "1801.00", "600.00")
    );
    assert_eq!((row(&overpaid)[3], row(&overpaid)[10]), ("paid", "0.00"));
    assert_eq!(rows.last().unwrap()[0], "credit_held");
    assert_eq!((rows.last().unwrap()[4], rows.last().unwrap()[10]), ("HTG", "-200.00"));
    assert_eq!(rows.len(), 4, "the header, two invoices, the credit held: {csv}");

    // A draft asks for nothing yet.
    let theirs = french.get(&format!("/console/clients/{}", other["id"].as_str().unwrap())).await.text().await.unwrap();
    assert!(
        theirs.contains("id=\"owed\">Rien n’est dû.</dd>")
            && theirs.contains(others["invoiceNumber"].as_str().unwrap()),
        "{theirs}"
    );
    for missing in ["cli_00000000000000000000000000000000", "nothing"] {
        assert_eq!(french.get(&format!("/console/clients/{missing}")).await.status(), 404, "{missing}");
    }
    assert_eq!(french.get("/console/clients/nothing/statement.csv").await.status(), 404);
});

api_test!(an_invoices_page_shows_its_statement_line_by_line_and_downloads_it_as_the_api_does, |app| {
    let client = app.reachable_client().await;
    let client_id = client["id"].as_str().unwrap();
    let id = sent_invoice(app, client_id, "3751.50").await;
    assert_eq!(
        app.post(&format!("/v1/invoices/{id}/credit-notes"), &json!({ "amount": 100, "reason": "waiver" }))
            .await
            .status(),
        201
    );
    pay_cash(app, &id, "1000").await;
    user(app, None, "ajan@example.ht", Role::Viewer).await;
    let creole = Browser::speaking(app, "ht");
    assert_eq!(location(&creole.sign_in("ajan@example.ht", crate::browser::PASSWORD).await), "/console");

    let page = squashed(creole.get(&format!("/console/invoices/{id}")).await.text().await.unwrap());
    let at = page.find("id=\"statement-lines\"").unwrap_or_else(|| panic!("no statement on {page}"));
    let table = &page[at..at + page[at..].find("</table>").unwrap()];
    let rows: Vec<&str> = table.split("<tr>").skip(2).collect();
    assert_eq!(rows.len(), 3, "invoiced, credit note, payment: {table}");
    assert!(
        rows[0].contains("Fakti") && rows[0].contains("3 751,50") && rows[0].contains("3 751,50 HTG"),
        "{}",
        rows[0]
    );
    assert!(
        rows[1].contains("Nòt kredi") && rows[1].contains("-100,00") && rows[1].contains("3 651,50 HTG"),
        "{}",
        rows[1]
    );
    assert!(
        rows[2].contains("Peman · Kach") && rows[2].contains("-1 000,00") && rows[2].contains("2 651,50 HTG"),
        "{}",
        rows[2]
    );
    assert!(page.contains(&format!("/console/clients/{client_id}")), "the client's name leads to their statement");

    let ours = creole.get(&format!("/console/invoices/{id}/statement.csv")).await;
    assert_eq!(ours.status(), 200);
    let api = app.req(reqwest::Method::GET, &format!("/v1/invoices/{id}/statement")).header("accept", "text/csv");
    let api = api.send().await.unwrap();
    assert_eq!(ours.text().await.unwrap(), api.text().await.unwrap(), "the console's download is the API's CSV");
    assert_eq!(creole.get("/console/invoices/inv_00000000000000000000000000000000/statement.csv").await.status(), 404);
});
