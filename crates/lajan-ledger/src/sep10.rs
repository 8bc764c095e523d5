//! SEP-10 web authentication, the service's side: the challenge transaction a wallet signs to
//! prove it holds an account. Built as the SEP shapes it (and the official SDKs check it):
//! sequence 0, time bounds, a `manage_data` operation from the client's account named
//! `<home domain> auth` holding a random nonce, one from the service's account naming the web
//! auth domain, signed by the service's signing key; and, when the wallet names the domain it
//! is served from, one from that domain's `SIGNING_KEY` naming it (`client_domain`), which the
//! wallet's own server signs. It is never submitted: sequence 0 cannot apply on any network.
//! And the check of the challenge the wallet sends back signed.

use crate::stellar::{LedgerError, SignedTx, account_key, sign, xdr_err};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use secrecy::SecretString;
use stellar_xdr::{
    DataValue, ManageDataOp, Memo, MuxedAccount, Operation, OperationBody, Preconditions, SequenceNumber, String64,
    StringM, TimeBounds, TimePoint, Transaction, TransactionExt, Uint256,
};

/// How long a wallet has to sign and return a challenge, as the official SDKs default to.
pub const CHALLENGE_TTL_SECS: u64 = 900;

/// What a challenge is for.
pub struct ChallengeRequest<'a> {
    pub network_passphrase: &'a str,
    /// The service's signing seed (its `SIGNING_KEY`'s).
    pub signing_seed: &'a SecretString,
    /// The service's account (the signing key's), the transaction's source.
    pub server_account: &'a str,
    /// The `G...` account the wallet proves it holds.
    pub client_account: &'a str,
    /// An id memo naming one user of a shared account, when the wallet asked with one.
    pub memo: Option<u64>,
    pub home_domain: &'a str,
    pub web_auth_domain: &'a str,
    /// Unix seconds.
    pub now: u64,
    /// 48 random bytes: their base64 is the 64-byte value the SEP asks for.
    pub nonce: [u8; 48],
    /// The wallet's domain and the `SIGNING_KEY` its `stellar.toml` names, when it gave one.
    pub client_domain: Option<ClientDomain<'a>>,
}

/// The domain a wallet is served from, and the account its `stellar.toml` signs with.
#[derive(Debug, Clone, Copy)]
pub struct ClientDomain<'a> {
    pub domain: &'a str,
    pub signing_account: &'a str,
}

/// The data name of the operation naming the wallet's domain.
const CLIENT_DOMAIN: &[u8] = b"client_domain";

/// The signed challenge, ready to send to the wallet.
pub fn build_challenge(r: &ChallengeRequest<'_>) -> Result<SignedTx, LedgerError> {
    let client = MuxedAccount::Ed25519(account_key("account", r.client_account)?);
    let server = MuxedAccount::Ed25519(account_key("server_account", r.server_account)?);
    let data = |source: MuxedAccount, name: String, value: Vec<u8>| -> Result<Operation, LedgerError> {
        let name: String64 = StringM::try_from(name.into_bytes()).map_err(xdr_err)?.into();
        let value = DataValue(value.try_into().map_err(xdr_err)?);
        Ok(Operation {
            source_account: Some(source),
            body: OperationBody::ManageData(ManageDataOp { data_name: name, data_value: Some(value) }),
        })
    };
    let mut operations = vec![
        data(client, format!("{} auth", r.home_domain), STANDARD.encode(r.nonce).into_bytes())?,
        data(server.clone(), "web_auth_domain".to_owned(), r.web_auth_domain.as_bytes().to_vec())?,
    ];
    if let Some(wallet) = r.client_domain {
        let source = MuxedAccount::Ed25519(account_key("client_domain signing key", wallet.signing_account)?);
        operations.push(data(source, "client_domain".to_owned(), wallet.domain.as_bytes().to_vec())?);
    }
    let transaction = Transaction {
        source_account: server,
        // 100 stroops an operation, as the SDKs build it; never charged, since it never applies.
        fee: 100 * u32::try_from(operations.len()).map_err(|_| LedgerError::Xdr("too many operations".into()))?,
        seq_num: SequenceNumber(0),
        cond: Preconditions::Time(TimeBounds {
            min_time: TimePoint(r.now),
            max_time: TimePoint(r.now + CHALLENGE_TTL_SECS),
        }),
        memo: r.memo.map_or(Memo::None, Memo::Id),
        operations: operations.try_into().map_err(xdr_err)?,
        ext: TransactionExt::V0,
    };
    sign(transaction, r.network_passphrase, &[r.signing_seed])
}

/// What a challenge must say to be Lajan's, for the network and the moment it is checked at.
pub struct Expected<'a> {
    pub network_passphrase: &'a str,
    pub server_account: &'a str,
    pub home_domain: &'a str,
    pub web_auth_domain: &'a str,
    /// Unix seconds.
    pub now: u64,
}

/// What a challenge signed by its client proves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verified {
    /// The `G...` account that signed.
    pub account: String,
    pub memo: Option<u64>,
    /// The transaction's hash (lowercase hex): one challenge is exchanged once.
    pub hash_hex: String,
    /// When the challenge stops being valid (unix seconds): its hash need not be kept longer.
    pub expires_at: u64,
    /// The wallet's domain, when the challenge named one and that domain's key signed it.
    pub client_domain: Option<String>,
}

/// How far ahead of its `min_time` a challenge is accepted, for a wallet whose clock runs
/// slow (the official SDKs allow the same five minutes).
pub const CLOCK_GRACE_SECS: u64 = 300;

/// Checks a challenge a wallet sends back as SEP-10 asks: Lajan's own (its source, its
/// signature, its home and web auth domains), sequence 0, still within its time bounds, only
/// `manage_data` operations, and signed by the client account's master key (and, when it names
/// a `client_domain`, by the key its operation comes from) and by nothing else. The
/// `client_domain` operation's source needs no second look at the wallet's `stellar.toml`:
/// Lajan's signature over the challenge vouches that it is the key Lajan read there. `Err` is
/// the reason, in words a wallet developer can act on. Accounts whose master key
/// is not their signer (multisig) are not supported: the client's master key must sign.
pub fn verify_challenge(envelope_xdr_base64: &str, e: &Expected<'_>) -> Result<Verified, String> {
    use stellar_xdr::{Limits, ReadXdr, TransactionEnvelope, TransactionV1Envelope};
    let envelope = TransactionEnvelope::from_xdr_base64(envelope_xdr_base64, Limits::len(64 * 1024))
        .map_err(|_| "transaction is not a base64 XDR transaction envelope".to_owned())?;
    let TransactionEnvelope::Tx(TransactionV1Envelope { tx, signatures }) = envelope else {
        return Err("transaction is not a v1 transaction envelope".into());
    };
    let server = account_key("server_account", e.server_account).map_err(|e| e.to_string())?;
    if tx.source_account != MuxedAccount::Ed25519(server.clone()) {
        return Err("the challenge's source is not this service's signing key".into());
    }
    if tx.seq_num.0 != 0 {
        return Err("the challenge's sequence number must be 0".into());
    }
    let Preconditions::Time(TimeBounds { min_time, max_time }) = &tx.cond else {
        return Err("the challenge has no time bounds".into());
    };
    if e.now + CLOCK_GRACE_SECS < min_time.0 || e.now > max_time.0 {
        return Err("the challenge has expired: ask for a new one".into());
    }
    let memo = match tx.memo {
        Memo::None => None,
        Memo::Id(id) => Some(id),
        _ => return Err("the challenge's memo must be none or an id".into()),
    };
    let mut operations = tx.operations.iter();
    let (client, first) = match operations.next() {
        Some(Operation { source_account: Some(MuxedAccount::Ed25519(client)), body: OperationBody::ManageData(d) }) => {
            (client.clone(), d)
        }
        _ => return Err("the challenge's first operation must be a manage_data from the client's account".into()),
    };
    if first.data_name.as_slice() != format!("{} auth", e.home_domain).as_bytes() {
        return Err(format!("the challenge is not for this home domain ({})", e.home_domain));
    }
    let nonce = first.data_value.as_ref().map(|v| v.0.as_slice()).unwrap_or_default();
    if nonce.len() != 64 || STANDARD.decode(nonce).map(|n| n.len()) != Ok(48) {
        return Err("the challenge's nonce must be 64 bytes of base64".into());
    }
    let mut client_domain = None;
    for op in operations {
        let OperationBody::ManageData(d) = &op.body else {
            return Err("a challenge holds only manage_data operations".into());
        };
        let value = d.data_value.as_ref().map(|v| v.0.as_slice()).unwrap_or_default();
        if d.data_name.as_slice() == CLIENT_DOMAIN {
            let (Some(MuxedAccount::Ed25519(key)), None) = (&op.source_account, &client_domain) else {
                return Err("the challenge's client_domain operation is malformed".into());
            };
            let domain = String::from_utf8(value.to_vec()).map_err(|_| "the client_domain is not text".to_owned())?;
            client_domain = Some((domain, key.clone()));
            continue;
        }
        if op.source_account != Some(MuxedAccount::Ed25519(server.clone())) {
            return Err("only the first operation may come from the client's account".into());
        }
        if d.data_name.as_slice() == b"web_auth_domain" && value != e.web_auth_domain.as_bytes() {
            return Err(format!("the challenge's web_auth_domain is not {}", e.web_auth_domain));
        }
    }
    let hash = crate::stellar::transaction_hash(&tx, &crate::stellar::network_id(e.network_passphrase))
        .map_err(|e| e.to_string())?;
    let signed_by = |key: &Uint256| {
        ed25519_dalek::VerifyingKey::from_bytes(&key.0).ok().and_then(|k| {
            signatures.iter().position(|s| {
                ed25519_dalek::Signature::from_slice(s.signature.0.as_slice())
                    .is_ok_and(|sig| k.verify_strict(&hash, &sig).is_ok())
            })
        })
    };
    let Some(by_server) = signed_by(&server) else {
        return Err("the challenge is not signed by this service (another network, or altered)".into());
    };
    let Some(by_client) = signed_by(&client) else {
        return Err("the challenge is not signed by the client account's master key".into());
    };
    let mut by = vec![by_server, by_client];
    let client_domain = match client_domain {
        None => None,
        Some((domain, key)) => {
            let Some(by_wallet) = signed_by(&key) else {
                return Err(format!("the challenge is not signed by {domain}'s SIGNING_KEY (its client_domain)"));
            };
            by.push(by_wallet);
            Some(domain)
        }
    };
    // Each signer's own signature, and no other: one key may not stand for two signers.
    let signers = by.len();
    by.sort_unstable();
    by.dedup();
    if by.len() != signers || signers != signatures.len() {
        return Err("the challenge carries signatures other than the service's and the client's".into());
    }
    let account = stellar_strkey::ed25519::PublicKey(client.0).to_string().as_str().to_owned();
    Ok(Verified { account, memo, hash_hex: lajan_domain::hex::encode(&hash), expires_at: max_time.0, client_domain })
}

/// The home domain a challenge says it is for (its first operation's `<domain> auth`), read
/// before it is checked so the service knows which of its domains to check it against; `None`
/// for what is not a challenge's shape (the check then says why).
pub fn challenge_home_domain(envelope_xdr_base64: &str) -> Option<String> {
    use stellar_xdr::{Limits, ReadXdr, TransactionEnvelope};
    let TransactionEnvelope::Tx(envelope) =
        TransactionEnvelope::from_xdr_base64(envelope_xdr_base64, Limits::len(64 * 1024)).ok()?
    else {
        return None;
    };
    let OperationBody::ManageData(first) = &envelope.tx.operations.first()?.body else { return None };
    let name = std::str::from_utf8(first.data_name.as_slice()).ok()?;
    name.strip_suffix(" auth").map(str::to_owned)
}

/// The wallet's side, for tests and tools: `envelope_xdr_base64` with a signature by `seed`
/// added for the network.
pub fn sign_challenge(
    envelope_xdr_base64: &str,
    network_passphrase: &str,
    seed: &SecretString,
) -> Result<String, LedgerError> {
    use stellar_xdr::{Limits, ReadXdr, TransactionEnvelope, WriteXdr};
    let envelope =
        TransactionEnvelope::from_xdr_base64(envelope_xdr_base64, Limits::len(64 * 1024)).map_err(xdr_err)?;
    let TransactionEnvelope::Tx(mut signed) = envelope else {
        return Err(LedgerError::Xdr("not a v1 transaction envelope".into()));
    };
    let hash = crate::stellar::transaction_hash(&signed.tx, &crate::stellar::network_id(network_passphrase))?;
    let mut all = signed.signatures.to_vec();
    all.push(crate::stellar::signature(&hash, seed)?);
    signed.signatures = all.try_into().map_err(xdr_err)?;
    TransactionEnvelope::Tx(signed).to_xdr_base64(Limits::none()).map_err(xdr_err)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stellar::{PUBLIC_PASSPHRASE, TESTNET_PASSPHRASE, account_of_secret};

    const NOW: u64 = 1_795_867_200;

    fn seed(byte: u8) -> SecretString {
        let seed = stellar_strkey::ed25519::PrivateKey([byte; 32]).as_unredacted().to_string();
        SecretString::from(seed.as_str().to_owned())
    }

    struct Keys {
        server: SecretString,
        server_account: String,
        client: SecretString,
        client_account: String,
    }

    fn keys() -> Keys {
        let (server, client) = (seed(1), seed(2));
        let server_account = account_of_secret(&server).unwrap();
        let client_account = account_of_secret(&client).unwrap();
        Keys { server, server_account, client, client_account }
    }

    fn challenge(k: &Keys, memo: Option<u64>) -> String {
        let request = ChallengeRequest {
            network_passphrase: TESTNET_PASSPHRASE,
            signing_seed: &k.server,
            server_account: &k.server_account,
            client_account: &k.client_account,
            memo,
            home_domain: "pay.lajan.test",
            web_auth_domain: "pay.lajan.test",
            now: NOW,
            nonce: [7; 48],
            client_domain: None,
        };
        build_challenge(&request).unwrap().envelope_xdr_base64
    }

    fn expected(k: &Keys, now: u64) -> Expected<'_> {
        Expected {
            network_passphrase: TESTNET_PASSPHRASE,
            server_account: &k.server_account,
            home_domain: "pay.lajan.test",
            web_auth_domain: "pay.lajan.test",
            now,
        }
    }

    #[test]
    fn a_challenge_signed_by_its_client_proves_the_account() {
        let k = keys();
        let signed = sign_challenge(&challenge(&k, Some(42)), TESTNET_PASSPHRASE, &k.client).unwrap();
        let v = verify_challenge(&signed, &expected(&k, NOW + 60)).unwrap();
        assert_eq!((v.account.as_str(), v.memo, v.expires_at), (k.client_account.as_str(), Some(42), NOW + 900));
        assert_eq!(v.hash_hex.len(), 64);
        // A slow clock within the grace is fine; past the bounds it is not.
        assert!(verify_challenge(&signed, &expected(&k, NOW - CLOCK_GRACE_SECS)).is_ok());
        let late = verify_challenge(&signed, &expected(&k, NOW + 901)).unwrap_err();
        assert!(late.contains("expired"), "{late}");
        let early = verify_challenge(&signed, &expected(&k, NOW - CLOCK_GRACE_SECS - 1)).unwrap_err();
        assert!(early.contains("expired"), "{early}");
    }

    #[test]
    fn what_is_not_proof_is_refused_with_its_reason() {
        let k = keys();
        let unsigned = challenge(&k, None);
        let refused = |envelope: &str, e: &Expected<'_>| verify_challenge(envelope, e).unwrap_err();
        let e = expected(&k, NOW);
        assert!(refused(&unsigned, &e).contains("client account's master key"));
        let by_other = sign_challenge(&unsigned, TESTNET_PASSPHRASE, &seed(3)).unwrap();
        assert!(refused(&by_other, &e).contains("client account's master key"), "a foreign signature");
        let signed = sign_challenge(&unsigned, TESTNET_PASSPHRASE, &k.client).unwrap();
        let twice = sign_challenge(&signed, TESTNET_PASSPHRASE, &seed(3)).unwrap();
        assert!(refused(&twice, &e).contains("other than"), "an extra signature");
        let other_network = Expected { network_passphrase: PUBLIC_PASSPHRASE, ..expected(&k, NOW) };
        assert!(refused(&signed, &other_network).contains("not signed by this service"));
        let other_home = Expected { home_domain: "evil.example", ..expected(&k, NOW) };
        assert!(refused(&signed, &other_home).contains("home domain"));
        let other_web = Expected { web_auth_domain: "auth.evil.example", ..expected(&k, NOW) };
        assert!(refused(&signed, &other_web).contains("web_auth_domain"));
        let other_server = keys_with_server(4);
        let foreign = Expected { server_account: &other_server, ..expected(&k, NOW) };
        assert!(refused(&signed, &foreign).contains("source"));
        assert!(refused("not xdr", &e).contains("base64 XDR"));
    }

    #[test]
    fn a_challenge_naming_a_client_domain_needs_that_domain_s_signature() {
        let k = keys();
        let (wallet_seed, wallet_account) = (seed(5), account_of_secret(&seed(5)).unwrap());
        let request = ChallengeRequest {
            network_passphrase: TESTNET_PASSPHRASE,
            signing_seed: &k.server,
            server_account: &k.server_account,
            client_account: &k.client_account,
            memo: None,
            home_domain: "pay.lajan.test",
            web_auth_domain: "pay.lajan.test",
            now: NOW,
            nonce: [7; 48],
            client_domain: Some(ClientDomain { domain: "wallet.example", signing_account: &wallet_account }),
        };
        let unsigned = build_challenge(&request).unwrap().envelope_xdr_base64;
        let by_client = sign_challenge(&unsigned, TESTNET_PASSPHRASE, &k.client).unwrap();
        let refused = verify_challenge(&by_client, &expected(&k, NOW)).unwrap_err();
        assert!(refused.contains("wallet.example's SIGNING_KEY"), "{refused}");
        let by_both = sign_challenge(&by_client, TESTNET_PASSPHRASE, &wallet_seed).unwrap();
        let v = verify_challenge(&by_both, &expected(&k, NOW)).unwrap();
        assert_eq!(
            (v.account.as_str(), v.client_domain.as_deref()),
            (k.client_account.as_str(), Some("wallet.example"))
        );
        let extra = sign_challenge(&by_both, TESTNET_PASSPHRASE, &seed(6)).unwrap();
        assert!(verify_challenge(&extra, &expected(&k, NOW)).unwrap_err().contains("other than"));
        // The wallet's key cannot stand in for the client's.
        let by_wallet_only = sign_challenge(&unsigned, TESTNET_PASSPHRASE, &wallet_seed).unwrap();
        assert!(verify_challenge(&by_wallet_only, &expected(&k, NOW)).unwrap_err().contains("master key"));
    }

    fn keys_with_server(byte: u8) -> String {
        account_of_secret(&seed(byte)).unwrap()
    }
}
