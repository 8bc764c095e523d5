//! Settings changes: recorded with the update that makes them, the approvers counted in its
//! transaction, one change waiting per environment (a later policy change replaces it, lapsed
//! ones read as lapsed), and a decision stored with the settings it applies and its events.

use lajan_domain::client::Language;
use lajan_domain::id::IdKind;
use lajan_domain::receiver::RecommendedWallet;
use lajan_domain::settings::Settings;
use lajan_domain::settings_change::{CONFIRM_WITHIN_MS, ChangeStatus, Provenance, SettingsChange};
use lajan_domain::user::{Role, User};
use lajan_domain::{Actor, Environment, Invalid, Tenant, Timestamp};
use lajan_store::contract;
use lajan_store::{EventQuery, NewEvent, SettingsDecision, StoreError};

/// Approval off, with receiver settings off their defaults so a change keeps those too.
fn relaxed() -> Settings {
    let mut after = Settings { payout_approval_required: false, ..Settings::default() };
    after.receivers.default_client_language = Language::En;
    after.receivers.invitation_resends = 0;
    after.invoicing.allow_partial_payments = false;
    after.receivers.recommended_wallets = vec![RecommendedWallet {
        name: "Vibrant".into(),
        url: "https://vibrantapp.com".into(),
        assets: vec![],
        deep_link: Some("https://vibrantapp.com/sdp".into()),
    }];
    after
}

fn relaxing(tenant: &Tenant, by: &Actor, at: Timestamp, status: ChangeStatus) -> SettingsChange {
    SettingsChange {
        id: IdKind::SettingsChange.generate(),
        env: tenant.env,
        requested_by: by.clone(),
        requested_at: at,
        before: Settings::default(),
        after: relaxed(),
        status,
        expires_at: (status == ChangeStatus::Pending).then(|| at.plus_millis(CONFIRM_WITHIN_MS)),
        decided_by: None,
        decided_at: None,
    }
}

fn event(event_type: &'static str) -> NewEvent {
    NewEvent { event_type, object: serde_json::json!({}) }
}

contract!(settings_changes_wait_for_a_second_person_and_are_recorded, |store| {
    let org = lajan_store::testing::organization(&store, "Acme").await;
    let t = Tenant::new(org.id.clone(), Environment::Live);
    let asker = Actor::User("usr_asker".into());
    let seen = std::sync::Mutex::new(Vec::new());
    let ask = |status: ChangeStatus, at: Timestamp| {
        let change = relaxing(&t, &asker, at, status);
        let (seen, change) = (&seen, change);
        move |current: &Settings, approvers: u32| {
            seen.lock().unwrap().push(approvers);
            Ok(SettingsDecision {
                settings: current.clone(),
                changes: vec![change.clone()],
                events: vec![event("settings.change_requested")],
            })
        }
    };
    // No one yet: the organization has neither approving users nor keys.
    let t0 = Timestamp::now();
    store.update_settings(&t, &ask(ChangeStatus::Pending, t0), t0).await.unwrap();
    let first = store.pending_settings_change(&t, t0).await.unwrap().expect("waiting");
    // An approver, a viewer and a disabled admin; a live key that approves, a sandbox one.
    for (email, role, disabled) in
        [("a@x.ht", Role::Approver, false), ("v@x.ht", Role::Viewer, false), ("d@x.ht", Role::Admin, true)]
    {
        let user = User {
            id: IdKind::User.generate(),
            org_id: org.id.clone(),
            email: email.into(),
            name: None,
            role,
            created_at: t0,
            disabled_at: disabled.then_some(t0),
            language: None,
            must_set_password: false,
        };
        store.create_user(&user, "$argon2id$hash", &crate::contract::cli()).await.unwrap();
    }
    store
        .create_api_key(&crate::contract::new_key(&org.id, Environment::Live, "h-live"), &crate::contract::cli())
        .await
        .unwrap();
    store
        .create_api_key(&crate::contract::new_key(&org.id, Environment::Test, "h-test"), &crate::contract::cli())
        .await
        .unwrap();
    let t1 = t0.plus_millis(1);
    store.update_settings(&t, &ask(ChangeStatus::Pending, t1), t1).await.unwrap();
    assert_eq!(*seen.lock().unwrap(), [0, 2], "the approver and the live key");
    let second = store.pending_settings_change(&t, t1).await.unwrap().expect("waiting");
    assert_ne!(second.id, first.id, "the later change replaced the earlier");
    let replaced = store.get_settings_change(&t, &first.id).await.unwrap().unwrap();
    assert_eq!(replaced.status, ChangeStatus::Superseded);
    assert_eq!(
        store.get_settings_change(&Tenant::new(org.id.clone(), Environment::Test), &second.id).await.unwrap(),
        None
    );

    // A decision applies under the settings' lock, with its events; a refusal changes nothing.
    let confirmer = Actor::ApiKey("key_other".into());
    let refuse = |_: &mut SettingsChange, _: &Settings, _: Option<&Provenance>| Err(Invalid::new("conflict", "no"));
    let refused = store.decide_settings_change(&t, &second.id, &refuse, t1, None).await;
    assert!(matches!(refused, Err(StoreError::Rejected(_))), "{refused:?}");
    let missing = store.decide_settings_change(&t, "stc_nope", &refuse, t1, None).await;
    assert!(matches!(missing, Err(StoreError::NotFound)), "{missing:?}");
    let confirm = |change: &mut SettingsChange, current: &Settings, provenance: Option<&Provenance>| {
        let next = change.confirm(&confirmer, provenance, t1, current).map_err(|_| Invalid::new("conflict", "no"))?;
        Ok((Some(next), vec![event("settings.updated")]))
    };
    let decided = store.decide_settings_change(&t, &second.id, &confirm, t1, None).await.unwrap();
    assert_eq!((decided.status, decided.decided_by.as_ref()), (ChangeStatus::Confirmed, Some(&confirmer)));
    assert!(!store.get_settings(&t).await.unwrap().payout_approval_required, "applied");
    assert_eq!(store.get_settings_change(&t, &second.id).await.unwrap(), Some(decided));
    assert_eq!(store.pending_settings_change(&t, t1).await.unwrap(), None);
    let events = store.list_events(&t, &EventQuery::default()).await.unwrap();
    assert_eq!(events.total, 3, "two requests and the confirmation");

    // A change nobody confirms lapses: read as absent after its expiry, recorded as lapsed when
    // a later one takes its place.
    let t2 = t1.plus_millis(1);
    store.update_settings(&t, &ask(ChangeStatus::Pending, t2), t2).await.unwrap();
    let third = store.pending_settings_change(&t, t2).await.unwrap().unwrap();
    let late = t2.plus_millis(CONFIRM_WITHIN_MS);
    assert_eq!(store.pending_settings_change(&t, late).await.unwrap(), None);
    store.update_settings(&t, &ask(ChangeStatus::Unconfirmed, late), late).await.unwrap();
    assert_eq!(store.get_settings_change(&t, &third.id).await.unwrap().unwrap().status, ChangeStatus::Lapsed);

    let trail = store.list_settings_changes(&org.id, 10).await.unwrap();
    let statuses: Vec<ChangeStatus> = trail.iter().map(|c| c.status).collect();
    use ChangeStatus::{Confirmed, Lapsed, Superseded, Unconfirmed};
    assert_eq!(statuses, [Unconfirmed, Lapsed, Confirmed, Superseded], "newest first");
    assert_eq!(trail[0].after, relaxed(), "read back whole");
    assert_eq!(store.list_settings_changes(&org.id, 1).await.unwrap().len(), 1);
});
