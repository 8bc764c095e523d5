//! Live payouts through faults that pass: refusals a new transaction cures never fail a payout
//! however many there are, a Horizon that answers again ends every hold at once, and a payout
//! unsent too long raises `payout.delayed`, once, and shows in `/metrics`.

use crate::live::{Live, START_SEQ, live_test};
use lajan_domain::Timestamp;
use lajan_testkit::{TestConfig, WALLET};
use serde_json::Value;

/// The payout's attempts' error codes, oldest first.
async fn codes(live: &Live, id: &str) -> Vec<String> {
    let p = live.get(&format!("/v1/payouts/{id}")).await;
    let attempts = p["attempts"].as_array().cloned().unwrap_or_default();
    attempts.iter().map(|a| a["errorCode"].as_str().unwrap_or("none").to_owned()).collect()
}

live_test!(sequence_races_never_fail_a_payout_however_many, 60, |live| {
    // Eight transactions in a row lose their sequence number to someone else's transaction (the
    // old budget failed the payout after five).
    live.net.refuse_next(8, "tx_bad_seq");
    let id = live.approved_payout(WALLET, "2").await;
    let path = format!("/v1/payouts/{id}");
    for step in 1..=9 {
        // Each rebuild is due within its backoff's ceiling (1 s doubling): claim as if past it.
        assert_eq!(live.execute(Timestamp::now().plus_millis(60_000 * step)).await, 1, "step {step}");
        let p = live.get(&path).await;
        assert_ne!(p["execStatus"], "failed", "step {step}: {p}");
    }
    let p = live.get(&path).await;
    assert_eq!(p["execStatus"], "sent", "{p}");
    let codes = codes(live, &id).await;
    assert_eq!(codes.len(), 9, "{codes:?}");
    assert!(codes[..8].iter().all(|c| c == "tx_bad_seq"), "{codes:?}");
    assert_eq!(live.net.payments().len(), 1);
    // Eight sequence numbers taken by others, then ours.
    assert_eq!(live.net.sequence(&live.distribution), Some(START_SEQ + 9));
});

live_test!(a_horizon_that_answers_again_ends_every_hold_at_once, 60, |live| {
    let id = live.approved_payout(WALLET, "3").await;
    let path = format!("/v1/payouts/{id}");
    live.net.go_down(true);
    // Steps while Horizon answers 503 to everything: each holds the payout a little longer (as
    // if a minute apart, so each step takes it again).
    for step in 0..6 {
        assert_eq!(live.execute(Timestamp::now().plus_millis(60_000 * step)).await, 1, "step {step}");
    }
    let p = live.get(&path).await;
    assert_eq!((p["execStatus"].as_str(), p["attempts"].as_array().map(Vec::len)), (Some("ready_to_send"), Some(0)));
    assert!(live.net.submissions().is_empty());
    // Six faults in a row: the hold now runs at least 15 s past the real clock.
    let in_10_s = Timestamp::now().plus_millis(10_000);
    let held = live.app.store().claim_payouts(in_10_s, 1_000, 10, lajan_domain::Environment::Live).await.unwrap();
    assert!(held.payouts.is_empty(), "held past 10 s");
    live.net.go_down(false);
    // On the real clock: the step that finds Horizon answering makes the payout due and pays it.
    assert_eq!(live.execute(Timestamp::now()).await, 1);
    let p = live.get(&path).await;
    assert_eq!(p["execStatus"], "sent", "{p}");
    assert_eq!(live.net.payments().len(), 1);
});

live_test!(
    a_payout_unsent_too_long_raises_payout_delayed_once_and_shows_in_metrics,
    60,
    |c: &mut TestConfig| c.workers.payout_delay_alert_ms = 1_000,
    |live| {
        let id = live.approved_payout(WALLET, "4").await;
        live.net.go_down(true);
        assert_eq!(live.execute(Timestamp::now()).await, 1);
        let workers = live.app.workers();
        assert_eq!(workers.alert_delayed_payouts_once(Timestamp::now()).await.unwrap(), 0, "not late yet");
        let later = Timestamp::now().plus_millis(1_500);
        assert_eq!(workers.alert_delayed_payouts_once(later).await.unwrap(), 1);
        assert_eq!(workers.alert_delayed_payouts_once(later.plus_millis(60_000)).await.unwrap(), 0, "once");
        let events = live.get("/v1/events?type=payout.delayed").await;
        let data = events["data"].as_array().unwrap();
        assert_eq!(data.len(), 1, "{events}");
        assert_eq!(data[0]["data"]["object"]["id"], Value::from(id.as_str()), "{events}");
        assert_eq!(data[0]["data"]["object"]["execStatus"], "ready_to_send", "{events}");
        let metrics = workers.services().scrape_metrics(false).await.unwrap();
        assert!(metrics.contains("lajan_payouts_delayed{environment=\"live\"} 1\n"), "{metrics}");
        assert!(metrics.contains("lajan_payouts_delayed{environment=\"test\"} 0\n"), "{metrics}");
        // Paid once Horizon is back: no longer counted, and no second alert.
        live.net.go_down(false);
        assert_eq!(live.execute(Timestamp::now().plus_millis(60_000)).await, 1);
        assert_eq!(live.get(&format!("/v1/payouts/{id}")).await["execStatus"], "sent");
        let metrics = workers.services().scrape_metrics(false).await.unwrap();
        assert!(metrics.contains("lajan_payouts_delayed{environment=\"live\"} 0\n"), "{metrics}");
        assert_eq!(live.get("/v1/events?type=payout.delayed").await["data"].as_array().unwrap().len(), 1);
    }
);

live_test!(
    a_manual_retry_starts_the_delay_over,
    60,
    |c: &mut TestConfig| c.workers.payout_delay_alert_ms = 1_000,
    |live| {
        // An account that refuses the asset: the payout fails for good once Horizon answers.
        let refusing = live.account_that_refuses_after_the_check(99);
        let id = live.approved_payout(&refusing, "5").await;
        live.net.go_down(true);
        assert_eq!(live.execute(Timestamp::now()).await, 1);
        let workers = live.app.workers();
        assert_eq!(workers.alert_delayed_payouts_once(Timestamp::now().plus_millis(1_500)).await.unwrap(), 1);
        live.net.go_down(false);
        assert_eq!(live.execute(Timestamp::now().plus_millis(60_000)).await, 1);
        let p = live.get(&format!("/v1/payouts/{id}")).await;
        assert_eq!(
            (p["execStatus"].as_str(), codes(live, &id).await.last().map(String::as_str)),
            (Some("failed"), Some("op_no_trust"))
        );
        assert_eq!(
            workers.alert_delayed_payouts_once(Timestamp::now().plus_millis(60_000)).await.unwrap(),
            0,
            "failed is not late"
        );
        live.post(&format!("/v1/payouts/{id}/retry"), &serde_json::json!({})).await;
        // Late again counting from the retry, not from the approval: alerted a second time.
        assert_eq!(workers.alert_delayed_payouts_once(Timestamp::now()).await.unwrap(), 0);
        assert_eq!(workers.alert_delayed_payouts_once(Timestamp::now().plus_millis(1_500)).await.unwrap(), 1);
        let delayed = live.get("/v1/events?type=payout.delayed").await;
        assert_eq!(delayed["data"].as_array().unwrap().len(), 2, "{delayed}");
    }
);
