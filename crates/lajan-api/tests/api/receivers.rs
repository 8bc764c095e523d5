//! Paying clients who have no wallet yet: a payout to one waits in `awaiting_registration`
//! through approval, is never sent before the client has a wallet, and is sent exactly once
//! after; a disbursement's items wait the same way and its roll-up counts them; a payout whose
//! client never registers is canceled when the window closes, or by the organization.

use crate::disbursement_rules::bad_rows;
use crate::disbursements::{act, create};
use lajan_domain::{Environment, Timestamp};
use lajan_testkit::{TestApp, WALLET, expect_error};
use serde_json::{Value, json};

async fn phone_only(app: &TestApp, first: &str) -> Value {
    let r =
        app.post("/v1/clients", &json!({ "firstName": first, "lastName": "Pyè", "phoneNumber": "+50937000001" })).await;
    assert_eq!(r.status(), 201);
    r.json().await.unwrap()
}

async fn get(app: &TestApp, path: &str) -> Value {
    app.get(path).await.json().await.unwrap()
}

api_test!(a_payout_to_a_client_without_a_wallet_waits_for_one_and_is_sent_once, |app| {
    let ana = phone_only(app, "Ana").await;
    let id = ana["id"].as_str().unwrap();
    let r = app.post("/v1/payouts", &json!({ "clientId": id, "assetAmount": 12.5, "assetCode": "USDC" })).await;
    assert_eq!(r.status(), 201);
    let created: Value = r.json().await.unwrap();
    let payout = created["id"].as_str().unwrap();
    assert_eq!(
        (&created["walletAccountId"], &created["approvalStatus"], &created["execStatus"]),
        (&Value::Null, &json!("pending"), &json!("awaiting_registration"))
    );
    // A client Lajan cannot reach is still refused: nobody could register.
    let unreachable = app.post("/v1/clients", &json!({ "firstName": "No", "lastName": "Contact" })).await;
    let unreachable: Value = unreachable.json().await.unwrap();
    let body = json!({ "clientId": unreachable["id"], "assetAmount": 1, "assetCode": "USDC" });
    expect_error(app.post("/v1/payouts", &body).await, 400, "no_wallet").await;

    let approve = app.post(&format!("/v1/payouts/{payout}/approve"), &json!({})).await;
    assert_eq!(approve.status(), 200);
    let approved: Value = approve.json().await.unwrap();
    assert_eq!(
        (&approved["approvalStatus"], &approved["execStatus"]),
        (&json!("approved"), &json!("awaiting_registration"))
    );
    let waiting = get(app, "/v1/payouts?status=awaiting_registration").await;
    assert_eq!((waiting["pagination"]["total"].as_u64(), &waiting["data"][0]["id"]), (Some(1), &created["id"]));
    assert_eq!(waiting["counts"]["awaiting_registration"], 1, "{}", waiting["counts"]);
    assert_eq!(get(app, "/v1/payouts?status=approved").await["pagination"]["total"], 0);

    // Never sent before the client has a wallet, however often the executor looks.
    app.drain_payouts().await;
    let still = get(app, &format!("/v1/payouts/{payout}")).await;
    assert_eq!(
        (&still["execStatus"], still["attempts"].as_array().map(Vec::len)),
        (&json!("awaiting_registration"), Some(0))
    );

    // The wallet decides where approved money goes: a key that cannot approve cannot give it.
    let clerk = app.key(None, Environment::Test, &["clients:write", "clients:read"]).await;
    let put = |key: String| {
        let app = &app;
        async move {
            app.http
                .put(app.url(&format!("/v1/clients/{id}")))
                .bearer_auth(key)
                .json(&json!({ "walletAccountId": WALLET }))
                .send()
                .await
                .unwrap()
        }
    };
    let refused = expect_error(put(clerk).await, 403, "forbidden").await;
    assert!(refused["message"].as_str().unwrap().contains("payouts:approve"), "{refused}");
    assert_eq!(get(app, &format!("/v1/clients/{id}")).await["walletAccountId"], Value::Null, "nothing changed");

    assert_eq!(put(app.key.clone()).await.status(), 200);
    let released = get(app, &format!("/v1/payouts/{payout}")).await;
    assert_eq!((&released["walletAccountId"], &released["execStatus"]), (&json!(WALLET), &json!("ready_to_send")));
    app.drain_payouts().await;
    app.drain_payouts().await;
    let sent = get(app, &format!("/v1/payouts/{payout}")).await;
    assert_eq!((&sent["execStatus"], sent["attempts"].as_array().map(Vec::len)), (&json!("sent"), Some(1)), "{sent}");
    let completed = get(app, "/v1/events?type=payout.completed").await;
    assert_eq!(completed["pagination"]["total"], 1, "paid exactly once");
});

api_test!(a_payout_not_yet_approved_takes_the_wallet_and_waits_for_approval, |app| {
    let ana = phone_only(app, "Ana").await;
    let id = ana["id"].as_str().unwrap();
    let r = app.post("/v1/payouts", &json!({ "clientId": id, "assetAmount": 3, "assetCode": "USDC" })).await;
    let payout: Value = r.json().await.unwrap();
    let r = app.post("/v1/payouts", &json!({ "clientId": id, "assetAmount": 9, "assetCode": "USDC" })).await;
    let rejected = r.json::<Value>().await.unwrap()["id"].as_str().unwrap().to_owned();
    assert_eq!(app.post(&format!("/v1/payouts/{rejected}/reject"), &json!({})).await.status(), 200);
    let clerk = app.key(None, Environment::Test, &["clients:write"]).await;
    let r = app
        .http
        .put(app.url(&format!("/v1/clients/{id}")))
        .bearer_auth(clerk)
        .json(&json!({ "walletAccountId": WALLET }))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200, "nothing approved waits: no approver needed");
    let now = get(app, &format!("/v1/payouts/{}", payout["id"].as_str().unwrap())).await;
    assert_eq!(
        (&now["walletAccountId"], &now["approvalStatus"], &now["execStatus"]),
        (&json!(WALLET), &json!("pending"), &json!("pending"))
    );
    let untouched = get(app, &format!("/v1/payouts/{rejected}")).await;
    assert_eq!((&untouched["approvalStatus"], &untouched["walletAccountId"]), (&json!("rejected"), &Value::Null));
});

api_test!(disbursement_items_wait_for_their_clients_and_the_roll_up_counts_them, |app| {
    let ana = phone_only(app, "Ana").await;
    let body = json!({ "name": "June", "assetCode": "USDC", "items": [
        { "walletAccountId": WALLET, "assetAmount": 5 },
        { "clientId": ana["id"], "assetAmount": 7 },
    ] });
    let d = create(app, body).await;
    let dsb = d["id"].as_str().unwrap();
    let items = get(app, &format!("/v1/disbursements/{dsb}/items")).await;
    assert_eq!(items["data"][1]["walletAccountId"], Value::Null, "{items}");
    for verb in ["submit", "approve"] {
        assert_eq!(act(app, &app.key, dsb, verb).await.status(), 200, "{verb}");
    }
    app.drain_payouts().await;
    app.drain_payouts().await;
    let after = get(app, &format!("/v1/disbursements/{dsb}")).await;
    assert_eq!(after["counts"]["sent"], 1, "{after}");
    assert_eq!(after["counts"]["awaitingRegistration"], 1, "{after}");
    assert_eq!(after["status"], "processing", "an item still waits");
    let items = get(app, &format!("/v1/disbursements/{dsb}/items?status=awaiting_registration")).await;
    assert_eq!(items["pagination"]["total"], 1, "{items}");
    assert_eq!(items["data"][0]["execStatus"], "awaiting_registration");

    let put =
        app.put(&format!("/v1/clients/{}", ana["id"].as_str().unwrap()), &json!({ "walletAccountId": WALLET })).await;
    assert_eq!(put.status(), 200);
    app.drain_payouts().await;
    app.drain_payouts().await;
    let done = get(app, &format!("/v1/disbursements/{dsb}")).await;
    assert_eq!((&done["status"], &done["counts"]["sent"]), (&json!("completed"), &json!(2)), "{done}");
    // The report keeps the wallet Ana's payout went to, though she registered after the draft.
    let items = get(app, &format!("/v1/disbursements/{dsb}/items")).await;
    assert_eq!(items["data"][1]["walletAccountId"], WALLET, "{items}");
    let report = crate::disbursement_rules::report(app, dsb).await;
    assert!(report[1].iter().any(|cell| cell == WALLET), "{report:?}");
});

async fn waiting_payout(app: &TestApp, client_id: &str) -> String {
    let r = app.post("/v1/payouts", &json!({ "clientId": client_id, "assetAmount": 4, "assetCode": "USDC" })).await;
    let id = r.json::<Value>().await.unwrap()["id"].as_str().unwrap().to_owned();
    assert_eq!(app.post(&format!("/v1/payouts/{id}/approve"), &json!({})).await.status(), 200);
    id
}

api_test!(an_organization_cancels_a_waiting_payout_and_it_stays_canceled, |app| {
    let ana = phone_only(app, "Ana").await;
    let client = ana["id"].as_str().unwrap();
    let unapproved =
        app.post("/v1/payouts", &json!({ "clientId": client, "assetAmount": 1, "assetCode": "USDC" })).await;
    let unapproved = unapproved.json::<Value>().await.unwrap()["id"].as_str().unwrap().to_owned();
    let refused = app.post(&format!("/v1/payouts/{unapproved}/cancel"), &json!({})).await;
    expect_error(refused, 400, "cannot_cancel").await;

    let payout = waiting_payout(app, client).await;
    let r = app.post(&format!("/v1/payouts/{payout}/cancel"), &json!({})).await;
    assert_eq!(r.status(), 200);
    let canceled: Value = r.json().await.unwrap();
    assert_eq!((&canceled["execStatus"], &canceled["cancelReason"]), (&json!("canceled"), &json!("requested")));
    let events = get(app, "/v1/events?type=payout.canceled").await;
    assert_eq!(events["data"][0]["data"]["object"]["id"], json!(payout), "{events}");
    for verb in ["cancel", "retry"] {
        let again = app.post(&format!("/v1/payouts/{payout}/{verb}"), &json!({})).await;
        expect_error(again, 400, &format!("cannot_{verb}")).await;
    }
    let list = get(app, "/v1/payouts?status=canceled").await;
    assert_eq!((&list["pagination"]["total"], &list["counts"]["canceled"]), (&json!(1), &json!(1)));

    // A wallet arriving later sends the payout not yet approved on, never the canceled one.
    assert_eq!(app.put(&format!("/v1/clients/{client}"), &json!({ "walletAccountId": WALLET })).await.status(), 200);
    app.drain_payouts().await;
    let after = get(app, &format!("/v1/payouts/{payout}")).await;
    assert_eq!((&after["execStatus"], &after["walletAccountId"]), (&json!("canceled"), &Value::Null));
    assert_eq!(get(app, &format!("/v1/payouts/{unapproved}")).await["execStatus"], "pending");
});

api_test!(payouts_whose_client_never_registers_are_canceled_when_the_window_closes, |app| {
    assert_eq!(app.put("/v1/settings", &json!({ "registrationWindowDays": 2 })).await.status(), 200);
    let ana = phone_only(app, "Ana").await;
    let direct = waiting_payout(app, ana["id"].as_str().unwrap()).await;
    let body = json!({ "name": "June", "assetCode": "USDC", "items": [
        { "walletAccountId": WALLET, "assetAmount": 5 },
        { "clientId": ana["id"], "assetAmount": 7 },
    ] });
    let dsb = create(app, body).await["id"].as_str().unwrap().to_owned();
    for verb in ["submit", "approve"] {
        assert_eq!(act(app, &app.key, &dsb, verb).await.status(), 200, "{verb}");
    }
    app.drain_payouts().await;
    app.drain_payouts().await;

    let day = 86_400_000;
    let workers = app.workers();
    assert_eq!(workers.cancel_unregistered_once(Timestamp::now().plus_millis(day)).await.unwrap(), 0, "still inside");
    assert_eq!(workers.cancel_unregistered_once(Timestamp::now().plus_millis(2 * day + 60_000)).await.unwrap(), 2);
    let canceled = get(app, &format!("/v1/payouts/{direct}")).await;
    assert_eq!(
        (&canceled["execStatus"], &canceled["cancelReason"]),
        (&json!("canceled"), &json!("receiver_not_registered"))
    );
    assert_eq!(get(app, "/v1/events?type=payout.canceled").await["pagination"]["total"], 2);
    let d = get(app, &format!("/v1/disbursements/{dsb}")).await;
    assert_eq!(
        (&d["status"], &d["counts"]["sent"], &d["counts"]["canceled"]),
        (&json!("partially_failed"), &json!(1), &json!(1)),
        "{d}"
    );
    assert_eq!(workers.cancel_unregistered_once(Timestamp::now().plus_millis(3 * day)).await.unwrap(), 0, "once");
});

api_test!(disbursement_rows_find_or_make_their_receivers_by_phone_or_email, |app| {
    let ana = phone_only(app, "Ana").await;
    let clients_before = get(app, "/v1/clients").await["pagination"]["total"].clone();
    // Every bad row at once, and nothing stored: no disbursement, no client.
    let marc =
        app.post("/v1/clients", &json!({ "firstName": "Marc", "lastName": "Jozèf", "email": "marc@example.ht" })).await;
    assert_eq!(marc.status(), 201);
    let bad = json!({ "name": "July", "assetCode": "USDC", "items": [
        { "phoneNumber": "+50937999999", "assetAmount": 1 },
        { "phoneNumber": "3700", "assetAmount": 1 },
        { "phoneNumber": "+50937000001", "email": "marc@example.ht", "assetAmount": 1 },
        { "phoneNumber": "+50937888888", "firstName": "Rose", "lastName": "Pòl",
          "verification": { "type": "pin", "value": "12" }, "assetAmount": 1 },
    ] });
    let refused = expect_error(app.post("/v1/disbursements", &bad).await, 400, "invalid_items").await;
    let row = |n: u64, field: &str, code: &str| (n, field.to_owned(), code.to_owned());
    assert_eq!(
        bad_rows(&refused),
        [
            row(1, "firstName", "validation_error"),
            row(2, "phoneNumber", "invalid_phone"),
            row(3, "email", "ambiguous_recipient"),
            row(4, "verification.value", "validation_error")
        ],
        "{refused}"
    );
    let clients_now = get(app, "/v1/clients").await["pagination"]["total"].as_u64().unwrap();
    assert_eq!(clients_now, clients_before.as_u64().unwrap() + 1, "only Marc, made above");

    // A CSV mixing a wallet, a known phone, a known email and a new receiver named twice.
    let csv = "walletAccountId,phoneNumber,email,firstName,lastName,verification,assetAmount\n\
               GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H,,,,,,5\n\
               ,+50937000001,,,,,6\n\
               ,,MARC@example.ht,,,,7\n\
               ,+50937777777,,Rose,Pòl,date_of_birth:1990-5-7,8\n\
               ,+50937777777,,,,,9\n";
    let r = crate::disbursements::post_csv(app, "name=July&assetCode=USDC", csv).await;
    assert_eq!(r.status(), 201, "{}", r.text().await.unwrap());
    let d: Value = r.json().await.unwrap();
    let items = get(app, &format!("/v1/disbursements/{}/items", d["id"].as_str().unwrap())).await;
    let paid: Vec<&Value> = items["data"].as_array().unwrap().iter().map(|i| &i["clientId"]).collect();
    assert_eq!((paid[0], paid[1], paid[2]), (&Value::Null, &ana["id"], &marc.json::<Value>().await.unwrap()["id"]));
    assert_eq!(paid[3], paid[4], "one new client for the same phone");
    let rose = get(app, &format!("/v1/clients/{}", paid[3].as_str().unwrap())).await;
    assert_eq!(
        (&rose["firstName"], &rose["phoneNumber"], &rose["walletAccountId"], &rose["language"], &rose["verification"]),
        (&json!("Rose"), &json!("+50937777777"), &Value::Null, &json!("ht"), &json!({ "type": "date_of_birth" }))
    );
    let created = get(app, "/v1/events?type=client.created").await;
    assert_eq!(created["data"][0]["data"]["object"]["id"], rose["id"], "made with the draft, with its event");
});

api_test!(a_payout_and_a_disbursement_take_the_wallet_the_client_has_when_stored, |app| {
    app.put("/v1/settings", &json!({ "payoutApprovalRequired": false })).await;
    // A payout request read the client before its wallet was set; the wallet was set before the
    // payout was stored: the payout takes it, and nobody is invited.
    let rose = phone_only(app, "Rose").await;
    let rose_id = rose["id"].as_str().unwrap();
    let read_before = lajan_domain::payout::Payout {
        id: lajan_domain::id::IdKind::Payout.generate(),
        payout_type: lajan_domain::payout::PayoutType::Direct,
        client_id: Some(rose_id.to_owned()),
        wallet_account_id: None,
        asset_amount: 400,
        asset_code: lajan_domain::payout::AssetCode::parse("USDC").unwrap(),
        asset_issuer: None,
        memo: None,
        wallet_memo: None,
        disbursement_id: None,
        approval: lajan_domain::payout::ApprovalStatus::Pending,
        exec: lajan_domain::payout::ExecStatus::AwaitingRegistration,
        created_by_key: app.tenant().actor.id().to_owned(),
        approval_withdrawn_by: None,
        created_at: Timestamp::now(),
        updated_at: Timestamp::now(),
    };
    assert_eq!(app.put(&format!("/v1/clients/{rose_id}"), &json!({ "walletAccountId": WALLET })).await.status(), 200);
    let rule = |_: &lajan_domain::settings::Settings| {
        (lajan_domain::payout::ApprovalStatus::Approved, &["payout.created", "payout.approved"][..])
    };
    let event = |d: &lajan_domain::payout::PayoutDetail| lajan_store::NewEvent {
        event_type: "payout.created",
        object: json!({ "id": d.payout.id }),
    };
    let stored = app.store().create_payout(&app.tenant(), &read_before, &rule, &event, None).await.unwrap();
    assert_eq!(stored.payout.exec.as_str(), "pending", "not waiting for a registration that happened");
    let read = get(app, &format!("/v1/payouts/{}", read_before.id)).await;
    assert_eq!((&read["walletAccountId"], &read["execStatus"]), (&json!(WALLET), &json!("pending")), "{read}");
    assert_eq!(app.workers().send_invitations_once(Timestamp::now()).await.unwrap(), 0, "nobody to invite");

    // A disbursement drafted before its receiver registered pays the wallet they have at submission.
    let ana = phone_only(app, "Ana").await;
    let d = create(
        app,
        json!({ "name": "July", "assetCode": "USDC", "items": [{ "clientId": ana["id"], "assetAmount": 7 }] }),
    )
    .await;
    let dsb = d["id"].as_str().unwrap();
    let path = format!("/v1/clients/{}", ana["id"].as_str().unwrap());
    assert_eq!(app.put(&path, &json!({ "walletAccountId": WALLET })).await.status(), 200);
    // Submitted (approved at once: this organization needs no approval).
    assert_eq!(act(app, &app.key, dsb, "submit").await.status(), 200);
    let items = get(app, &format!("/v1/disbursements/{dsb}/items")).await;
    assert_eq!(items["data"][0]["execStatus"], "pending", "{items}");
    app.drain_payouts().await;
    app.drain_payouts().await;
    let done = get(app, &format!("/v1/disbursements/{dsb}")).await;
    assert_eq!((&done["status"], &done["counts"]["sent"]), (&json!("completed"), &json!(1)), "{done}");
});

api_test!(a_payout_canceled_while_its_client_changes_waits_for_the_client_first, |app| {
    // The lock order of docs/design.md: client, invitation, payouts. A wallet registered takes
    // them in that order; a cancel once took the payout then the invitation, and the two
    // deadlocked. With the client's row held (PostgreSQL), the cancel waits for it before it
    // locks its payout.
    let ana = phone_only(app, "Ana").await;
    let client = ana["id"].as_str().unwrap();
    let payout = waiting_payout(app, client).await;
    let hold = app.db.hold_row("clients", client).await;
    let (cancel_path, empty) = (format!("/v1/payouts/{payout}/cancel"), json!({}));
    let mut cancel = Box::pin(app.post(&cancel_path, &empty));
    if let Some(hold) = hold {
        let early = tokio::time::timeout(std::time::Duration::from_millis(300), &mut cancel).await;
        assert!(early.is_err(), "the cancel waits for the client");
        assert!(app.db.row_is_free("payouts", &payout).await, "and has not locked its payout yet");
        hold.release().await;
    }
    assert_eq!(cancel.await.status(), 200);
    assert_eq!(get(app, &format!("/v1/payouts/{payout}")).await["execStatus"], "canceled");
});
