//! Wallet deposits: read only by the account and memo they are for, listed newest first with
//! the SEP's filters and paging, unfinished ones forgotten a day after their link expired; a
//! deposit's page keeps its own checks, and counts one contact's codes across pages.

use lajan_domain::id::IdKind;
use lajan_domain::invitation::{Invitation, RegistrationChecks};
use lajan_domain::wallet_deposit::{LINK_TTL_MS, WalletDeposit};
use lajan_domain::{Environment, Invalid, Timestamp};
use lajan_store::{CodeSend, DepositChange, DepositCode, DepositQuery, contract};

fn deposit(account: &str, memo: Option<u64>, asset: &str, at: Timestamp) -> WalletDeposit {
    WalletDeposit {
        id: IdKind::WalletDeposit.generate(),
        env: Environment::Test,
        account: account.into(),
        memo,
        asset_code: asset.into(),
        lang: "ht".into(),
        started_at: at,
        updated_at: at,
        link_expires_at: at.plus_millis(LINK_TTL_MS),
        registered_at: None,
        payout: None,
    }
}

contract!(a_deposit_is_read_by_its_own_account_and_memo_only, |store| {
    let now = Timestamp::now();
    let mine = deposit("GA", None, "USDC", now);
    let shared = deposit("GA", Some(u64::MAX), "USDC", now.plus_millis(1));
    let later = deposit("GA", None, "HTG", now.plus_millis(2));
    for (d, link) in [(&mine, "h1"), (&shared, "h2"), (&later, "h3")] {
        assert!(store.start_wallet_deposit(d, link, 20).await.unwrap());
    }
    let read = store.wallet_deposit(Environment::Test, "GA", None, &mine.id).await.unwrap();
    assert_eq!(read.as_ref(), Some(&mine));
    assert!(store.wallet_deposit(Environment::Test, "GB", None, &mine.id).await.unwrap().is_none(), "another account");
    assert!(store.wallet_deposit(Environment::Live, "GA", None, &mine.id).await.unwrap().is_none(), "another network");
    assert!(store.wallet_deposit(Environment::Test, "GA", Some(1), &mine.id).await.unwrap().is_none(), "another user");
    assert_eq!(
        store.wallet_deposit(Environment::Test, "GA", Some(u64::MAX), &shared.id).await.unwrap(),
        Some(shared.clone())
    );

    let list = async |q: DepositQuery<'_>| {
        let found = store.wallet_deposits(Environment::Test, "GA", None, &q).await.unwrap();
        found.into_iter().map(|d| d.id).collect::<Vec<_>>()
    };
    let (later_id, mine_id) = (later.id.as_str(), mine.id.as_str());
    assert_eq!(list(DepositQuery { limit: 10, ..Default::default() }).await, [later_id, mine_id]);
    assert_eq!(list(DepositQuery { limit: 1, ..Default::default() }).await, [later_id]);
    assert_eq!(list(DepositQuery { asset_code: Some("USDC"), limit: 10, ..Default::default() }).await, [mine_id]);
    let since = Some(now.plus_millis(1));
    assert_eq!(list(DepositQuery { no_older_than: since, limit: 10, ..Default::default() }).await, [later_id]);
    let before = DepositQuery { before_id: Some(later_id), limit: 10, ..Default::default() };
    assert_eq!(list(before).await, [mine_id]);
    assert_eq!(store.open_wallet_deposits(now, 100).await.unwrap(), 3);
    assert_eq!(store.open_wallet_deposits(now, 2).await.unwrap(), 2, "counted up to the cap");

    // A day after their links expired, unfinished deposits are forgotten as new ones start.
    let next_day = now.plus_millis(LINK_TTL_MS + 86_400_000 + 10);
    assert!(store.start_wallet_deposit(&deposit("GC", None, "USDC", next_day), "h4", 20).await.unwrap());
    assert!(store.wallet_deposit(Environment::Test, "GA", None, &mine.id).await.unwrap().is_none());
    assert_eq!(store.open_wallet_deposits(next_day, 100).await.unwrap(), 1);
});

contract!(an_account_holds_a_bounded_number_of_open_deposits, |store| {
    let now = Timestamp::now();
    // Started at once, they are counted one after another: exactly the cap is stored.
    let starts: Vec<_> = (0..12)
        .map(|i| {
            let store = store.clone();
            let memo = (i % 2 == 0).then_some(i);
            let d = deposit("GD", memo, "USDC", now.plus_millis(i as i64));
            tokio::spawn(async move { store.start_wallet_deposit(&d, &format!("cap{i}"), 5).await.unwrap() })
        })
        .collect();
    let mut started = 0;
    for s in starts {
        started += usize::from(s.await.unwrap());
    }
    assert_eq!(started, 5, "five of twelve, whatever the memo");
    assert!(
        store.start_wallet_deposit(&deposit("GE", None, "USDC", now), "other", 5).await.unwrap(),
        "another account"
    );
    // Once their links expired, the account may start again.
    let later = now.plus_millis(LINK_TTL_MS + 20);
    assert!(store.start_wallet_deposit(&deposit("GD", None, "USDC", later), "again", 5).await.unwrap());
});

/// A code for contact `contact` on deposit `id`'s page, bound to `receiver`.
fn code<'a>(contact: &'a str, receiver: Option<(&'a lajan_domain::Tenant, &'a str)>, new: bool) -> DepositCode<'a> {
    DepositCode { contact_hash: contact, receiver, code_hash: "code", message: None, new_contact: new }
}

contract!(a_deposit_page_counts_contacts_binds_a_receiver_once_and_registers, |store| {
    let now = Timestamp::now();
    let d = deposit("GA", Some(7), "USDC", now);
    assert!(store.start_wallet_deposit(&d, "link", 20).await.unwrap());
    let opened = store.wallet_deposit_by_link("link").await.unwrap().unwrap();
    assert_eq!((opened.deposit, opened.receiver, opened.contact_tries), (d.clone(), None, 0));
    assert_eq!((opened.checks, opened.contact_hash), (RegistrationChecks::default(), None));
    assert!(store.wallet_deposit_by_link("other").await.unwrap().is_none());
    assert!(store.invited_by_contact(Environment::Test, Some("+50937009999"), None).await.unwrap().is_none());

    let org = lajan_store::testing::organization(&store, "Acme").await;
    let tenant = lajan_domain::Tenant::new(org.id.clone(), Environment::Test);
    assert_eq!(store.send_deposit_code(&d.id, code("c1", None, true), now).await.unwrap(), CodeSend::Sent);
    store.send_deposit_code(&d.id, code("c1", Some((&tenant, "cli_1")), true), now).await.unwrap_err();
    let opened = store.wallet_deposit_by_link("link").await.unwrap().unwrap();
    assert_eq!((opened.receiver, opened.contact_tries), (None, 1), "a client that does not exist is never bound");
    assert_eq!((opened.checks.code_hash.as_deref(), opened.contact_hash.as_deref()), (Some("code"), Some("c1")));
    assert_eq!(
        store.send_deposit_code(&d.id, code("c1", None, false), now.plus_millis(1_000)).await.unwrap(),
        CodeSend::TooSoon(60),
        "one code a minute on a page"
    );

    // A step changes the page's checks; the contact's wrong codes today are summed across pages.
    let seen = std::sync::Mutex::new(Vec::new());
    let wrong = |c: &mut RegistrationChecks, i: Option<&mut Invitation>, today: i64| -> Result<bool, Invalid> {
        seen.lock().unwrap().push((today, i.is_some()));
        c.code_tries += 1;
        Ok(false)
    };
    for _ in 0..2 {
        store.deposit_step(&d.id, now, DepositChange { change: &wrong, event: None }).await.unwrap();
    }
    let other = deposit("GA", Some(7), "USDC", now);
    assert!(store.start_wallet_deposit(&other, "link2", 20).await.unwrap());
    store.send_deposit_code(&other.id, code("c1", None, true), now).await.unwrap();
    let (checks, invitation) =
        store.deposit_step(&other.id, now, DepositChange { change: &wrong, event: None }).await.unwrap();
    assert_eq!((checks.code_tries, invitation), (1, None));
    assert_eq!(*seen.lock().unwrap(), [(0, false), (1, false), (2, false)]);

    // Five codes an hour for one contact, every page together; a new contact still counts.
    for _ in 0..3 {
        store.send_deposit_code(&other.id, code("c1", None, true), now).await.unwrap();
    }
    assert_eq!(store.send_deposit_code(&other.id, code("c1", None, true), now).await.unwrap(), CodeSend::ContactBusy);
    assert_eq!(store.wallet_deposit_by_link("link2").await.unwrap().unwrap().contact_tries, 5);
    assert_eq!(store.send_deposit_code(&other.id, code("c2", None, true), now).await.unwrap(), CodeSend::Sent);

    store.register_wallet_deposit(&d.id, None, now.plus_millis(5)).await.unwrap();
    let registered = store.wallet_deposit_by_link("link").await.unwrap().unwrap().deposit;
    assert_eq!((registered.registered_at, registered.payout), (Some(now.plus_millis(5)), None));
    assert_eq!(store.send_deposit_code(&d.id, code("c1", None, true), now).await.unwrap(), CodeSend::Gone);
    assert_eq!(
        store.wallet_deposit_by_link("link").await.unwrap().unwrap().contact_tries,
        1,
        "registered: no more contacts"
    );
});
