//! Wallet authentication: one sandbox signing key whoever asks first, and a SEP-10 challenge
//! exchanged once, its hash forgotten once it has expired.

use lajan_domain::Timestamp;
use lajan_store::contract;

contract!(the_sandbox_signing_key_is_made_once, |store| {
    let now = Timestamp::now();
    let first = store.sandbox_signing_seed("SFIRST", now).await.unwrap();
    let second = store.sandbox_signing_seed("SSECOND", now).await.unwrap();
    assert_eq!((first.as_str(), second.as_str()), ("SFIRST", "SFIRST"));
});

contract!(a_challenge_is_spent_once_and_forgotten_after_it_expires, |store| {
    let now = Timestamp::now();
    let expires = now.plus_millis(900_000);
    assert!(store.spend_challenge("aa", expires, now).await.unwrap(), "first exchange");
    assert!(!store.spend_challenge("aa", expires, now).await.unwrap(), "a replay is refused");
    assert!(store.spend_challenge("bb", expires, now).await.unwrap(), "another challenge is its own");
    // Once both have expired, spending another forgets them, so the table stays small; an
    // expired challenge never reaches the store (the signature check refuses it first).
    let later = expires.plus_millis(1);
    assert!(store.spend_challenge("cc", later.plus_millis(900_000), later).await.unwrap());
    assert!(store.spend_challenge("aa", later.plus_millis(900_000), later).await.unwrap(), "forgotten");
});
