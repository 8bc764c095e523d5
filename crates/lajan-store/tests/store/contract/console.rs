//! Console sign-ins and sessions: the lockout counted under a lock, a session opened with its
//! successful sign-in, found by digest, switched, touched and ended.

use lajan_domain::console::{LOCKOUT_MS, SignIn, SignInOutcome};
use lajan_domain::id::IdKind;
use lajan_domain::user::{Role, User};
use lajan_domain::{Environment, Timestamp};
use lajan_store::contract;
use lajan_store::{NewSession, Store, StoreError};
use std::sync::Arc;

async fn user(store: &Arc<dyn Store>, email: &str) -> User {
    let org = lajan_store::testing::organization(store, "Acme").await;
    let user = User {
        id: IdKind::User.generate(),
        org_id: org.id,
        email: email.to_owned(),
        name: None,
        role: Role::Viewer,
        created_at: Timestamp::now(),
        disabled_at: None,
        language: None,
        must_set_password: false,
    };
    store.create_user(&user, "$argon2id$hash", &crate::contract::cli()).await.unwrap();
    user
}

fn attempt(user: &User, at: Timestamp) -> SignIn {
    SignIn {
        id: IdKind::SignIn.generate(),
        email: user.email.clone(),
        user_id: Some(user.id.clone()),
        org_id: Some(user.org_id.clone()),
        outcome: SignInOutcome::Pending,
        at,
        client_address: None,
        refusals: 1,
    }
}

fn from(address: &str, attempt: SignIn) -> SignIn {
    SignIn { client_address: Some(address.into()), ..attempt }
}

fn new_session(digest: &str) -> NewSession {
    NewSession { token_digest: digest.into(), environment: Environment::Test, csrf: "csrf-1".into() }
}

contract!(five_failures_lock_an_email_and_a_success_clears_them, |store| {
    let amara = user(&store, "amara@example.ht").await;
    let t0 = Timestamp::now();
    for i in 0..5 {
        let a = attempt(&amara, t0.plus_millis(i));
        assert_eq!(store.start_sign_in(&a).await.unwrap(), None, "attempt {i} may try");
        store.finish_sign_in(&a.id, SignInOutcome::Failed, None).await.unwrap();
    }
    let sixth = attempt(&amara, t0.plus_millis(10));
    assert_eq!(store.start_sign_in(&sixth).await.unwrap(), Some(t0.plus_millis(4 + LOCKOUT_MS)));
    assert!(
        matches!(store.finish_sign_in(&sixth.id, SignInOutcome::Succeeded, None).await, Err(StoreError::NotFound)),
        "a locked attempt is not pending: nothing may finish it"
    );
    let listed = store.list_sign_ins(&amara.org_id, 10).await.unwrap();
    let outcomes: Vec<SignInOutcome> = listed.iter().map(|s| s.outcome).collect();
    assert_eq!(outcomes[0], SignInOutcome::Locked, "newest first");
    assert_eq!(outcomes[1..], [SignInOutcome::Failed; 5]);
    assert!(store.list_sign_ins("org_other", 10).await.unwrap().is_empty());

    // After the lockout, one success clears the count.
    let later = t0.plus_millis(LOCKOUT_MS + 5);
    let ok = attempt(&amara, later);
    assert_eq!(store.start_sign_in(&ok).await.unwrap(), None);
    store.finish_sign_in(&ok.id, SignInOutcome::Succeeded, Some(&new_session("d-1"))).await.unwrap();
    for i in 0..4 {
        let a = attempt(&amara, later.plus_millis(1 + i));
        assert_eq!(store.start_sign_in(&a).await.unwrap(), None, "failures before the success no longer count");
        store.finish_sign_in(&a.id, SignInOutcome::Failed, None).await.unwrap();
    }
});

contract!(failures_are_counted_per_client_address_across_emails, |store| {
    use lajan_domain::console::{ADDRESS_FAILURES, ADDRESS_WINDOW_MS};
    let amara = user(&store, "amara@example.ht").await;
    let t0 = Timestamp::now();
    for i in 0..ADDRESS_FAILURES {
        let stranger = User { email: format!("staff{i}@example.ht"), ..amara.clone() };
        let a = from("198.51.100.7", attempt(&stranger, t0.plus_millis(i as i64)));
        assert_eq!(store.start_sign_in(&a).await.unwrap(), None, "guess {i}");
        store.finish_sign_in(&a.id, SignInOutcome::Failed, None).await.unwrap();
    }
    let sprayed = from("198.51.100.7", attempt(&amara, t0.plus_millis(100)));
    assert_eq!(store.start_sign_in(&sprayed).await.unwrap(), Some(t0.plus_millis(ADDRESS_WINDOW_MS)), "the address");
    let elsewhere = from("198.51.100.8", attempt(&amara, t0.plus_millis(101)));
    assert_eq!(store.start_sign_in(&elsewhere).await.unwrap(), None, "another address");
    store.finish_sign_in(&elsewhere.id, SignInOutcome::Failed, None).await.unwrap();
    let listed = store.list_sign_ins(&amara.org_id, 1).await.unwrap();
    assert_eq!(listed[0].client_address.as_deref(), Some("198.51.100.8"), "kept with the attempt");

    // Amara's email locked by one address; another that has not failed lately is let through.
    let bob = user(&store, "bob@example.ht").await;
    for i in 0..5 {
        let a = from("203.0.113.66", attempt(&bob, t0.plus_millis(200 + i)));
        store.start_sign_in(&a).await.unwrap();
        store.finish_sign_in(&a.id, SignInOutcome::Failed, None).await.unwrap();
    }
    let locked = Some(t0.plus_millis(204 + LOCKOUT_MS));
    let guesser = from("203.0.113.66", attempt(&bob, t0.plus_millis(300)));
    assert_eq!(store.start_sign_in(&guesser).await.unwrap(), locked);
    assert_eq!(store.start_sign_in(&attempt(&bob, t0.plus_millis(301))).await.unwrap(), locked, "an unknown address");
    let owner = from("192.0.2.44", attempt(&bob, t0.plus_millis(302)));
    assert_eq!(store.start_sign_in(&owner).await.unwrap(), None, "the owner's clean address");
});

/// Starts `attempts` at once, once the pool's connections are open (so they overlap rather than
/// queue for connections being opened one by one); how many were let check a password.
async fn allowed_at_once(store: &Arc<dyn Store>, attempts: Vec<SignIn>) -> usize {
    let reads = (0..32).map(|_| {
        let store = store.clone();
        tokio::spawn(async move { store.list_sign_ins("org_none", 1).await.unwrap() })
    });
    for read in reads.collect::<Vec<_>>() {
        read.await.unwrap();
    }
    let tries: Vec<_> = attempts
        .into_iter()
        .map(|a| {
            let store = store.clone();
            tokio::spawn(async move { store.start_sign_in(&a).await.unwrap() })
        })
        .collect();
    let mut allowed = 0;
    for t in tries {
        if t.await.unwrap().is_none() {
            allowed += 1;
        }
    }
    allowed
}

contract!(parallel_attempts_are_counted_one_after_another, |store| {
    let amara = user(&store, "amara@example.ht").await;
    let at = Timestamp::now();
    let allowed = allowed_at_once(&store, (0..40).map(|_| attempt(&amara, at)).collect()).await;
    assert_eq!(allowed, 5, "pending attempts count: forty at once let five check a password");
});

contract!(a_session_is_found_by_its_digest_until_it_ends, |store| {
    let amara = user(&store, "amara@example.ht").await;
    let at = Timestamp::now();
    let a = attempt(&amara, at);
    store.start_sign_in(&a).await.unwrap();
    store.finish_sign_in(&a.id, SignInOutcome::Succeeded, Some(&new_session("digest-1"))).await.unwrap();
    let s = store.session("digest-1").await.unwrap().expect("the session");
    assert_eq!((s.user.clone(), s.environment, s.csrf.as_str()), (amara.clone(), Environment::Test, "csrf-1"));
    assert_eq!((s.created_at, s.last_seen_at), (at, at));
    assert!(store.session("digest-2").await.unwrap().is_none());

    store.touch_session("digest-1", at.plus_millis(60_000)).await.unwrap();
    store.touch_session("digest-1", at.plus_millis(30_000)).await.unwrap();
    store.switch_session_environment("digest-1", Environment::Live).await.unwrap();
    let s = store.session("digest-1").await.unwrap().unwrap();
    assert_eq!((s.last_seen_at, s.environment), (at.plus_millis(60_000), Environment::Live), "never moved back");

    store.disable_user(&amara.email, at.plus_millis(1), &crate::contract::cli()).await.unwrap();
    let s = store.session("digest-1").await.unwrap().unwrap();
    assert!(s.user.disabled_at.is_some() && !s.is_live(at.plus_millis(2)), "the user as now stored");

    store.end_session("digest-1", at.plus_millis(2)).await.unwrap();
    store.end_session("digest-1", at.plus_millis(3)).await.unwrap();
    assert!(store.session("digest-1").await.unwrap().is_none());
});

contract!(parallel_attempts_from_one_address_are_counted_exactly_across_emails, |store| {
    use lajan_domain::console::ADDRESS_FAILURES;
    let amara = user(&store, "amara@example.ht").await;
    let at = Timestamp::now();
    // Each at another email, so no user's row lock orders them: only the address does.
    let attempts = (0..40)
        .map(|i| {
            let stranger = User { email: format!("staff{i}@example.ht"), ..amara.clone() };
            from("198.51.100.9", attempt(&stranger, at))
        })
        .collect();
    let allowed = allowed_at_once(&store, attempts).await;
    assert_eq!(allowed, ADDRESS_FAILURES, "forty at once from one address let exactly the limit through");
});

contract!(refusals_of_one_lock_are_counted_on_one_record, |store| {
    use lajan_domain::console::{ADDRESS_FAILURES, SIGN_IN_RETENTION_MS};
    let amara = user(&store, "amara@example.ht").await;
    let t0 = Timestamp::now();
    for i in 0..5 {
        let a = from("203.0.113.66", attempt(&amara, t0.plus_millis(i)));
        store.start_sign_in(&a).await.unwrap();
        store.finish_sign_in(&a.id, SignInOutcome::Failed, None).await.unwrap();
    }
    // Her email is locked: a hundred refusals, from the guesser or an unknown address, are one record.
    for i in 0..100 {
        let guess = attempt(&amara, t0.plus_millis(10 + i));
        let refused = if i % 2 == 0 { from("203.0.113.66", guess) } else { guess };
        assert!(store.start_sign_in(&refused).await.unwrap().is_some(), "refusal {i}");
    }
    let listed = store.list_sign_ins(&amara.org_id, 50).await.unwrap();
    assert_eq!(listed.len(), 6, "five failures and one lock: {listed:?}");
    assert_eq!((listed[0].outcome, listed[0].refusals), (SignInOutcome::Locked, 100));

    // An address refused for spraying: its refusals, at any email, go on its own record.
    for i in 0..ADDRESS_FAILURES {
        let stranger = User { email: format!("staff{i}@example.ht"), ..amara.clone() };
        let a = from("192.0.2.99", attempt(&stranger, t0.plus_millis(200 + i as i64)));
        store.start_sign_in(&a).await.unwrap();
        store.finish_sign_in(&a.id, SignInOutcome::Failed, None).await.unwrap();
    }
    let bob = user(&store, "bob@example.ht").await;
    for i in 0..50 {
        let email = if i == 0 { bob.clone() } else { User { email: format!("x{i}@example.ht"), ..bob.clone() } };
        assert!(
            store.start_sign_in(&from("192.0.2.99", attempt(&email, t0.plus_millis(300 + i)))).await.unwrap().is_some()
        );
    }
    let bobs = store.list_sign_ins(&bob.org_id, 50).await.unwrap();
    let locked: Vec<_> = bobs.iter().filter(|s| s.client_address.as_deref() == Some("192.0.2.99")).collect();
    assert_eq!(locked.len(), 1, "{bobs:?}");
    assert_eq!((locked[0].outcome, locked[0].refusals), (SignInOutcome::Locked, 50));

    // Attempts older than the retention are pruned.
    let carl = user(&store, "carl@example.ht").await;
    let old = attempt(&carl, t0.plus_millis(-SIGN_IN_RETENTION_MS - 1));
    let recent = attempt(&carl, t0.plus_millis(-SIGN_IN_RETENTION_MS + 60_000));
    for a in [&old, &recent] {
        store.start_sign_in(a).await.unwrap();
    }
    assert_eq!(store.list_sign_ins(&carl.org_id, 50).await.unwrap().len(), 2);
    assert!(store.purge_expired(t0).await.unwrap() >= 1);
    let kept: Vec<String> = store.list_sign_ins(&carl.org_id, 50).await.unwrap().into_iter().map(|s| s.id).collect();
    assert_eq!(kept, std::slice::from_ref(&recent.id), "only the older than the retention is pruned");
});
