//! Invoices from the console: a maker drafts one (adding and removing line rows without
//! script), edits the draft, sends it and voids it, each through the API's service method
//! as the user; other roles and posts without the CSRF value change nothing.

use crate::browser::{Browser, location, user};
use lajan_domain::user::Role;
use lajan_testkit::TestApp;
use serde_json::{Value, json};

fn once_of(page: &str) -> String {
    let marker = "name=\"once\" value=\"";
    let start = page.find(marker).unwrap_or_else(|| panic!("no once field on {page}")) + marker.len();
    page[start..].split('"').next().unwrap().to_owned()
}

/// The one-time key of the form with id `form` on a page with several.
fn once_in(page: &str, form: &str) -> String {
    let at = page.find(&format!("id=\"{form}\"")).unwrap_or_else(|| panic!("no form {form} on {page}"));
    once_of(&page[at..])
}

async fn invoice(app: &TestApp, id: &str) -> Value {
    app.get(&format!("/v1/invoices/{id}")).await.json().await.unwrap()
}

/// The invoice form's fields with `lines` (description, quantity, unit price).
fn fields<'a>(
    csrf: &'a str,
    once: &'a str,
    client: &'a str,
    lines: &[(&'a str, &'a str, &'a str)],
) -> Vec<(&'a str, &'a str)> {
    let mut fields =
        vec![("csrf", csrf), ("once", once), ("client", client), ("currency", "HTG"), ("due_date", "2030-01-31")];
    for (description, quantity, price) in lines {
        fields.extend([
            ("description", *description),
            ("quantity", *quantity),
            ("unit_price", *price),
            ("tax_rate", ""),
        ]);
    }
    fields
}

api_test!(a_maker_drafts_edits_sends_and_voids_invoices, |app| {
    let maker = user(app, None, "maker@example.ht", Role::Maker).await;
    let client = app.reachable_client().await;
    let client_id = client["id"].as_str().unwrap();
    let browser = Browser::signed_in(app, "maker@example.ht").await;
    assert!(browser.get("/console/invoices").await.text().await.unwrap().contains("/console/invoices/new"));
    let page = browser.get("/console/invoices/new").await.text().await.unwrap();
    assert_eq!(page.matches("<input name=\"description\"").count(), 3, "three blank rows to start");
    let (once, csrf) = (once_of(&page), browser.csrf().await);

    let mut more = fields(&csrf, &once, client_id, &[("Loan fee", "2", "150.25"), ("", "", ""), ("", "", "")]);
    more.push(("add_line", "1"));
    let r = browser.post("/console/invoices", &more).await;
    assert_eq!(r.status(), 200);
    let page = r.text().await.unwrap();
    assert_eq!(page.matches("<input name=\"description\"").count(), 4, "a row more");
    assert!(page.contains("value=\"Loan fee\""), "what was typed stays");
    let mut fewer = fields(&csrf, &once, client_id, &[("Loan fee", "2", "150.25"), ("Stamp", "1", "10")]);
    fewer.push(("remove_line", "1"));
    let page = browser.post("/console/invoices", &fewer).await.text().await.unwrap();
    assert!(page.contains("value=\"Loan fee\"") && !page.contains("value=\"Stamp\""), "the second row went");
    let mut forged = fields(&csrf, &once, client_id, &[("Loan fee", "2", "150.25")]);
    forged.push(("remove_line", "first"));
    let r = browser.post("/console/invoices", &forged).await;
    assert_eq!(r.status(), 200, "a row the form does not have: the form again");
    assert!(r.text().await.unwrap().contains("value=\"Loan fee\""));
    let listed: Value = app.get("/v1/invoices").await.json().await.unwrap();
    assert_eq!(listed["pagination"]["total"], 0, "adding and removing rows saves nothing");

    let no_client = fields(&csrf, &once, "", &[("Loan fee", "2", "150.25")]);
    let r = browser.post("/console/invoices", &no_client).await;
    assert_eq!(r.status(), 400);
    assert!(r.text().await.unwrap().contains("Client: is required"), "the missing client is named");
    let bad_line = fields(&csrf, &once, client_id, &[("Loan fee", "two", "150.25")]);
    assert_eq!(browser.post("/console/invoices", &bad_line).await.status(), 400);

    let good = fields(&csrf, &once, client_id, &[("Loan fee", "2", "150.25"), ("", "", "")]);
    let r = browser.post("/console/invoices", &good).await;
    assert_eq!(r.status(), 303);
    let made = location(&r);
    let id = made.strip_prefix("/console/invoices/").unwrap().to_owned();
    assert_eq!(location(&browser.post("/console/invoices", &good).await), made, "posted twice, made once");
    let draft = invoice(app, &id).await;
    assert_eq!((draft["status"].as_str(), draft["total"].as_str()), (Some("draft"), Some("300.50")));
    assert_eq!(draft["lineItems"].as_array().unwrap().len(), 1, "the blank row is no line");
    let created: Value = app.get("/v1/events?type=invoice.created").await.json().await.unwrap();
    assert_eq!(created["data"][0]["actor"], json!({ "type": "user", "id": maker.id }));

    let page = browser.get(&format!("{made}/edit")).await.text().await.unwrap();
    assert!(page.contains("value=\"Loan fee\"") && page.contains("value=\"2030-01-31\""), "the draft's values");
    let edited = fields(&csrf, "", client_id, &[("Loan fee", "3", "150.25")]);
    let r = browser.post(&format!("{made}/edit"), &edited).await;
    assert_eq!((r.status().as_u16(), location(&r)), (303, made.clone()));
    assert_eq!(invoice(app, &id).await["total"], "450.75");

    let detail = browser.get(&made).await.text().await.unwrap();
    assert!(detail.contains("data-copy=\"payment-link\"") && detail.contains("/console/assets/console.js"));
    let r = browser.post(&format!("{made}/send"), &[("csrf", csrf.as_str()), ("channel", "email")]).await;
    assert_eq!((r.status().as_u16(), location(&r)), (303, format!("{made}?done=sent")));
    let sent = invoice(app, &id).await;
    assert_eq!(sent["status"], "sent");
    let events: Value = app.get("/v1/events?type=invoice.sent").await.json().await.unwrap();
    assert_eq!(events["data"][0]["actor"]["id"], maker.id.as_str());
    let messages: Value = app.get("/v1/sandbox/messages").await.json().await.unwrap();
    let channels: Vec<&str> =
        messages["data"].as_array().unwrap().iter().map(|m| m["channel"].as_str().unwrap()).collect();
    assert_eq!(channels, ["email"], "by email only, as asked");
    assert_eq!(browser.get(&format!("{made}/edit")).await.status(), 409, "a sent invoice is no draft");
    assert_eq!(browser.post(&format!("{made}/edit"), &edited).await.status(), 400, "nor saved as one");

    let asked = browser.post(&format!("{made}/void"), &[("csrf", csrf.as_str()), ("reason", "Issued twice")]).await;
    assert_eq!(asked.status(), 200);
    let asked = asked.text().await.unwrap();
    assert!(asked.contains("Void invoice INV-000001 (") && asked.contains("Yes, void the invoice"), "{asked}");
    assert!(asked.contains("name=\"reason\" value=\"Issued twice\""), "the reason carried over: {asked}");
    assert_eq!(invoice(app, &id).await["status"], "sent", "nothing voided before it is confirmed");
    let confirmed = [("csrf", csrf.as_str()), ("reason", "Issued twice"), ("confirmed", "1")];
    let r = browser.post(&format!("{made}/void"), &confirmed).await;
    assert_eq!((r.status().as_u16(), location(&r)), (303, format!("{made}?done=voided")));
    assert!(
        browser
            .get(&location(&r))
            .await
            .text()
            .await
            .unwrap()
            .contains("Voided: the payment page no longer takes payments.")
    );
    assert_eq!(invoice(app, &id).await["status"], "void");
    let r = browser.post(&format!("{made}/void"), &[("csrf", csrf.as_str()), ("confirmed", "1")]).await;
    assert_eq!(r.status(), 303, "voiding again changes nothing, as in the API");
    assert_eq!(invoice(app, &id).await["status"], "void");
    assert_eq!(
        browser.post(&format!("{made}/send"), &[("csrf", csrf.as_str()), ("channel", "fax")]).await.status(),
        400
    );
});

api_test!(invoice_actions_need_the_maker_role_and_the_csrf_value, |app| {
    let client = app.reachable_client().await;
    let draft = app.invoice(client["id"].as_str().unwrap(), json!({})).await;
    let id = draft["id"].as_str().unwrap();
    for role in [Role::Viewer, Role::Approver] {
        let email = format!("{role}@example.ht");
        user(app, None, &email, role).await;
        let browser = Browser::signed_in(app, &email).await;
        assert_eq!(browser.get("/console/invoices/new").await.status(), 403, "{role}");
        assert_eq!(browser.get(&format!("/console/invoices/{id}/edit")).await.status(), 403, "{role}");
        let page = browser.get(&format!("/console/invoices/{id}")).await.text().await.unwrap();
        assert!(!page.contains("<h2>Actions</h2>"), "{role} sees no actions");
        let csrf = browser.csrf().await;
        let once = "c".repeat(64);
        let new = fields(&csrf, &once, client["id"].as_str().unwrap(), &[("Sneaky", "1", "1")]);
        assert_eq!(browser.post("/console/invoices", &new).await.status(), 403, "{role}");
        for action in ["edit", "send", "void"] {
            let r = browser.post(&format!("/console/invoices/{id}/{action}"), &[("csrf", &csrf)]).await;
            assert_eq!(r.status(), 403, "{role}: {action}");
        }
    }
    user(app, None, "maker@example.ht", Role::Maker).await;
    let maker = Browser::signed_in(app, "maker@example.ht").await;
    for action in ["send", "void"] {
        let r = maker.post(&format!("/console/invoices/{id}/{action}"), &[("csrf", "forged")]).await;
        assert_eq!(r.status(), 403, "without the session's csrf value: {action}");
    }
    let still = invoice(app, id).await;
    assert_eq!(still["status"], "draft");
    let listed: Value = app.get("/v1/invoices").await.json().await.unwrap();
    assert_eq!(listed["pagination"]["total"], 1);
});

api_test!(a_maker_records_a_payment_received_at_the_branch_once, |app| {
    let client = app.reachable_client().await;
    let sent = app.invoice(client["id"].as_str().unwrap(), json!({ "sendImmediately": true })).await;
    let id = sent["id"].as_str().unwrap();
    let maker = user(app, None, "caissier@example.ht", Role::Maker).await;
    let browser = Browser::signed_in(app, "caissier@example.ht").await;
    let page_path = format!("/console/invoices/{id}");
    let page = browser.get(&page_path).await.text().await.unwrap();
    assert!(page.contains("id=\"record-payment\"") && page.contains("value=\"moncash\""), "{page}");
    let csrf = browser.csrf().await;
    let once = once_in(&page, "record-payment");
    let form = [
        ("csrf", csrf.as_str()),
        ("once", once.as_str()),
        ("amount", "40"),
        ("method", "cash"),
        ("reference", "REC-7"),
    ];
    let path = format!("{page_path}/payments");
    let r = browser.post(&path, &form).await;
    assert_eq!((r.status().as_u16(), location(&r)), (303, format!("{page_path}?done=payment")));
    // The same form posted again (a double click) records nothing more.
    let r = browser.post(&path, &form).await;
    assert_eq!((r.status().as_u16(), location(&r)), (303, format!("{page_path}?done=payment")));
    let after = invoice(app, id).await;
    assert_eq!((after["amountPaid"].as_str(), after["amountRemaining"].as_str()), (Some("40.00"), Some("60.00")));
    let payments: Value = app.get(&format!("/v1/invoices/{id}/payments")).await.json().await.unwrap();
    assert_eq!(payments["pagination"]["total"], 1);
    assert_eq!(payments["data"][0]["recordedBy"], json!({ "type": "user", "id": maker.id }));
    let page = browser.get(&page_path).await.text().await.unwrap();
    assert!(page.contains("id=\"payments\"") && page.contains("REC-7") && page.contains("60.00"), "{page}");

    // A bad amount is refused with the rule, and nothing is recorded.
    let page = browser.get(&page_path).await.text().await.unwrap();
    let once = once_in(&page, "record-payment");
    let bad =
        [("csrf", csrf.as_str()), ("once", once.as_str()), ("amount", "-5"), ("method", "cash"), ("reference", "")];
    let r = browser.post(&path, &bad).await;
    assert!(r.status().is_client_error(), "{}", r.status());
    let payments: Value = app.get(&format!("/v1/invoices/{id}/payments")).await.json().await.unwrap();
    assert_eq!(payments["pagination"]["total"], 1);
    // Counted by mistake: reversed from the page with a reason, once.
    let payment_id = payments["data"][0]["id"].as_str().unwrap().to_owned();
    let reverse = format!("{page_path}/payments/{payment_id}/reverse");
    assert!(page.contains(&format!("action=\"{reverse}\"")), "{page}");
    let r = browser.post(&reverse, &[("csrf", csrf.as_str()), ("reason", " ")]).await;
    assert_eq!(r.status(), 400, "a reason is required");
    assert_eq!(invoice(app, id).await["amountPaid"], "40.00");
    let r = browser.post(&reverse, &[("csrf", csrf.as_str()), ("reason", "Reçu d'un autre prêt")]).await;
    assert_eq!((r.status().as_u16(), location(&r)), (303, format!("{page_path}?done=reversed")));
    let after = invoice(app, id).await;
    assert_eq!((after["amountPaid"].as_str(), after["status"].as_str()), (Some("0.00"), Some("sent")));
    let payments: Value = app.get(&format!("/v1/invoices/{id}/payments")).await.json().await.unwrap();
    assert_eq!(payments["data"][0]["reversalReason"], "Reçu d'un autre prêt");
    let r = browser.post(&reverse, &[("csrf", csrf.as_str()), ("reason", "again")]).await;
    assert_eq!(r.status(), 409, "reversed already");
    let page = browser.get(&page_path).await.text().await.unwrap();
    assert!(!page.contains(&format!("action=\"{reverse}\"")), "no Reverse on a reversed payment");
});

api_test!(a_payment_above_what_is_owed_is_recorded_only_once_confirmed_naming_the_excess, |app| {
    let client = app.reachable_client().await;
    let body =
        json!({ "sendImmediately": true, "lineItems": [{ "description": "Prè", "quantity": 1, "unitPrice": 2401 }] });
    let sent = app.invoice(client["id"].as_str().unwrap(), body).await;
    let id = sent["id"].as_str().unwrap();
    user(app, None, "kesye@example.ht", Role::Maker).await;
    let browser = Browser::speaking(app, "fr");
    assert_eq!(location(&browser.sign_in("kesye@example.ht", crate::browser::PASSWORD).await), "/console");
    let page_path = format!("/console/invoices/{id}");
    let page = browser.get(&page_path).await.text().await.unwrap();
    let csrf = browser.csrf().await;
    let once = once_in(&page, "record-payment");
    let typo = [
        ("csrf", csrf.as_str()),
        ("once", once.as_str()),
        ("amount", "99 999,00"),
        ("method", "cash"),
        ("reference", ""),
    ];
    let path = format!("{page_path}/payments");
    let r = browser.post(&path, &typo).await;
    assert_eq!(r.status(), 200, "asked, not recorded");
    let asked = r.text().await.unwrap();
    let squashed = asked.replace(['\u{202f}', '\u{a0}'], " ");
    assert!(squashed.contains("Elle doit 2 401,00 HTG") && squashed.contains("les 97 598,00 HTG en trop"), "{asked}");
    assert!(asked.contains("name=\"confirmed\"") && asked.contains(&format!("value=\"{once}\"")), "{asked}");
    let payments: Value = app.get(&format!("/v1/invoices/{id}/payments")).await.json().await.unwrap();
    assert_eq!(payments["pagination"]["total"], 0, "nothing recorded before the clerk confirms");

    // What is owed or less goes at once; above it, once confirmed, is recorded once.
    let mut confirmed = typo.to_vec();
    confirmed.push(("confirmed", "1"));
    let r = browser.post(&path, &confirmed).await;
    assert_eq!((r.status().as_u16(), location(&r)), (303, format!("{page_path}?done=payment")));
    assert_eq!(browser.post(&path, &confirmed).await.status(), 303, "posted twice");
    let after = invoice(app, id).await;
    assert_eq!(after["status"], "paid");
    let payments: Value = app.get(&format!("/v1/invoices/{id}/payments")).await.json().await.unwrap();
    assert_eq!(payments["pagination"]["total"], 1);
});

api_test!(a_maker_issues_and_voids_a_credit_note_and_sees_the_plan_and_what_is_held, |app| {
    let client = app.reachable_client().await;
    let plan = json!({ "sendImmediately": true, "installments": [
        { "amount": 60, "dueDate": "2029-12-31" }, { "amount": 40, "dueDate": "2030-01-31" },
    ] });
    let sent = app.invoice(client["id"].as_str().unwrap(), plan).await;
    let id = sent["id"].as_str().unwrap();
    user(app, None, "agent@example.ht", Role::Maker).await;
    let browser = Browser::signed_in(app, "agent@example.ht").await;
    let page_path = format!("/console/invoices/{id}");
    let page = browser.get(&page_path).await.text().await.unwrap();
    assert!(page.contains("id=\"installments\"") && page.contains("60.00") && page.contains("40.00"), "{page}");
    assert!(page.contains("id=\"issue-credit-note\"") && page.contains("value=\"rescheduling\""), "{page}");
    let csrf = browser.csrf().await;
    let once = once_in(&page, "issue-credit-note");
    let form = [
        ("csrf", csrf.as_str()),
        ("once", once.as_str()),
        ("amount", "30"),
        ("reason", "rescheduling"),
        ("memo", "Cyclone"),
    ];
    let path = format!("{page_path}/credit-notes");
    let r = browser.post(&path, &form).await;
    assert_eq!((r.status().as_u16(), location(&r)), (303, format!("{page_path}?done=credit-note")));
    let r = browser.post(&path, &form).await;
    assert_eq!(
        (r.status().as_u16(), location(&r)),
        (303, format!("{page_path}?done=credit-note")),
        "posted twice, issued once"
    );
    let notes: Value = app.get(&format!("/v1/invoices/{id}/credit-notes")).await.json().await.unwrap();
    assert_eq!(notes["data"].as_array().unwrap().len(), 1);
    let after = invoice(app, id).await;
    assert_eq!((&after["amountCredited"], &after["amountRemaining"]), (&json!("30.00"), &json!("70.00")));
    let page = browser.get(&page_path).await.text().await.unwrap();
    assert!(page.contains("id=\"credit-notes\"") && page.contains("CN-000001") && page.contains("Cyclone"), "{page}");
    assert!(page.contains("id=\"credited\""), "{page}");

    // Too much is refused with the rule, and nothing is issued.
    let once = once_in(&page, "issue-credit-note");
    let bad = [("csrf", csrf.as_str()), ("once", once.as_str()), ("amount", "71"), ("reason", "waiver"), ("memo", "")];
    let r = browser.post(&path, &bad).await;
    assert_eq!(r.status(), 409);
    assert!(r.text().await.unwrap().contains("70.00"), "it says how much is left");

    // Voided from the page: the invoice asks for it again; voiding again is refused.
    let void = format!("{page_path}/credit-notes/{}/void", notes["data"][0]["id"].as_str().unwrap());
    assert!(page.contains(&format!("action=\"{void}\"")), "{page}");
    let r = browser.post(&void, &[("csrf", csrf.as_str())]).await;
    assert_eq!((r.status().as_u16(), location(&r)), (303, format!("{page_path}?done=credit-note-voided")));
    assert_eq!(invoice(app, id).await["amountRemaining"], "100.00");
    let r = browser.post(&void, &[("csrf", csrf.as_str())]).await;
    assert_eq!(r.status(), 409, "void already");

    // 130.00 in cash: the 30.00 beyond is shown as held on the client's credit balance.
    app.post(&format!("/v1/invoices/{id}/payments"), &json!({ "amount": 130, "method": "cash" })).await;
    let page = browser.get(&page_path).await.text().await.unwrap();
    assert!(page.contains("id=\"overpaid\""), "{page}");
});

api_test!(a_maker_plans_instalments_and_applies_the_credit_balance_from_the_form, |app| {
    user(app, None, "agent@example.ht", Role::Maker).await;
    let client = app.reachable_client().await;
    let client_id = client["id"].as_str().unwrap();
    let browser = Browser::signed_in(app, "agent@example.ht").await;
    let page = browser.get("/console/invoices/new").await.text().await.unwrap();
    assert!(!page.contains("name=\"installment_due\"") && page.contains("name=\"add_installment\""), "{page}");
    let (once, csrf) = (once_of(&page), browser.csrf().await);
    let base = fields(&csrf, &once, client_id, &[("Loan", "1", "300")]);
    let without_due: Vec<(&str, &str)> = base.iter().copied().filter(|(k, _)| *k != "due_date").collect();

    let mut more = without_due.clone();
    more.push(("add_installment", "1"));
    let page = browser.post("/console/invoices", &more).await.text().await.unwrap();
    assert_eq!(page.matches("name=\"installment_due\"").count(), 1, "a row to fill");

    // Rows that do not add up are named, and nothing is made.
    let mut short = without_due.clone();
    short.extend([("installment_due", "2030-01-31"), ("installment_amount", "100")]);
    short.extend([("installment_due", "2030-02-28"), ("installment_amount", "100")]);
    let r = browser.post("/console/invoices", &short).await;
    assert_eq!(r.status(), 400);
    assert!(r.text().await.unwrap().contains("Instalments"), "the plan is named");

    let mut planned = without_due.clone();
    planned.extend([("installment_due", "2030-01-31"), ("installment_amount", "100")]);
    planned.extend([("installment_due", "2030-02-28"), ("installment_amount", "200")]);
    planned.extend([("installment_due", ""), ("installment_amount", "")]);
    planned.push(("apply_credit_balance", "1"));
    let r = browser.post("/console/invoices", &planned).await;
    assert_eq!(r.status(), 303);
    let made = location(&r);
    let id = made.strip_prefix("/console/invoices/").unwrap().to_owned();
    let draft = invoice(app, &id).await;
    assert_eq!((&draft["dueDate"], &draft["applyCreditBalance"]), (&json!("2030-02-28"), &json!(true)));
    let amounts: Vec<&str> =
        draft["installments"].as_array().unwrap().iter().map(|i| i["amount"].as_str().unwrap()).collect();
    assert_eq!(amounts, ["100.00", "200.00"]);

    // Edited: the plan is shown and saved as the form holds it; removed, it is due at once.
    let page = browser.get(&format!("{made}/edit")).await.text().await.unwrap();
    assert_eq!(page.matches("name=\"installment_due\"").count(), 2, "{page}");
    assert!(
        page.contains("value=\"2030-02-28\"") && page.contains("name=\"apply_credit_balance\" value=\"1\" checked")
    );
    let mut due_at_once = fields(&csrf, "", client_id, &[("Loan", "1", "300")]);
    due_at_once.retain(|(k, _)| *k != "due_date");
    due_at_once.push(("due_date", "2030-03-31"));
    let r = browser.post(&format!("{made}/edit"), &due_at_once).await;
    assert_eq!(r.status(), 303);
    let edited = invoice(app, &id).await;
    assert_eq!((&edited["installments"], &edited["dueDate"]), (&json!([]), &json!("2030-03-31")));
    assert_eq!(edited["applyCreditBalance"], false, "the box left unticked");
});

api_test!(a_clerk_reads_an_invoices_and_a_clients_messages_with_their_status, |app| {
    user(app, None, "viewer@example.ht", Role::Viewer).await;
    let client = app.reachable_client().await;
    let client_id = client["id"].as_str().unwrap();
    let sent = app.invoice(client_id, json!({ "sendImmediately": true })).await;
    let id = sent["id"].as_str().unwrap();
    // A text to the sandbox's failing number, for a failed message and its reason.
    let refused = json!({ "firstName": "Paul", "lastName": "Michel",
                          "phoneNumber": lajan_domain::message::SANDBOX_FAILING_PHONE });
    let refused: Value = app.post("/v1/clients", &refused).await.json().await.unwrap();
    app.invoice(refused["id"].as_str().unwrap(), json!({ "sendImmediately": true })).await;
    let browser = Browser::signed_in(app, "viewer@example.ht").await;

    let page = browser.get(&format!("/console/invoices/{id}")).await.text().await.unwrap();
    let at = page.find("id=\"invoice-messages\"").unwrap_or_else(|| panic!("no messages on {page}"));
    let table = &page[at..page[at..].find("</table>").unwrap() + at];
    assert_eq!(table.matches("class=\"message-delivered\"").count(), 2, "email and SMS: {table}");
    assert!(table.contains(client["phoneNumber"].as_str().unwrap()) && table.contains("marie@example.ht"), "{table}");

    let theirs = browser.get(&format!("/console/messages?client={client_id}")).await.text().await.unwrap();
    assert_eq!(theirs.matches("class=\"message-delivered\"").count(), 2, "{theirs}");
    let failed = browser.get("/console/messages?status=failed").await.text().await.unwrap();
    assert_eq!(failed.matches("class=\"message-failed\"").count(), 1, "{failed}");
    assert!(failed.contains("21211") && !failed.contains("message-delivered"), "{failed}");
    let clients = browser.get("/console/clients").await.text().await.unwrap();
    assert!(clients.contains(&format!("/console/messages?client={client_id}")), "{clients}");
    let bad = browser.get("/console/messages?channel=pigeon").await;
    assert_eq!(bad.status(), 400);
});

api_test!(refusals_with_amounts_are_worded_in_the_pages_language_and_number_format, |app| {
    let client = app.reachable_client().await;
    let client_id = client["id"].as_str().unwrap();
    let body =
        json!({ "sendImmediately": true, "lineItems": [{ "description": "Prè", "quantity": 1, "unitPrice": 3751.5 }] });
    let sent = app.invoice(client_id, body).await;
    let id = sent["id"].as_str().unwrap();
    let note = json!({ "amount": 100, "reason": "waiver" });
    assert_eq!(app.post(&format!("/v1/invoices/{id}/credit-notes"), &note).await.status(), 201);
    user(app, None, "ajan@example.ht", Role::Maker).await;
    let french = Browser::speaking(app, "fr");
    assert_eq!(location(&french.sign_in("ajan@example.ht", crate::browser::PASSWORD).await), "/console");
    let creole = Browser::speaking(app, "ht");
    assert_eq!(location(&creole.sign_in("ajan@example.ht", crate::browser::PASSWORD).await), "/console");
    let squashed = |page: String| page.replace(['\u{202f}', '\u{a0}'], " ");

    // A plan that does not add up to the total.
    for (browser, says) in [
        (&french, "les échéances font 3 751,00 ; le total de la facture est de 3 751,50"),
        (&creole, "tranch yo fè 3 751,00; total fakti a se 3 751,50"),
    ] {
        let page = browser.get("/console/invoices/new").await.text().await.unwrap();
        let (once, csrf) = (once_of(&page), browser.csrf().await);
        let mut form = fields(&csrf, &once, client_id, &[("Prè", "1", "3751,50")]);
        form.retain(|(k, _)| *k != "due_date");
        form.extend([("installment_due", "2030-01-31"), ("installment_amount", "1751")]);
        form.extend([("installment_due", "2030-02-28"), ("installment_amount", "2000")]);
        let r = browser.post("/console/invoices", &form).await;
        assert_eq!(r.status(), 400);
        let page = squashed(r.text().await.unwrap());
        assert!(page.contains(says) && !page.contains("sum to"), "{page}");
    }

    // A credit note above what the credit notes leave of the total.
    for (browser, says) in [
        (&french, "doit valoir au plus 3 651,50 : ce que les avoirs de la facture laissent de son total"),
        (&creole, "pa dwe depase 3 651,50: sa nòt kredi fakti a kite sou total li"),
    ] {
        let page_path = format!("/console/invoices/{id}");
        let page = browser.get(&page_path).await.text().await.unwrap();
        let (once, csrf) = (once_in(&page, "issue-credit-note"), browser.csrf().await);
        let form = [("csrf", csrf.as_str()), ("once", once.as_str()), ("amount", "5000"), ("reason", "waiver")];
        let r = browser.post(&format!("{page_path}/credit-notes"), &form).await;
        assert!(r.status().is_client_error(), "{}", r.status());
        let page = squashed(r.text().await.unwrap());
        assert!(page.contains(says) && !page.contains("leave of its total"), "{page}");
    }
});
