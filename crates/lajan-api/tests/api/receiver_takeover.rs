//! Nobody but the receiver chooses where their money goes: a wallet's deposit page proves the
//! contact with its own code and never inherits what the receiver proved on their link; codes
//! cannot be ground down by asking for new ones, on one page, across pages for one contact, or
//! from one address; wrong tries on one page never burn the code the receiver holds on another.

use crate::registration::{approved_spreadsheet, code_in, invited, last_text, link_of, registers, shown, submit};
use crate::sep10::wallet_token;
use crate::sep24::{interactive, page_step, post_step};
use lajan_domain::invitation::{Invitation, RegistrationChecks};
use lajan_domain::{Invalid, Timestamp};
use lajan_store::{DepositChange, RegistrationChange};
use lajan_testkit::{TestApp, WALLET};
use serde_json::{Value, json};

async fn get(app: &TestApp, path: &str) -> Value {
    app.get(path).await.json().await.unwrap()
}

/// A code other than `code`: a wrong guess that cannot be right by chance.
fn other_than(code: &str) -> String {
    code.chars().map(|c| if c == '9' { '0' } else { char::from(c as u8 + 1) }).collect()
}

/// Ages the code the client's own link holds by a minute, as if the receiver waited before
/// asking for another.
async fn age_link_code(app: &TestApp, client_id: &str) {
    let older = |i: &mut Invitation| -> Result<bool, Invalid> {
        i.checks.code_sent_at = i.checks.code_sent_at.map(|at| at.plus_millis(-61_000));
        Ok(false)
    };
    let step = RegistrationChange { change: &older, message: None, event: None, withdrawn: None };
    app.store().registration_step(&app.tenant(), client_id, Timestamp::now(), step).await.unwrap();
}

/// Ages the code deposit `id`'s page holds by a minute.
async fn age_deposit_code(app: &TestApp, id: &str) {
    let older = |c: &mut RegistrationChecks, _: Option<&mut Invitation>, _: i64| -> Result<bool, Invalid> {
        c.code_sent_at = c.code_sent_at.map(|at| at.plus_millis(-61_000));
        Ok(false)
    };
    app.store().deposit_step(id, Timestamp::now(), DepositChange { change: &older, event: None }).await.unwrap();
}

async fn wallet_of(app: &TestApp, client_id: &str) -> Value {
    get(app, &format!("/v1/clients/{client_id}")).await["walletAccountId"].clone()
}

api_test!(a_deposit_page_never_inherits_the_receivers_own_confirmation, |app| {
    let rose = json!({ "firstName": "Rose", "lastName": "Pyè", "phoneNumber": "+50937000021",
                       "verification": { "type": "pin", "value": "4321" } });
    let (client_id, link) = invited(app, rose).await;
    // Someone who knows Rose's number binds a deposit of their own wallet to it first.
    let (_, token) = wallet_token(app, 41, None).await;
    let (_, early) = interactive(app, &token).await;
    let (step, _) = page_step(post_step(app, &early, "contact", &[("contact", "3700 0021")]).await, 200).await;
    assert_eq!(step, "confirm_contact");

    // Rose confirms her phone and answers the question on her own link.
    shown(submit(app, &link, "code", &[]).await, 200).await;
    let code = code_in(&last_text(app, &client_id).await);
    let (step, _) = shown(submit(app, &link, "confirm", &[("code", &code)]).await, 200).await;
    assert_eq!(step, "verify");
    let (step, _) = shown(submit(app, &link, "verify", &[("answer", "4321")]).await, 200).await;
    assert_eq!(step, "wallet");

    // The early page inherits none of it: it still asks for its own code and names nobody.
    let r = post_step(app, &early, "wallet", &[]).await;
    assert_ne!(r.status().as_u16(), 200, "nothing to register on an unproved page");
    let (step, html) = page_step(app.http.get(app.url(&early)).send().await.unwrap(), 200).await;
    assert!(step == "confirm_contact" && !html.contains("Acme") && !html.contains("25.00"), "{html}");
    // Rose's code from her link does not work on another page either.
    let (step, _) = page_step(post_step(app, &early, "confirm", &[("code", &code)]).await, 400).await;
    assert_eq!(step, "confirm_contact");
    // A page opened after Rose confirmed gets no shortcut.
    let (_, late) = interactive(app, &token).await;
    let (step, html) = page_step(post_step(app, &late, "contact", &[("contact", "+50937000021")]).await, 200).await;
    assert!(step == "confirm_contact" && !html.contains("Acme"), "{html}");
    assert_eq!(wallet_of(app, &client_id).await, Value::Null, "no wallet registered by anyone but Rose");

    // Rose's own confirmation still stands: she gives her wallet and is registered.
    let (step, _) = shown(submit(app, &link, "wallet", &[("address", WALLET)]).await, 200).await;
    assert_eq!(step, "registered");
    assert_eq!(wallet_of(app, &client_id).await, WALLET);
    // A registration done is the organization's to change: no page takes the number any more.
    let (_, after) = interactive(app, &token).await;
    page_step(post_step(app, &after, "contact", &[("contact", "+50937000021")]).await, 200).await;
    assert_ne!(post_step(app, &after, "wallet", &[]).await.status().as_u16(), 200);
    assert_eq!(wallet_of(app, &client_id).await, WALLET);
});

api_test!(asking_for_new_codes_does_not_grind_the_code_down, |app| {
    let jak = json!({ "firstName": "Jak", "lastName": "Pyè", "phoneNumber": "+50937000022" });
    let (client_id, link) = invited(app, jak).await;
    for round in 0..4 {
        if round > 0 {
            age_link_code(app, &client_id).await;
        }
        shown(submit(app, &link, "code", &[]).await, 200).await;
        let wrong = other_than(&code_in(&last_text(app, &client_id).await));
        for guess in 0..5 {
            let r = submit(app, &link, "confirm", &[("code", &wrong)]).await;
            let status = if round == 3 && guess == 4 { 403 } else { 400 };
            assert_eq!(r.status().as_u16(), status, "round {round}, guess {guess}");
        }
    }
    // Twenty wrong codes over the invitation's life lock it as wrong answers do.
    let invitation = get(app, &format!("/v1/clients/{client_id}/invitation")).await;
    assert_eq!(invitation["status"], "locked", "{invitation}");
    assert_eq!(get(app, "/v1/events?type=client.verification_locked").await["pagination"]["total"], 1);
    age_link_code(app, &client_id).await;
    assert_eq!(submit(app, &link, "code", &[]).await.status().as_u16(), 400, "no code goes to a locked link");

    let unlocked = app.post(&format!("/v1/clients/{client_id}/invitation/unlock"), &json!({})).await;
    assert_eq!(unlocked.status(), 200);
    shown(submit(app, &link, "code", &[]).await, 200).await;
    let code = code_in(&last_text(app, &client_id).await);
    let (step, _) = shown(submit(app, &link, "confirm", &[("code", &code)]).await, 200).await;
    assert_eq!(step, "wallet", "unlocked: the receiver's right code works");
});

api_test!(wrong_codes_on_a_deposit_page_never_burn_the_receivers_code, |app| {
    let ana = json!({ "firstName": "Ana", "lastName": "Pyè", "phoneNumber": "+50937000023" });
    let (client_id, link) = invited(app, ana).await;
    shown(submit(app, &link, "code", &[]).await, 200).await;
    let code = code_in(&last_text(app, &client_id).await);

    let (_, token) = wallet_token(app, 42, None).await;
    let (_, page) = interactive(app, &token).await;
    page_step(post_step(app, &page, "contact", &[("contact", "+50937000023")]).await, 200).await;
    for _ in 0..6 {
        let (step, _) = page_step(post_step(app, &page, "confirm", &[("code", &other_than(&code))]).await, 400).await;
        assert_eq!(step, "confirm_contact");
    }
    let (step, _) = shown(submit(app, &link, "confirm", &[("code", &code)]).await, 200).await;
    assert_eq!(step, "wallet", "Ana's code on her link still works");
});

api_test!(one_contact_gets_ten_wrong_codes_a_day_across_deposit_pages_invited_or_not, |app| {
    let (client_id, _) =
        invited(app, json!({ "firstName": "Lis", "lastName": "Pyè", "phoneNumber": "+50937000024" })).await;
    let (_, token) = wallet_token(app, 43, None).await;
    for contact in ["+50937000024", "+50937009990"] {
        let mut refusals = Vec::new();
        for _ in 0..3 {
            let (id, page) = interactive(app, &token).await;
            page_step(post_step(app, &page, "contact", &[("contact", contact)]).await, 200).await;
            for _ in 0..5 {
                let r = post_step(app, &page, "confirm", &[("code", "000000")]).await;
                let html = r.text().await.unwrap();
                refusals.push(if html.contains("Too many wrong codes") { "day" } else { "wrong" });
            }
            // The page's own code is dead after five: a new one counts on toward the day's.
            age_deposit_code(app, &id).await;
        }
        let wrong = refusals.iter().filter(|r| **r == "wrong").count();
        assert_eq!((wrong, refusals.len() - wrong), (10, 5), "{contact}: the same for a number with no invitation");
    }
    let invitation = get(app, &format!("/v1/clients/{client_id}/invitation")).await;
    assert_eq!(invitation["status"], "invited", "ten guesses a day do not lock the receiver out");
});

fn few_codes_per_address() -> lajan_testkit::TestConfig {
    let mut config = lajan_testkit::test_config();
    config.api.code_miss_limit = 3;
    config
}

api_test!(one_address_gets_its_wrong_codes_an_hour_on_every_page_together, few_codes_per_address(), |app| {
    let (client_id, link) =
        invited(app, json!({ "firstName": "Mari", "lastName": "Pyè", "phoneNumber": "+50937000025" })).await;
    shown(submit(app, &link, "code", &[]).await, 200).await;
    let code = code_in(&last_text(app, &client_id).await);
    let (_, token) = wallet_token(app, 44, None).await;
    let (_, page) = interactive(app, &token).await;
    page_step(post_step(app, &page, "contact", &[("contact", "+50937009991")]).await, 200).await;
    for _ in 0..3 {
        assert_eq!(post_step(app, &page, "confirm", &[("code", "000000")]).await.status().as_u16(), 400);
    }
    let r = post_step(app, &page, "confirm", &[("code", "000000")]).await;
    assert_eq!(r.status().as_u16(), 429, "the fourth wrong code this hour");
    assert!(r.headers().contains_key("retry-after"));
    // Another page from the same address is not checked either, even with the right code.
    let r = submit(app, &link, "confirm", &[("code", &code)]).await;
    assert_eq!(r.status().as_u16(), 429);
});

api_test!(changing_who_receives_what_waits_takes_its_approval_back, |app| {
    let (client_id, _) =
        invited(app, json!({ "firstName": "Pòl", "lastName": "Pyè", "phoneNumber": "+50937000026" })).await;
    let waiting =
        get(app, &format!("/v1/payouts?clientId={client_id}")).await["data"][0]["id"].as_str().unwrap().to_owned();
    // A clients:write key (a maker) moves the phone while 25 USDC waits for the receiver.
    let maker = app.key(None, lajan_domain::Environment::Test, &["clients:write"]).await;
    let moved = app
        .send_json_with(
            &maker,
            reqwest::Method::PUT,
            &format!("/v1/clients/{client_id}"),
            &json!({ "phoneNumber": "+50937999999" }),
        )
        .await;
    assert_eq!(moved.status(), 200);
    let payout = get(app, &format!("/v1/payouts/{waiting}")).await;
    assert_eq!(payout["approvalStatus"], "pending", "an approver decides again: {payout}");
    let withdrawn = get(app, "/v1/events?type=payout.approval_withdrawn").await;
    assert_eq!(withdrawn["pagination"]["total"], 1, "{withdrawn}");
    assert_eq!(withdrawn["data"][0]["data"]["object"]["id"], waiting.as_str());
    // Nothing goes to the new phone until an approver approves again.
    app.workers().send_invitations_once(Timestamp::now()).await.unwrap();
    let texts = get(app, "/v1/sandbox/messages?limit=100").await.to_string();
    assert!(!texts.contains("+50937999999"), "no invitation or code to the new phone yet");

    // Under four eyes, whoever changed it cannot approve it back; someone else can.
    assert_eq!(app.put("/v1/settings", &json!({ "requireDistinctApprover": true })).await.status(), 200);
    let changer = app.key(None, lajan_domain::Environment::Test, &["clients:write", "payouts:approve"]).await;
    let approver = app.key(None, lajan_domain::Environment::Test, &["payouts:approve"]).await;
    let approve = format!("/v1/payouts/{waiting}/approve");
    assert_eq!(app.post_with(&changer, &approve, &json!({})).await.status(), 200, "not its maker: approves");
    let path = format!("/v1/clients/{client_id}");
    let moved = app.send_json_with(&changer, reqwest::Method::PUT, &path, &json!({ "email": "pol@example.ht" })).await;
    assert_eq!(moved.status(), 200);
    assert_eq!(get(app, &format!("/v1/payouts/{waiting}")).await["approvalStatus"], "pending");
    lajan_testkit::expect_error(app.post_with(&changer, &approve, &json!({})).await, 400, "cannot_approve").await;
    assert_eq!(app.post_with(&approver, &approve, &json!({})).await.status(), 200, "another approver approves");

    // Unlocking a locked receiver is the same kind of decision.
    let locked = |i: &mut Invitation| -> Result<bool, Invalid> {
        i.status = lajan_domain::invitation::InvitationStatus::Locked;
        Ok(false)
    };
    let step = RegistrationChange { change: &locked, message: None, event: None, withdrawn: None };
    app.store().registration_step(&app.tenant(), &client_id, Timestamp::now(), step).await.unwrap();
    let r = app.post_with(&maker, &format!("/v1/clients/{client_id}/invitation/unlock"), &json!({})).await;
    assert_eq!(r.status(), 200);
    assert_eq!(get(app, &format!("/v1/payouts/{waiting}")).await["approvalStatus"], "pending");
    assert_eq!(get(app, "/v1/events?type=payout.approval_withdrawn").await["pagination"]["total"], 3);
});

api_test!(a_batch_payout_whose_approval_was_withdrawn_is_decided_alone, |app| {
    let csv = format!(
        "walletAccountId,phoneNumber,firstName,lastName,verification,assetAmount\n\
         {WALLET},,,,,5\n\
         ,+50937000031,Rose,Pòl,,7\n\
         ,+50937000032,Jak,Pyè,,3\n"
    );
    let dsb = approved_spreadsheet(app, &csv).await;
    app.drain_payouts().await;
    let items = get(app, &format!("/v1/disbursements/{dsb}/items")).await;
    let (rose, jak) = (&items["data"][1], &items["data"][2]);
    let payout_of = |item: &Value| item["payoutId"].as_str().unwrap().to_owned();
    let (rose_payout, jak_payout) = (payout_of(rose), payout_of(jak));

    // A batch payout is decided with its batch...
    let approve = |id: &str| format!("/v1/payouts/{id}/approve");
    lajan_testkit::expect_error(app.post(&approve(&rose_payout), &json!({})).await, 400, "cannot_approve").await;
    // ...until a maker moves its receiver's phone: the batch's approval no longer covers it.
    let maker = app.key(None, lajan_domain::Environment::Test, &["clients:write"]).await;
    for (item, phone) in [(rose, "+50937999931"), (jak, "+50937999932")] {
        let path = format!("/v1/clients/{}", item["clientId"].as_str().unwrap());
        let moved = app.send_json_with(&maker, reqwest::Method::PUT, &path, &json!({ "phoneNumber": phone })).await;
        assert_eq!(moved.status(), 200);
    }
    assert_eq!(get(app, &format!("/v1/payouts/{rose_payout}")).await["approvalStatus"], "pending");
    let d = get(app, &format!("/v1/disbursements/{dsb}")).await;
    assert_eq!(d["status"], "processing", "two items wait for a decision: {d}");

    // An approver decides each alone: Rose's is approved again, Jak's rejected.
    let r = app.post(&approve(&rose_payout), &json!({})).await;
    assert_eq!(r.status(), 200, "approved alone");
    let rose_now = get(app, &format!("/v1/payouts/{rose_payout}")).await;
    assert_eq!(
        (&rose_now["approvalStatus"], &rose_now["execStatus"]),
        (&json!("approved"), &json!("awaiting_registration"))
    );
    let r = app.post(&format!("/v1/payouts/{jak_payout}/reject"), &json!({ "reason": "phone changed" })).await;
    assert_eq!(r.status(), 200, "rejected alone");
    lajan_testkit::expect_error(app.post(&approve(&rose_payout), &json!({})).await, 400, "cannot_approve").await;

    // Rose registers; the batch ends having paid two rows of three.
    let rose_id = rose["clientId"].as_str().unwrap().to_owned();
    app.workers().send_invitations_once(Timestamp::now()).await.unwrap();
    let token = link_of(app, &rose_id).await;
    registers(app, &rose_id, &token, None).await;
    app.drain_payouts().await;
    app.drain_payouts().await;
    let done = get(app, &format!("/v1/disbursements/{dsb}")).await;
    let counts = &done["counts"];
    assert_eq!((&counts["sent"], &counts["rejected"]), (&json!(2), &json!(1)), "{done}");
    assert_eq!(done["status"], "partially_failed", "one row paid nobody: {done}");
});

api_test!(a_contact_step_takes_as_long_whether_the_number_is_invited_or_not, |app| {
    invited(app, json!({ "firstName": "Mari", "lastName": "Pyè", "phoneNumber": "+50937000041" })).await;
    let (_, token) = wallet_token(app, 43, None).await;
    let mut times = Vec::new();
    for contact in ["+50937000041", "+50937999941"] {
        let (_, page) = interactive(app, &token).await;
        let started = std::time::Instant::now();
        let (step, _) = page_step(post_step(app, &page, "contact", &[("contact", contact)]).await, 200).await;
        times.push(started.elapsed());
        assert_eq!(step, "confirm_contact", "the same answer for {contact}");
    }
    // Both wait for the step's floor (300 ms), far above what a matched contact's extra reads cost.
    let floor = std::time::Duration::from_millis(300);
    assert!(times.iter().all(|t| *t >= floor), "{times:?}");
});
