//! The store contract: the same cases run against SQLite and PostgreSQL.
//! PostgreSQL cases need `LAJAN_TEST_DATABASE_URL` (see `lajan_store::testing`).

use lajan_domain::apikey::ApiKey;
use lajan_domain::client::{Client, Language};
use lajan_domain::client::{ClientInput, ClientPatch, ClientPatchInput};
use lajan_domain::id::IdKind;
use lajan_domain::money::{Currency, TaxRate};
use lajan_domain::org::{Organization, Tier};
use lajan_domain::pagination::PageRequest;
use lajan_domain::payout::AssetCode;
use lajan_domain::receiver::{ReceiverSettings, RecommendedWallet};
use lajan_domain::scope::Scope;
use lajan_domain::settings::Settings;
use lajan_domain::stellar_profile::StellarProfile;
use lajan_domain::verification::{Verification, VerificationKind};
use lajan_domain::{Actor, Environment, Tenant, Timestamp};
use lajan_store::{
    ClientQuery, EventQuery, IdempotencyClaim, IdempotencyState, IdempotentResponse, NewApiKey, NewEvent,
    SettingsDecision, Store, StoreError, WaitingPayouts,
};
use std::sync::Arc;

use lajan_store::contract;

mod console;
mod settings_changes;
mod wallet_auth;
mod wallet_deposits;

const WALLET: &str = "GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H";

async fn org(store: &Arc<dyn Store>, name: &str) -> Organization {
    lajan_store::testing::organization(store, name).await
}

fn new_key(org_id: &str, env: Environment, hash: &str) -> NewApiKey {
    NewApiKey {
        key: ApiKey {
            id: IdKind::ApiKey.generate(),
            org_id: org_id.into(),
            env,
            name: "test".into(),
            hint: "sk_test_abcd".into(),
            scopes: vec![Scope::Read("clients"), Scope::ApprovePayouts],
            created_at: Timestamp::now(),
            last_used_at: None,
            revoked_at: None,
        },
        secret_hash: hash.into(),
    }
}

async fn client(
    store: &Arc<dyn Store>,
    t: &Tenant,
    first: &str,
    last: &str,
    email: Option<&str>,
) -> lajan_domain::client::Client {
    let c = ClientInput {
        first_name: Some(first.into()),
        last_name: Some(last.into()),
        email: email.map(Into::into),
        phone_number: Some("+50937000001".into()),
        wallet_account_id: Some(WALLET.into()),
        wallet_memo: None,
        wallet_memo_type: None,
        language: None,
        reminders_enabled: None,
        verification: None,
    }
    .into_client(IdKind::Client.generate(), Timestamp::now(), lajan_domain::phone::PhoneCountry::HAITI)
    .unwrap()
    .0;
    let ev = NewEvent { event_type: "client.created", object: serde_json::json!({ "id": c.id }) };
    store.create_client(t, &c, &ev, None).await.unwrap();
    c
}

fn tenant(org: &Organization, env: Environment) -> Tenant {
    Tenant::new(org.id.clone(), env)
}

/// An operator at the command line, as the access trail records them.
fn cli() -> Actor {
    Actor::System(Actor::CLI.into())
}

contract!(keys_authenticate_until_revoked, |store| {
    let o = org(&store, "Acme").await;
    let k = new_key(&o.id, Environment::Test, "hash-1");
    store.create_api_key(&k, &cli()).await.unwrap();
    let (found, found_org) = store.authenticate("hash-1").await.unwrap().expect("key found");
    assert_eq!(found, k.key);
    assert_eq!(found_org, o);
    assert!(store.authenticate("hash-2").await.unwrap().is_none());

    store.touch_api_key(&k.key.id, Timestamp::from_millis(5_000)).await.unwrap();
    store.touch_api_key(&k.key.id, Timestamp::from_millis(4_000)).await.unwrap();
    let keys = store.list_api_keys(Some(&o.id)).await.unwrap();
    assert_eq!(keys.len(), 1);
    assert_eq!(keys[0].last_used_at, Some(Timestamp::from_millis(5_000)), "last_used_at never goes back");

    let revoked = store.revoke_api_key(&k.key.id, Timestamp::from_millis(9), &cli()).await.unwrap();
    assert_eq!(revoked.revoked_at, Some(Timestamp::from_millis(9)));
    let again = store.revoke_api_key(&k.key.id, Timestamp::from_millis(10), &cli()).await.unwrap();
    assert_eq!(again.revoked_at, Some(Timestamp::from_millis(9)), "first revocation time is kept");
    assert!(store.authenticate("hash-1").await.unwrap().is_none());
    assert!(matches!(store.revoke_api_key("key_nope", Timestamp::now(), &cli()).await, Err(StoreError::NotFound)));

    let orphan = new_key("org_missing", Environment::Live, "hash-3");
    assert!(matches!(store.create_api_key(&orphan, &cli()).await, Err(StoreError::NotFound)));
    let dup = new_key(&o.id, Environment::Live, "hash-1");
    assert!(matches!(store.create_api_key(&dup, &cli()).await, Err(StoreError::Conflict(_))));
    assert_eq!(store.list_api_keys(None).await.unwrap().len(), 1);
    let trail = store.list_access_changes(&o.id, 10).await.unwrap();
    let lines: Vec<(&str, &str)> = trail.iter().map(|c| (c.action.as_str(), c.subject_id.as_str())).collect();
    assert_eq!(
        lines,
        [("api_key.created", k.key.id.as_str()), ("api_key.revoked", k.key.id.as_str())],
        "newest first (the revocation is dated 9 ms after 1970 here); one line per change: refused creations \
         and the second revocation leave none"
    );
    assert!(
        trail[0].subject.starts_with("test (test, "),
        "the key by name, environment and hint: {}",
        trail[1].subject
    );
});

contract!(bootstrap_happens_once, |store| {
    let first = Organization {
        id: IdKind::Organization.generate(),
        name: "Default".into(),
        tier: Tier::Standard,
        created_at: Timestamp::now(),
    };
    assert!(store.bootstrap(&first, &new_key(&first.id, Environment::Test, "b1")).await.unwrap());
    let second = Organization { id: IdKind::Organization.generate(), ..first.clone() };
    assert!(!store.bootstrap(&second, &new_key(&second.id, Environment::Test, "b2")).await.unwrap());
    assert_eq!(store.list_organizations().await.unwrap(), vec![first.clone()]);
    assert_eq!(store.get_organization(&first.id).await.unwrap(), Some(first));
    assert_eq!(store.get_organization(&second.id).await.unwrap(), None);
});

contract!(settings_default_and_persist_per_tenant, |store| {
    let o = org(&store, "Acme").await;
    let test = tenant(&o, Environment::Test);
    assert_eq!(store.get_settings(&test).await.unwrap(), Settings::default());
    let s = Settings {
        default_currency: Currency::Usd,
        default_tax_rate: TaxRate::from_thousandths(12_500),
        payout_approval_required: false,
        require_distinct_approver: true,
        timezone: "America/Port-au-Prince".into(),
        country: lajan_domain::phone::PhoneCountry::parse("FR").unwrap(),
        invoicing: lajan_domain::settings::InvoicingSettings {
            allow_partial_payments: false,
            reminders: lajan_domain::reminder::ReminderSettings {
                offset_days: vec![-1, 2],
                channels: vec![lajan_domain::message::Channel::Email],
                time_of_day: lajan_domain::reminder::parse_time_of_day("18:30").unwrap(),
            },
            payment_receipts: false,
            receipt_grace_minutes: 12,
        },
        receivers: ReceiverSettings {
            default_client_language: Language::Fr,
            invitation_resend_days: 5,
            invitation_resends: 0,
            registration_window_days: 30,
            whatsapp_invitations: true,
            recommended_wallets: vec![
                RecommendedWallet {
                    name: "Beans".into(),
                    url: "https://www.beansapp.com/".into(),
                    assets: vec![AssetCode::parse("USDC").unwrap(), AssetCode::parse("XLM").unwrap()],
                    deep_link: Some("beans://sdp".into()),
                },
                RecommendedWallet {
                    name: "Vibrant".into(),
                    url: "https://vibrantapp.com".into(),
                    assets: vec![],
                    deep_link: None,
                },
            ],
        },
        stellar: StellarProfile {
            home_domain: Some("pay.acme.example".into()),
            org_url: Some("https://acme.example".into()),
            org_support_email: Some("help@acme.example".into()),
            ..StellarProfile::default()
        },
    };
    store.put_settings(&test, &s, Timestamp::now()).await.unwrap();
    store.put_settings(&test, &s, Timestamp::now()).await.unwrap();
    assert_eq!(store.get_settings(&test).await.unwrap(), s);
    assert_eq!(store.get_settings(&tenant(&o, Environment::Live)).await.unwrap(), Settings::default());

    // Found by its home domain once proved, in its environment only; a domain is the first
    // prover's.
    let domain = "pay.acme.example";
    assert_eq!(store.home_domain_org(Environment::Test, domain).await.unwrap(), None, "not proved yet");
    let now = Timestamp::now();
    let proof = store.home_domain_proof(&test, domain, "token-1", now).await.unwrap();
    assert_eq!((proof.token.as_str(), proof.proved_at), ("token-1", None));
    let kept = store.home_domain_proof(&test, domain, "token-2", now).await.unwrap();
    assert_eq!(kept.token, "token-1", "one token per domain");
    assert_eq!(store.prove_home_domain(&test, domain, now).await.unwrap().proved_at, Some(now));
    let found = store.home_domain_org(Environment::Test, domain).await.unwrap().unwrap();
    assert_eq!((found.org.id.as_str(), &found.profile), (o.id.as_str(), &s.stellar));
    assert_eq!(store.home_domain_org(Environment::Live, domain).await.unwrap(), None);
    assert_eq!(store.home_domain_org(Environment::Test, "acme.example").await.unwrap(), None);
    let other = org(&store, "Other").await;
    let other_test = tenant(&other, Environment::Test);
    store.put_settings(&other_test, &s, Timestamp::now()).await.unwrap();
    store.home_domain_proof(&other_test, domain, "token-3", now).await.unwrap();
    let taken = store.prove_home_domain(&other_test, domain, now).await;
    assert!(matches!(taken, Err(lajan_store::StoreError::Conflict(_))), "{taken:?}");
    assert_eq!(store.home_domain_org(Environment::Test, domain).await.unwrap().unwrap().org.id, o.id);
    let elsewhere = store.prove_home_domain(&other_test, "other.example", now).await;
    assert!(matches!(elsewhere, Err(lajan_store::StoreError::NotFound)), "{elsewhere:?}");
    store.put_settings(&tenant(&other, Environment::Live), &s, Timestamp::now()).await.unwrap();
    // Another domain starts another proof: the first is no longer served.
    let moved = store.home_domain_proof(&test, "pay2.acme.example", "token-4", now).await.unwrap();
    assert_eq!((moved.token.as_str(), moved.proved_at), ("token-4", None));
    assert_eq!(store.home_domain_org(Environment::Test, domain).await.unwrap(), None);
});

contract!(clients_are_isolated_searchable_and_archivable, |store| {
    let o = org(&store, "Acme").await;
    let other = org(&store, "Other").await;
    let t = tenant(&o, Environment::Test);
    let marie = client(&store, &t, "Marie", "Jean-Baptiste", Some("marie@example.ht")).await;
    let paul = client(&store, &t, "Paul", "Pierre", None).await;
    let live = client(&store, &tenant(&o, Environment::Live), "Live", "Only", None).await;
    let foreign = client(&store, &tenant(&other, Environment::Test), "Foreign", "Org", None).await;

    assert_eq!(store.get_client(&t, &marie.id).await.unwrap(), Some(marie.clone()));
    assert_eq!(store.get_client(&t, &live.id).await.unwrap(), None, "live data is invisible to test");
    assert_eq!(store.get_client(&t, &foreign.id).await.unwrap(), None, "other orgs are invisible");

    let all = store.list_clients(&t, &ClientQuery::default()).await.unwrap();
    assert_eq!(all.total, 2);
    assert_eq!(
        all.items.iter().map(|c| c.id.as_str()).collect::<Vec<_>>(),
        [paul.id.as_str(), marie.id.as_str()],
        "newest first"
    );

    for (term, expect) in [
        ("MARIE", 1),
        ("jean-b", 1),
        ("marie jean", 1),
        ("example.ht", 1),
        ("+5093700", 2),
        ("gbrpyhil", 2),
        ("%", 0),
        ("zzz", 0),
    ] {
        let q = ClientQuery { search: Some(term.into()), page: PageRequest::default() };
        assert_eq!(store.list_clients(&t, &q).await.unwrap().total, expect, "search {term:?}");
    }
    let page2 = store.list_clients(&t, &ClientQuery { search: None, page: PageRequest::numbered(2, 1) }).await.unwrap();
    assert_eq!((page2.total, page2.items.len(), page2.items[0].id.as_str()), (2, 1, marie.id.as_str()));
    let beyond =
        store.list_clients(&t, &ClientQuery { search: None, page: PageRequest::numbered(3, 1) }).await.unwrap();
    assert!(beyond.items.is_empty());

    let patch = ClientPatchInput {
        email: Some(None),
        first_name: Some(Some("Marie-Ange".into())),
        language: Some(Some("fr".into())),
        ..Default::default()
    }
    .parse(Timestamp::now(), lajan_domain::phone::PhoneCountry::HAITI)
    .unwrap()
    .0;
    let ev = |c: &lajan_domain::client::Client| NewEvent {
        event_type: "client.updated",
        object: serde_json::json!({ "id": c.id }),
    };
    let (updated, _) =
        store.update_client(&t, &marie.id, &patch, WaitingPayouts::default(), Timestamp::now(), &ev).await.unwrap();
    assert_eq!(updated.first_name, "Marie-Ange");
    assert_eq!(updated.email, None);
    assert_eq!(updated.language, lajan_domain::client::Language::Fr, "was Creole, as every new client");
    assert_eq!(store.get_client(&t, &marie.id).await.unwrap(), Some(updated.clone()));
    let (same, _) = store
        .update_client(
            &t.clone().acting_as(Actor::User("usr_1".into())),
            &marie.id,
            &patch,
            WaitingPayouts::default(),
            Timestamp::now(),
            &ev,
        )
        .await
        .unwrap();
    assert_eq!(same, updated);
    let updates = store
        .list_events(&t, &EventQuery { event_type: Some("client.updated".into()), ..Default::default() })
        .await
        .unwrap();
    assert_eq!(updates.total, 1, "a no-op update writes no event");
    let timeline = |id: &str| EventQuery { object_id: Some(id.to_owned()), ..Default::default() };
    let marie_events = store.list_events(&t, &timeline(&marie.id)).await.unwrap();
    let types: Vec<&str> = marie_events.items.iter().map(|e| e.event_type.as_str()).collect();
    assert_eq!(types, ["client.updated", "client.created"], "one resource's events, newest first");
    let makers: Vec<&Actor> = marie_events.items.iter().map(|e| &e.actor).collect();
    assert_eq!(makers, [&Actor::worker(), &Actor::worker()], "the tenant's actor, not the no-op update's");
    let by_user = t.clone().acting_as(Actor::User("usr_1".into()));
    let renamed = ClientPatchInput { first_name: Some(Some("Marie".into())), ..Default::default() }
        .parse(Timestamp::now(), lajan_domain::phone::PhoneCountry::HAITI)
        .unwrap()
        .0;
    store.update_client(&by_user, &marie.id, &renamed, WaitingPayouts::default(), Timestamp::now(), &ev).await.unwrap();
    let newest = store.list_events(&t, &timeline(&marie.id)).await.unwrap().items.remove(0);
    assert_eq!(newest.actor, Actor::User("usr_1".into()), "written with the actor that made the change");
    assert_eq!(store.get_event(&t, &newest.id).await.unwrap().map(|e| e.actor), Some(newest.actor.clone()));
    let elsewhere = Tenant::new(t.org_id.clone(), Environment::Live);
    assert_eq!(store.list_events(&elsewhere, &timeline(&marie.id)).await.unwrap().total, 0, "scoped by tenant");
    assert!(matches!(
        store.update_client(&t, &foreign.id, &patch, WaitingPayouts::default(), Timestamp::now(), &ev).await,
        Err(StoreError::NotFound)
    ));

    let del = |c: &lajan_domain::client::Client| NewEvent {
        event_type: "client.deleted",
        object: serde_json::json!({ "id": c.id }),
    };
    let archived = store.archive_client(&t, &paul.id, Timestamp::now(), &del).await.unwrap();
    assert!(archived.archived_at.is_some());
    assert_eq!(store.get_client(&t, &paul.id).await.unwrap(), None);
    assert_eq!(store.list_clients(&t, &ClientQuery::default()).await.unwrap().total, 1);
    assert_eq!(store.get_client_including_archived(&t, &paul.id).await.unwrap(), Some(archived));
    assert!(matches!(store.archive_client(&t, &paul.id, Timestamp::now(), &del).await, Err(StoreError::NotFound)));
    assert!(matches!(
        store.update_client(&t, &paul.id, &patch, WaitingPayouts::default(), Timestamp::now(), &ev).await,
        Err(StoreError::NotFound)
    ));
});

contract!(events_are_listed_filtered_and_isolated, |store| {
    let o = org(&store, "Acme").await;
    let t = tenant(&o, Environment::Test);
    let c = client(&store, &t, "Marie", "Jean", None).await;
    client(&store, &tenant(&o, Environment::Live), "Live", "Only", None).await;
    let del = |c: &lajan_domain::client::Client| NewEvent {
        event_type: "client.deleted",
        object: serde_json::json!({ "id": c.id }),
    };
    store.archive_client(&t, &c.id, Timestamp::now(), &del).await.unwrap();

    let all = store.list_events(&t, &EventQuery::default()).await.unwrap();
    assert_eq!(all.total, 2);
    assert_eq!(all.items[0].event_type, "client.deleted", "newest first");
    assert_eq!(all.items[1].event_type, "client.created");
    let data: serde_json::Value = serde_json::from_str(&all.items[1].data).unwrap();
    assert_eq!(data["object"]["id"], c.id);
    let created = store
        .list_events(&t, &EventQuery { event_type: Some("client.created".into()), ..Default::default() })
        .await
        .unwrap();
    assert_eq!(created.total, 1);
    let got = store.get_event(&t, &all.items[0].id).await.unwrap().unwrap();
    assert_eq!(got, all.items[0]);
    assert_eq!(store.get_event(&tenant(&o, Environment::Live), &all.items[0].id).await.unwrap(), None);
});

contract!(a_failed_commit_leaves_neither_change_nor_event, |store| {
    let o = org(&store, "Acme").await;
    let t = tenant(&o, Environment::Test);
    let c = ClientInput { first_name: Some("A".into()), last_name: Some("B".into()), ..Default::default() }
        .into_client(IdKind::Client.generate(), Timestamp::now(), lajan_domain::phone::PhoneCountry::HAITI)
        .unwrap()
        .0;
    let ev = NewEvent { event_type: "client.created", object: serde_json::json!({}) };
    store.fail_next_commit();
    assert!(matches!(store.create_client(&t, &c, &ev, None).await, Err(StoreError::Injected)));
    assert_eq!(store.get_client(&t, &c.id).await.unwrap(), None);
    assert_eq!(store.list_events(&t, &EventQuery::default()).await.unwrap().total, 0);
    store.create_client(&t, &c, &ev, None).await.expect("the fault fires once");
    assert_eq!(store.list_events(&t, &EventQuery::default()).await.unwrap().total, 1);
});

fn claim(key: &str, hash: &str, at: Timestamp) -> IdempotencyClaim {
    IdempotencyClaim { key: key.into(), request_hash: hash.into(), at, ttl_ms: 86_400_000 }
}

fn new_client(first: &str) -> Client {
    ClientInput { first_name: Some(first.into()), last_name: Some("B".into()), ..Default::default() }
        .into_client(IdKind::Client.generate(), Timestamp::now(), lajan_domain::phone::PhoneCountry::HAITI)
        .unwrap()
        .0
}

/// Creates `c` under `claim`, recording `{"id": ...}` as the response.
async fn keyed_client(
    store: &Arc<dyn Store>,
    t: &Tenant,
    c: &Client,
    claim: &IdempotencyClaim,
) -> Result<(), StoreError> {
    let body = |c: &Client| format!("{{\"id\":\"{}\"}}", c.id).into_bytes();
    let ev = NewEvent { event_type: "client.created", object: serde_json::json!({}) };
    store.create_client(t, c, &ev, Some(IdempotentResponse { claim, status: 201, body: &body })).await
}

contract!(idempotency_keys_replay_refuse_other_requests_and_expire, |store| {
    let o = org(&store, "Acme").await;
    let t = tenant(&o, Environment::Test);
    let live = tenant(&o, Environment::Live);
    let now = Timestamp::now();
    let lookup = |tenant: Tenant, key: &'static str, hash: &'static str, at: Timestamp| {
        let store = store.clone();
        async move { store.idempotency_lookup(&tenant, key, hash, at).await.unwrap() }
    };
    assert_eq!(lookup(t.clone(), "k1", "h1", now).await, IdempotencyState::Free);
    let c = new_client("A");
    keyed_client(&store, &t, &c, &claim("k1", "h1", now)).await.unwrap();
    let created = IdempotencyState::Replay { status: 201, body: format!("{{\"id\":\"{}\"}}", c.id).into_bytes() };
    assert_eq!(lookup(t.clone(), "k1", "h1", now).await, created, "the response committed with the client");
    assert_eq!(lookup(t.clone(), "k1", "h2", now).await, IdempotencyState::Mismatch);
    assert_eq!(lookup(live.clone(), "k1", "h2", now).await, IdempotencyState::Free, "keys are per environment");

    // A response that changed nothing is recorded on its own, once.
    let refused = claim("k2", "h", now);
    assert!(store.idempotency_record(&t, &refused, 400, b"{\"code\":\"x\"}").await.unwrap());
    assert!(!store.idempotency_record(&t, &refused, 409, b"{}").await.unwrap(), "the first response stays");
    assert_eq!(
        lookup(t.clone(), "k2", "h", now).await,
        IdempotencyState::Replay { status: 400, body: b"{\"code\":\"x\"}".to_vec() }
    );
    assert!(matches!(
        keyed_client(&store, &t, &new_client("C"), &claim("k2", "h", now)).await,
        Err(StoreError::IdempotencyKeyTaken)
    ));

    // Responses stay until they expire; then the key is free for any request.
    let later = now.plus_millis(86_400_000);
    assert_eq!(lookup(t.clone(), "k1", "h2", later).await, IdempotencyState::Free);
    keyed_client(&store, &t, &new_client("D"), &claim("k1", "h2", later)).await.expect("an expired key is reused");
    assert!(store.idempotency_record(&t, &claim("k2", "h3", later), 400, b"{}").await.unwrap());
    assert!(store.purge_expired(later.plus_millis(86_400_001)).await.unwrap() >= 2);
    assert_eq!(lookup(t.clone(), "k1", "h2", later).await, IdempotencyState::Free);
});

contract!(a_keyed_change_claims_its_key_in_its_own_transaction, |store| {
    let o = org(&store, "Acme").await;
    let t = tenant(&o, Environment::Test);
    let now = Timestamp::now();
    // A change that does not commit leaves its key free: nothing to wait out after a crash.
    store.fail_next_commit();
    let lost = new_client("Lost");
    assert!(matches!(keyed_client(&store, &t, &lost, &claim("k", "h", now)).await, Err(StoreError::Injected)));
    assert_eq!(store.idempotency_lookup(&t, "k", "h", now).await.unwrap(), IdempotencyState::Free);
    assert_eq!(store.get_client(&t, &lost.id).await.unwrap(), None);

    // Racing requests with one key: exactly one changes anything; the others find it taken.
    let tasks: Vec<_> = (0..16)
        .map(|i| {
            let (store, t) = (store.clone(), t.clone());
            tokio::spawn(async move {
                keyed_client(&store, &t, &new_client(&format!("R{i}")), &claim("race", "h", now)).await
            })
        })
        .collect();
    let (mut created, mut taken) = (0, 0);
    for task in tasks {
        match task.await.unwrap() {
            Ok(()) => created += 1,
            Err(StoreError::IdempotencyKeyTaken) => taken += 1,
            Err(other) => panic!("unexpected {other:?}"),
        }
    }
    assert_eq!((created, taken), (1, 15));
    let all = store.list_clients(&t, &ClientQuery::default()).await.unwrap();
    assert_eq!(all.total, 1, "one client for one key");
    assert_eq!(store.list_events(&t, &EventQuery::default()).await.unwrap().total, 1, "and one event");
});

contract!(rate_limit_windows_count_per_bucket, |store| {
    for expected in 1..=3 {
        assert_eq!(store.rate_limit_hit("org_a:test", 60, 180, 1).await.unwrap(), expected);
    }
    assert_eq!(store.rate_limit_hit("org_a:test", 120, 240, 1).await.unwrap(), 1, "a new window starts at one");
    assert_eq!(store.rate_limit_hit("org_b:test", 60, 180, 1).await.unwrap(), 1, "buckets are separate");
    let counted: Vec<_> = futures_join(store.clone()).await;
    assert_eq!(counted.iter().max(), Some(&13));
    assert_eq!(store.rate_limit_hit("org_b:test", 60, 180, 5).await.unwrap(), 6, "a block of hits at once");
    assert_eq!(store.purge_expired(Timestamp::from_millis(200)).await.unwrap(), 2);
});

/// Ten concurrent hits on one window, which must all count.
async fn futures_join(store: Arc<dyn Store>) -> Vec<u64> {
    let tasks: Vec<_> = (0..10)
        .map(|_| {
            let store = store.clone();
            tokio::spawn(async move { store.rate_limit_hit("org_a:test", 60, 180, 1).await.unwrap() })
        })
        .collect();
    let mut out = Vec::new();
    for t in tasks {
        out.push(t.await.unwrap());
    }
    out
}

contract!(concurrent_writes_all_land, |store| {
    let o = org(&store, "Acme").await;
    let t = tenant(&o, Environment::Test);
    let tasks: Vec<_> = (0..40)
        .map(|i| {
            let (store, t) = (store.clone(), t.clone());
            tokio::spawn(async move { client(&store, &t, &format!("C{i}"), "Writer", None).await })
        })
        .collect();
    for task in tasks {
        task.await.unwrap();
    }
    assert_eq!(store.list_clients(&t, &ClientQuery::default()).await.unwrap().total, 40);
    assert_eq!(store.list_events(&t, &EventQuery::default()).await.unwrap().total, 40);
});

// A caller that gives up on a write (a client hanging up, a timeout) drops its future at any
// await, the transaction's `BEGIN` included; the writer must still serve the next write.
contract!(a_write_abandoned_at_any_point_leaves_the_writer_usable, |store| {
    let o = org(&store, "Acme").await;
    let t = tenant(&o, Environment::Test);
    let ev = NewEvent { event_type: "client.created", object: serde_json::json!({}) };
    // Given up after 0, 10, 20, ... microseconds: somewhere among them the write is abandoned
    // while its transaction is being opened, run or committed.
    for micros in (0..3_000).step_by(10) {
        let abandoned = new_client("Gone");
        let write = store.create_client(&t, &abandoned, &ev, None);
        let _ = tokio::time::timeout(std::time::Duration::from_micros(micros), write).await;
    }
    let kept = new_client("Kept");
    store.create_client(&t, &kept, &ev, None).await.expect("the writer still writes");
    assert_eq!(store.get_client(&t, &kept.id).await.unwrap().map(|c| c.id), Some(kept.id));
});

contract!(partial_settings_updates_never_lose_one_another, |store| {
    let o = org(&store, "Acme").await;
    let t = tenant(&o, Environment::Test);
    let decided = |settings: Settings, events: Vec<NewEvent>| SettingsDecision { settings, changes: vec![], events };
    let no_approval =
        |s: &Settings, _: u32| Ok(decided(Settings { payout_approval_required: false, ..s.clone() }, vec![]));
    let recorded = || NewEvent { event_type: "settings.updated", object: serde_json::json!({ "timezone": "x" }) };
    let in_haiti = |s: &Settings, _: u32| {
        Ok(decided(Settings { timezone: "America/Port-au-Prince".into(), ..s.clone() }, vec![recorded()]))
    };
    let (a, b) = tokio::join!(
        store.update_settings(&t, &no_approval, Timestamp::now()),
        store.update_settings(&t, &in_haiti, Timestamp::now())
    );
    a.unwrap();
    b.unwrap();
    let now = store.get_settings(&t).await.unwrap();
    assert_eq!((now.payout_approval_required, now.timezone.as_str()), (false, "America/Port-au-Prince"));
    let refused = |_: &Settings, _: u32| Err(lajan_domain::Invalid::new("validation_error", "no"));
    assert!(matches!(store.update_settings(&t, &refused, Timestamp::now()).await, Err(StoreError::Rejected(_))));
    assert_eq!(store.get_settings(&t).await.unwrap(), now, "a refused change changes nothing");
    let events = store.list_events(&t, &EventQuery::default()).await.unwrap();
    assert_eq!(events.total, 1, "the change's event, written with it");
});

contract!(console_users_have_one_account_per_email, |store| {
    use lajan_domain::user::{Role, User};
    let (a, b) = (org(&store, "A").await, org(&store, "B").await);
    let user = |org_id: &str, email: &str| User {
        id: IdKind::User.generate(),
        org_id: org_id.to_owned(),
        email: email.to_owned(),
        name: None,
        role: Role::Maker,
        created_at: Timestamp::now(),
        disabled_at: None,
        language: None,
        must_set_password: false,
    };
    let amara = user(&a.id, "amara@example.ht");
    store.create_user(&amara, "$argon2id$hash", &cli()).await.unwrap();
    let taken = store.create_user(&user(&b.id, "amara@example.ht"), "h", &cli()).await;
    assert!(matches!(taken, Err(StoreError::Conflict(_))), "one user per email, across organizations: {taken:?}");
    let nowhere = store.create_user(&user("org_missing", "x@example.ht"), "h", &cli()).await;
    assert!(nowhere.is_err(), "a user belongs to an organization that exists");
    store.create_user(&user(&b.id, "jn@example.ht"), "h2", &cli()).await.unwrap();
    assert_eq!(store.list_users(Some(&a.id)).await.unwrap(), std::slice::from_ref(&amara));
    assert_eq!(store.list_users(None).await.unwrap().len(), 2);
    let (found, hash) = store.user_by_email("amara@example.ht").await.unwrap().unwrap();
    assert_eq!((found, hash.as_str()), (amara.clone(), "$argon2id$hash"));
    assert!(store.user_by_email("nobody@example.ht").await.unwrap().is_none());
    let at = Timestamp::now();
    let disabled = store.disable_user("amara@example.ht", at, &cli()).await.unwrap();
    assert_eq!(disabled.disabled_at.map(|t| t.as_millis()), Some(at.as_millis()));
    let admin = Actor::User("usr_admin".into());
    let again = store.disable_user("amara@example.ht", at.plus_millis(5_000), &admin).await.unwrap();
    assert_eq!(again.disabled_at, disabled.disabled_at, "disabling twice keeps the first time");
    assert!(matches!(store.disable_user("nobody@example.ht", at, &cli()).await, Err(StoreError::NotFound)));

    let trail = store.list_access_changes(&a.id, 10).await.unwrap();
    let lines: Vec<(&str, &Actor, &str, &str)> =
        trail.iter().map(|c| (c.action.as_str(), &c.actor, c.subject_id.as_str(), c.subject.as_str())).collect();
    assert_eq!(
        lines,
        [
            ("user.disabled", &cli(), amara.id.as_str(), "amara@example.ht (maker)"),
            ("user.created", &cli(), amara.id.as_str(), "amara@example.ht (maker)"),
        ],
        "newest first; the second disabling changed nothing and is not recorded"
    );
    assert_eq!(trail[0].at.as_millis(), at.as_millis());
    assert_eq!(store.list_access_changes(&b.id, 10).await.unwrap().len(), 1, "each organization its own");
    assert_eq!(store.list_access_changes(&a.id, 1).await.unwrap().len(), 1, "at most the limit");

    store.set_user_language(&amara.id, Some("fr")).await.unwrap();
    let (found, _) = store.user_by_email("amara@example.ht").await.unwrap().unwrap();
    assert_eq!(found.language.as_deref(), Some("fr"), "the chosen language is kept");
    store.set_user_language(&amara.id, None).await.unwrap();
    assert_eq!(store.user_by_email("amara@example.ht").await.unwrap().unwrap().0.language, None);
    assert!(matches!(store.set_user_language("usr_nope", Some("fr")).await, Err(StoreError::NotFound)));
});

contract!(a_clients_verification_is_kept_as_sealed_and_can_be_removed, |store| {
    let o = org(&store, "Acme").await;
    let t = tenant(&o, Environment::Test);
    let sealed =
        Verification { kind: VerificationKind::DateOfBirth, hash: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aA".into() };
    let c = Client { verification: Some(sealed.clone()), ..new_client("Marie") };
    let created = NewEvent { event_type: "client.created", object: serde_json::json!({ "id": c.id }) };
    store.create_client(&t, &c, &created, None).await.unwrap();
    let read = store.get_client(&t, &c.id).await.unwrap().unwrap();
    assert_eq!(read.verification, Some(sealed.clone()), "the kind and the hash, as sealed");
    let ev = |c: &Client| NewEvent { event_type: "client.updated", object: serde_json::json!({ "id": c.id }) };
    let removed = ClientPatch { verification: Some(None), ..Default::default() };
    let (updated, _) =
        store.update_client(&t, &c.id, &removed, WaitingPayouts::default(), Timestamp::now(), &ev).await.unwrap();
    assert_eq!(updated.verification, None);
    assert_eq!(store.get_client(&t, &c.id).await.unwrap().unwrap().verification, None, "removed for good");
    let asked_again = ClientPatch { verification: Some(Some(sealed.clone())), ..Default::default() };
    let (again, _) =
        store.update_client(&t, &c.id, &asked_again, WaitingPayouts::default(), Timestamp::now(), &ev).await.unwrap();
    assert_eq!(again.verification, Some(sealed));
});
