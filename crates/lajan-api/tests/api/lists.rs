//! Lists at any size: totals kept by count tables or counted to a bound (and saying so), and
//! keyset pages (`startingAfter`, `endingBefore`) that show what numbered pages show.

use crate::disbursements::create as create_disbursement;
use lajan_testkit::{TestApp, WALLET, expect_error};
use serde_json::{Value, json};

async fn list(app: &TestApp, path: &str) -> Value {
    let r = app.get(path).await;
    assert_eq!(r.status(), 200, "GET {path}");
    r.json().await.unwrap()
}

fn ids(page: &Value) -> Vec<String> {
    page["data"].as_array().unwrap().iter().map(|item| item["id"].as_str().unwrap().to_owned()).collect()
}

fn with(path: &str, query: &str) -> String {
    format!("{path}{}{query}", if path.contains('?') { '&' } else { '?' })
}

/// Walks `path` by numbered pages of 2, then forward by `startingAfter` and back by
/// `endingBefore`: the same items in the same order each way, `hasMore` exactly where another page
/// follows. Returns the items.
async fn walk_every_way(app: &TestApp, path: &str) -> Vec<String> {
    let first = list(app, &with(path, "limit=2")).await;
    let total = first["pagination"]["total"].as_u64().unwrap();
    let mut numbered = Vec::new();
    for page in 1..=first["pagination"]["totalPages"].as_u64().unwrap() {
        let body = list(app, &with(path, &format!("limit=2&page={page}"))).await;
        assert_eq!(body["pagination"]["hasMore"], page * 2 < total, "{path} page {page}");
        assert_eq!(body["pagination"]["totalIsEstimate"], false);
        numbered.extend(ids(&body));
    }
    assert_eq!(numbered.len() as u64, total, "{path}: the total counts what the pages show");
    assert!(numbered.len() >= 3, "{path}: at least two pages to walk");

    let mut forward = ids(&first);
    let mut page = first;
    while page["pagination"]["hasMore"] == true {
        let last = forward.last().unwrap().clone();
        page = list(app, &with(path, &format!("limit=2&startingAfter={last}"))).await;
        assert_eq!(page["pagination"]["total"], total, "a cursor page keeps the list's total");
        assert_eq!(page["pagination"]["page"], 1);
        forward.extend(ids(&page));
    }
    assert_eq!(forward, numbered, "{path}: startingAfter walks the numbered pages' items");

    let mut backward: Vec<String> = Vec::new();
    let mut before = numbered.last().unwrap().clone();
    loop {
        let page = list(app, &with(path, &format!("limit=2&endingBefore={before}"))).await;
        let got = ids(&page);
        let end = numbered.iter().position(|id| *id == before).unwrap();
        assert_eq!(got, numbered[end.saturating_sub(2)..end], "{path}: a page before {before}, newest first");
        backward.splice(0..0, got.iter().cloned());
        assert_eq!(page["pagination"]["hasMore"], end > 2, "{path}: newer items remain before {before}");
        if page["pagination"]["hasMore"] != true {
            break;
        }
        before = got[0].clone();
    }
    assert_eq!(backward, numbered[..numbered.len() - 1], "{path}: endingBefore walks back to the newest");
    numbered
}

api_test!(every_list_pages_by_cursor_as_by_number, |app| {
    let mut clients = Vec::new();
    for i in 0..5 {
        clients.push(app.client(&format!("Cursor{i}"), "Walk").await["id"].as_str().unwrap().to_owned());
    }
    let archived = clients.remove(1);
    assert_eq!(app.delete(&format!("/v1/clients/{archived}")).await.status(), 200);
    for i in 0..3 {
        let hook = json!({ "url": format!("https://books.example.ht/hooks/{i}"), "events": ["*"] });
        assert_eq!(app.post("/v1/webhook-endpoints", &hook).await.status(), 201);
    }
    for i in 0..3 {
        let link = json!({ "amount": 5 + i, "description": format!("Fee {i}") });
        assert_eq!(app.post("/v1/payment-links", &link).await.status(), 201);
        app.invoice(&clients[0], json!({})).await;
    }
    let batch = json!({ "name": "Stipends", "assetCode": "USDC", "items": (0..5)
        .map(|i| json!({ "walletAccountId": WALLET, "assetAmount": 2, "externalId": format!("s-{i}") }))
        .collect::<Vec<_>>() });
    let dsb = create_disbursement(app, batch).await["id"].as_str().unwrap().to_owned();

    let listed = walk_every_way(app, "/v1/clients").await;
    assert_eq!(listed.iter().rev().cloned().collect::<Vec<_>>(), clients, "newest first, the archived left out");
    assert_eq!(walk_every_way(app, "/v1/clients?search=cursor").await, listed, "a search pages the same way");
    walk_every_way(app, "/v1/events").await;
    walk_every_way(app, "/v1/events?type=client.created").await;
    walk_every_way(app, "/v1/payment-links").await;
    walk_every_way(app, "/v1/invoices").await;
    walk_every_way(app, "/v1/webhook-endpoints").await;
    let items = walk_every_way(app, &format!("/v1/disbursements/{dsb}/items")).await;
    assert_eq!(items.len(), 5);
    let endpoint = ids(&list(app, "/v1/webhook-endpoints").await)[0].clone();
    walk_every_way(app, &format!("/v1/webhook-endpoints/{endpoint}/deliveries")).await;
});

api_test!(cursors_name_an_item_of_the_list_one_at_a_time, |app| {
    let client = app.client("Marie", "Jean").await["id"].as_str().unwrap().to_owned();
    let event = ids(&list(app, "/v1/events").await)[0].clone();
    let field = |body: &Value| body["details"][0]["field"].as_str().unwrap().to_owned();
    for (query, named) in [
        ("startingAfter=cli_nope", "startingAfter"),
        (&*format!("endingBefore={event}"), "endingBefore"),
        (&*format!("startingAfter={client}&endingBefore={client}"), "endingBefore"),
        (&*format!("startingAfter={client}&page=2"), "page"),
        ("startingAfter=", "startingAfter"),
    ] {
        let body = expect_error(app.get(&format!("/v1/clients?{query}")).await, 400, "invalid_pagination").await;
        assert_eq!(field(&body), named, "{query}");
    }
    // The cursor may name an item the filter leaves out: the page is what follows it.
    let page = list(app, &format!("/v1/events?type=invoice.created&startingAfter={event}")).await;
    assert_eq!((page["data"].as_array().unwrap().len(), &page["pagination"]["hasMore"]), (0, &json!(false)));
    let other = app.org("Other", lajan_domain::org::Tier::Standard).await;
    let key = app.key(Some(&other.id), lajan_domain::Environment::Test, &["clients:read"]).await;
    let r = app.get_with(&key, &format!("/v1/clients?startingAfter={client}")).await;
    let body = expect_error(r, 400, "invalid_pagination").await;
    assert_eq!(field(&body), "startingAfter", "another organization's client is no cursor here");
});

api_test!(totals_are_kept_exact_or_counted_to_a_bound_that_says_so, |app| {
    let mut clients = Vec::new();
    for i in 0..5 {
        clients.push(app.client(&format!("Bound{i}"), "Count").await["id"].as_str().unwrap().to_owned());
    }
    assert_eq!(app.delete(&format!("/v1/clients/{}", clients[0])).await.status(), 200);
    app.store().bound_counts_at(2);
    let kept = list(app, "/v1/clients?limit=3").await;
    assert_eq!(
        kept["pagination"],
        json!({
            "total": 4, "page": 1, "limit": 3, "totalPages": 2, "totalIsEstimate": false, "hasMore": true
        })
    );
    let searched = list(app, "/v1/clients?search=bound&limit=3").await;
    assert_eq!(ids(&searched).len(), 3);
    assert_eq!(
        searched["pagination"],
        json!({
            "total": 2, "page": 1, "limit": 3, "totalPages": 1, "totalIsEstimate": true, "hasMore": true
        }),
        "more than the bound match: the total says it is the bound"
    );
    let rest = list(app, "/v1/clients?search=bound&limit=3&page=2").await;
    assert_eq!((ids(&rest).len(), &rest["pagination"]["hasMore"]), (1, &json!(false)), "pages go past the bound");
    let one = list(app, "/v1/clients?search=bound3").await;
    assert_eq!((&one["pagination"]["total"], &one["pagination"]["totalIsEstimate"]), (&json!(1), &json!(false)));

    // Kept counts: events by type, messages by status, whatever the bound.
    let created = list(app, "/v1/events?type=client.created").await;
    assert_eq!(
        (&created["pagination"]["total"], &created["pagination"]["totalIsEstimate"]),
        (&json!(5), &json!(false))
    );
    assert_eq!(list(app, "/v1/events?type=client.deleted").await["pagination"]["total"], 1);
    let invoice = app.invoice(app.reachable_client().await["id"].as_str().unwrap(), json!({})).await;
    let id = invoice["id"].as_str().unwrap();
    assert_eq!(app.post(&format!("/v1/invoices/{id}/send"), &json!({})).await.status(), 200);
    let sandbox = list(app, "/v1/messages?status=delivered").await;
    assert_eq!(
        (&sandbox["pagination"]["total"], &sandbox["pagination"]["totalIsEstimate"]),
        (&json!(2), &json!(false))
    );
    assert_eq!(list(app, "/v1/messages?status=queued").await["pagination"]["total"], 0);
    let by_invoice = list(app, &format!("/v1/messages?invoiceId={id}&channel=sms")).await;
    assert_eq!(by_invoice["pagination"]["total"], 1, "a filter no count is kept for is counted");

    // Folding PostgreSQL's count deltas changes no total.
    app.store().compact_counts().await.unwrap();
    assert_eq!(list(app, "/v1/clients").await["pagination"]["total"], 5);
    assert_eq!(list(app, "/v1/events?type=client.created").await["pagination"]["total"], 6);
    assert_eq!(list(app, "/v1/messages").await["pagination"]["total"], 2);
});

fn first_names(page: &Value) -> Vec<String> {
    page["data"].as_array().unwrap().iter().map(|c| c["firstName"].as_str().unwrap().to_owned()).collect()
}

fn encoded(term: &str) -> String {
    term.bytes()
        .map(|b| if b.is_ascii_alphanumeric() { (b as char).to_string() } else { format!("%{b:02X}") })
        .collect()
}

api_test!(a_search_through_the_trigram_index_finds_what_the_scan_found, |app| {
    let people = [
        json!({ "firstName": "Marie", "lastName": "Jean-Baptiste", "email": "mjb@example.ht", "phoneNumber": "+50937111111" }),
        json!({ "firstName": "Élise", "lastName": "Désir", "email": "ELISE@Example.HT" }),
        json!({ "firstName": "Paul", "lastName": "O\"Neil", "walletAccountId": WALLET }),
        json!({ "firstName": "Back\\slash", "lastName": "Roy_50%" }),
        json!({ "firstName": "Jean", "lastName": "Pierre" }),
        json!({ "firstName": "Jo", "lastName": "Li" }),
        json!({ "firstName": "Temporary", "lastName": "Name" }),
    ];
    let mut ids = Vec::new();
    for person in &people {
        let r = app.post("/v1/clients", person).await;
        assert_eq!(r.status(), 201, "{person}");
        ids.push(r.json::<Value>().await.unwrap()["id"].as_str().unwrap().to_owned());
    }
    assert_eq!(app.delete(&format!("/v1/clients/{}", ids[4])).await.status(), 200, "Jean Pierre is archived");
    let renamed = json!({ "firstName": "Ketly", "lastName": "Mompremier" });
    assert_eq!(app.put(&format!("/v1/clients/{}", ids[6]), &renamed).await.status(), 200);

    let wallet = WALLET[..10].to_owned();
    let cases: Vec<(&str, Vec<&str>)> = vec![
        ("marie", vec!["Marie"]),
        ("jean-bap", vec!["Marie"]),
        ("ie jean", vec!["Marie"]),
        ("EXAMPLE.HT", vec!["Élise", "Marie"]),
        ("désir", vec!["Élise"]),
        ("elise", vec!["Élise"]),
        ("o\"neil", vec!["Paul"]),
        ("50%", vec!["Back\\slash"]),
        ("_50", vec!["Back\\slash"]),
        ("k\\s", vec!["Back\\slash"]),
        (&wallet, vec!["Paul"]),
        ("37111", vec!["Marie"]),
        ("jean", vec!["Marie"]),
        ("temporary", vec![]),
        ("mompre", vec!["Ketly"]),
        ("  mompre  ", vec!["Ketly"]),
        ("%", vec!["Back\\slash"]),
        ("jo", vec!["Jo"]),
        ("li", vec!["Jo", "Élise"]),
        ("nobody", vec![]),
    ];
    // PostgreSQL judges a term rare or common from the list's newest rows (SQLite asks its
    // index): here the newest one, and rare unless it holds the term twice, so every term of
    // three characters or more goes through the trigram index.
    app.store().sample_searches_at(1, 2);
    for (term, expected) in &cases {
        let path = format!("/v1/clients?limit=100&search={}", encoded(term));
        let found = list(app, &path).await;
        assert_eq!(first_names(&found), *expected, "search {term:?}");
        assert_eq!(found["pagination"]["total"], expected.len(), "search {term:?}");
    }
    // The same searches and one whose case folding differs by backend, each way: through the
    // index (few matches), and newest first through the list's index as when a term is common
    // (a bound of 0 on SQLite, a sample every term passes on PostgreSQL, make every term
    // common): the same clients in the same order.
    for term in cases.iter().map(|(term, _)| *term).chain(["ÉLISE", "DÉSIR"]) {
        let path = format!("/v1/clients?limit=100&search={}", encoded(term));
        app.store().bound_counts_at(lajan_domain::pagination::COUNT_BOUND);
        app.store().sample_searches_at(1, 2);
        let by_index = list(app, &path).await;
        app.store().bound_counts_at(0);
        app.store().sample_searches_at(1, 0);
        let by_scan = list(app, &path).await;
        assert_eq!(first_names(&by_index), first_names(&by_scan), "search {term:?}");
    }
});

api_test!(invoice_and_payout_searches_through_the_trigram_indexes_find_what_the_scan_found, |app| {
    let marie = app.client("Marie", "Jean-Baptiste").await;
    let elise = app.client("Élise", "Désir").await;
    let paul = app.client("Paul", "O\"Neil_50%").await;
    let mut invoices = Vec::new();
    for client in [&marie, &elise, &paul, &marie] {
        invoices.push(
            app.invoice(client["id"].as_str().unwrap(), json!({})).await["invoiceNumber"].as_str().unwrap().to_owned(),
        );
    }
    let other = lajan_ledger::sandbox::magic::address(lajan_ledger::sandbox::magic::LABELS[0].0);
    for body in [
        json!({ "clientId": marie["id"], "assetAmount": 1, "assetCode": "USDC" }),
        json!({ "clientId": paul["id"], "assetAmount": 2, "assetCode": "USDC" }),
        json!({ "walletAccountId": other, "assetAmount": 3, "assetCode": "USDC" }),
    ] {
        assert_eq!(app.post("/v1/payouts", &body).await.status(), 201, "{body}");
    }
    // An archived client's invoices and payouts are still found by the client's name.
    assert_eq!(app.delete(&format!("/v1/clients/{}", elise["id"].as_str().unwrap())).await.status(), 200);

    let names = |list: &Value, field: &str| -> Vec<String> {
        list["data"].as_array().unwrap().iter().map(|item| item[field].to_string()).collect()
    };
    let number = invoices[1].to_lowercase();
    let invoice_cases: Vec<(&str, usize)> =
        vec![("jean-bap", 2), ("désir", 1), ("o\"neil_50%", 1), (&number, 1), ("inv-", 4), ("nobody", 0), ("li", 1)];
    let wallet = other[20..32].to_owned();
    let payout_cases: Vec<(&str, usize)> =
        vec![("jean-bap", 1), ("neil_", 1), (&WALLET[..12], 2), (&wallet, 1), ("nobody", 0), ("pa", 1)];
    for (area, field, cases) in [("invoices", "invoiceNumber", &invoice_cases), ("payouts", "id", &payout_cases)] {
        for (term, expected) in cases {
            let path = format!("/v1/{area}?limit=100&search={}", encoded(term));
            // Through the indexes (SQLite's FTS5 tables and PostgreSQL's GIN indexes: the
            // newest row is sampled and the term is rare unless it holds twice), then walked as
            // a common term, then scanned as the small list it is: the same rows each way.
            app.store().sample_searches_at(1, 2);
            let by_index = list(app, &path).await;
            app.store().sample_searches_at(1, 0);
            let walked = list(app, &path).await;
            app.store().sample_searches_at(10_000, 1);
            let scanned = list(app, &path).await;
            assert_eq!(names(&by_index, field).len(), *expected, "{area} search {term:?}");
            assert_eq!(by_index["pagination"]["total"], *expected, "{area} search {term:?}");
            assert_eq!(names(&by_index, field), names(&scanned, field), "{area} search {term:?}");
            assert_eq!(names(&walked, field), names(&scanned, field), "{area} search {term:?}");
            if area == "payouts" {
                assert_eq!(by_index["counts"], scanned["counts"], "{area} search {term:?}");
            }
        }
    }
});

api_test!(a_list_followed_by_cursor_never_misses_a_row_whose_writer_waited_for_a_lock, |app| {
    // A payout for Ana reads the clock, then waits for Ana's row lock (held from a second
    // connection on PostgreSQL) while Ben's payout commits. Someone following the payouts list
    // from its newest row (Ben's) with `endingBefore` must still get Ana's: the list is in
    // the order rows committed, as the event feed is.
    let (ana, ben) = (app.client("Ana", "One").await, app.client("Ben", "Two").await);
    let (ana, ben) = (ana["id"].as_str().unwrap(), ben["id"].as_str().unwrap());
    let hold = app.db.hold_row("clients", ana).await;
    let postgres = hold.is_some();
    let pay = |client: String| async move {
        let body = serde_json::json!({ "clientId": client, "assetAmount": 5, "assetCode": "USDC" });
        app.post("/v1/payouts", &body).await
    };
    let waiting = pay(ana.to_owned());
    let later = async {
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        assert_eq!(pay(ben.to_owned()).await.status(), 201);
        let newest: serde_json::Value = app.get("/v1/payouts?limit=1").await.json().await.unwrap();
        if let Some(hold) = hold {
            hold.release().await;
        }
        newest["data"][0].clone()
    };
    let (a, newest) = tokio::join!(waiting, later);
    assert_eq!(a.status(), 201);
    assert_eq!(newest["clientId"], ben, "Ben's payout was the newest");
    let path = format!("/v1/payouts?endingBefore={}", newest["id"].as_str().unwrap());
    let newer: serde_json::Value = app.get(&path).await.json().await.unwrap();
    let newer: Vec<&str> = newer["data"].as_array().unwrap().iter().map(|p| p["clientId"].as_str().unwrap()).collect();
    assert_eq!(newer, if postgres { vec![ana] } else { vec![] }, "the payout that waited is newer");
});
