//! Building and signing Stellar payment transactions, byte-for-byte like the official SDK
//! (reading them back is [`crate::stellar_decode`]).
//!
//! The shape follows the Python `stellar-sdk` `TransactionBuilder` (checked by `tests/ledger/sdk_parity.rs`):
//! a v1 envelope (`ENVELOPE_TYPE_TX`) holding one payment operation with no operation-level source,
//! `PRECOND_TIME` preconditions, `TransactionExt::V0` and one decorated signature. Nothing here
//! touches the network: the caller fetches the account's sequence number and submits the envelope.

use ed25519_dalek::{Signer, SigningKey};
use lajan_domain::stellar_memo::StellarMemo;
use secrecy::{ExposeSecret, SecretString};
use sha2::{Digest, Sha256};
use stellar_xdr::{
    AccountId, AlphaNum4, AlphaNum12, Asset, AssetCode4, AssetCode12, DecoratedSignature, EnvelopeType, Hash, Limits,
    Memo, MuxedAccount, Operation, OperationBody, PaymentOp, Preconditions, PublicKey, SequenceNumber, Signature,
    SignatureHint, StringM, TimeBounds, TimePoint, Transaction, TransactionEnvelope, TransactionExt,
    TransactionV1Envelope, Uint256, WriteXdr,
};

/// Passphrase of the public test network, for callers and tests that target it.
pub const TESTNET_PASSPHRASE: &str = "Test SDF Network ; September 2015";
/// Passphrase of the public main network.
pub const PUBLIC_PASSPHRASE: &str = "Public Global Stellar Network ; September 2015";

/// The network's minimum fee per operation, in stroops. Core rejects anything lower with
/// `txINSUFFICIENT_FEE`, so refusing it here gives a clearer error before a round trip to Horizon.
pub const MIN_BASE_FEE: u32 = 100;

/// Longest text memo the protocol allows (`string text<28>`), counted in UTF-8 bytes, not chars.
pub const MAX_MEMO_TEXT_BYTES: usize = 28;

/// One stroop is 10^-7 of a unit and Lajan amounts are in hundredths, so a cent is 100,000 stroops.
const STROOPS_PER_CENT: i64 = 100_000;

/// A single-payment transaction, described with the same inputs the SDK's builder takes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PaymentTx<'a> {
    /// e.g. [`TESTNET_PASSPHRASE`]; it is hashed into the signature, so a wrong one yields a
    /// transaction that is well-formed but rejected as `txBAD_AUTH`.
    pub network_passphrase: &'a str,
    /// `G...` StrKey of the transaction's source: the account whose sequence number it takes
    /// and that pays the fee (the distribution account, or a channel account).
    pub source_account: &'a str,
    /// `G...` StrKey of the account the payment comes from when it is not the transaction's
    /// source (the distribution account, when a channel account is the source): the payment
    /// operation's own source.
    pub payment_source: Option<&'a str>,
    /// The sequence number to put in the transaction: the source account's current sequence + 1.
    pub sequence: i64,
    /// Stroops per operation; the transaction fee is this times the number of operations (one).
    pub base_fee: u32,
    /// Time bounds in unix seconds; `max_time == 0` means no upper bound, as in the protocol.
    pub min_time: u64,
    pub max_time: u64,
    /// `G...` StrKey of the payee.
    pub destination: &'a str,
    /// `"XLM"` is the native asset; other codes are 1..=12 ASCII alphanumerics (1..=4 is
    /// `credit_alphanum4`, 5..=12 is `credit_alphanum12`) and need an issuer.
    pub asset_code: &'a str,
    /// `G...` StrKey of the issuer; `None` for XLM.
    pub asset_issuer: Option<&'a str>,
    /// Amount in hundredths of the asset; must be positive.
    pub amount_cents: i64,
    /// Optional memo; a text one has at most [`MAX_MEMO_TEXT_BYTES`] bytes of UTF-8.
    pub memo: Option<StellarMemo>,
}

/// A signed transaction, ready to POST to Horizon's `/transactions`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignedTx {
    /// Base64 of the XDR `TransactionEnvelope`, as Horizon's `tx` form field wants it.
    pub envelope_xdr_base64: String,
    /// Lowercase hex of the transaction hash, as Horizon reports it (`hash` / `id`).
    pub hash_hex: String,
}

/// Why a payment could not be built or signed. Messages never contain the secret seed.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum LedgerError {
    #[error("{field} is not a valid Stellar account StrKey (expected G...): {reason}")]
    InvalidAccount { field: &'static str, reason: String },
    // The reason comes from the StrKey decoder, which never echoes its input; the seed itself is
    // deliberately not part of this variant.
    #[error("the signing secret is not a valid Stellar secret seed StrKey (expected S...): {reason}")]
    InvalidSecretSeed { reason: String },
    #[error("a transaction needs at least one signer")]
    NoSigner,
    #[error("asset code {code:?} is invalid: expected \"XLM\" or 1 to 12 ASCII letters and digits")]
    InvalidAssetCode { code: String },
    #[error("asset {code} needs an issuer account")]
    MissingIssuer { code: String },
    #[error("XLM is the native asset and takes no issuer")]
    UnexpectedIssuer,
    #[error("memo text is {len} bytes; Stellar allows at most {MAX_MEMO_TEXT_BYTES}")]
    MemoTooLong { len: usize },
    #[error("amount must be positive, got {cents} cents")]
    AmountNotPositive { cents: i64 },
    #[error("amount of {cents} cents does not fit in a Stellar amount (int64 stroops)")]
    AmountTooLarge { cents: i64 },
    #[error("sequence number must be positive, got {sequence}")]
    InvalidSequence { sequence: i64 },
    #[error("base fee of {base_fee} stroops is below the network minimum of {MIN_BASE_FEE}")]
    FeeTooLow { base_fee: u32 },
    #[error("time bounds are inverted: min_time {min_time} is after max_time {max_time}")]
    InvalidTimeBounds { min_time: u64, max_time: u64 },
    #[error("XDR encoding failed: {0}")]
    Xdr(String),
    // Lives here rather than in `horizon::HorizonError` because a bad base URL is a configuration
    // error found once at startup, not a submission outcome the payout logic has to reason about.
    #[error("cannot set up the Horizon client: {0}")]
    HorizonClient(String),
}

/// The network id that every signature commits to: sha256 of the network passphrase.
pub fn network_id(passphrase: &str) -> [u8; 32] {
    Sha256::digest(passphrase.as_bytes()).into()
}

/// Builds the payment transaction, signs it with each of `signers` (`S...` StrKeys; the
/// source's, then the payment source's when it has one) and returns the envelope and hash
/// exactly as the official SDK would produce them.
///
/// A signer need not be an account's master key (an account can have other signers), so they
/// are not required to match the accounts; each signature's hint records which key signed.
pub fn build_and_sign(tx: &PaymentTx, signers: &[&SecretString]) -> Result<SignedTx, LedgerError> {
    sign(build_transaction(tx)?, tx.network_passphrase, signers)
}

/// Signs `transaction` for the network with each of `signers`, into a v1 envelope.
pub(crate) fn sign(
    transaction: Transaction,
    network_passphrase: &str,
    signers: &[&SecretString],
) -> Result<SignedTx, LedgerError> {
    if signers.is_empty() {
        return Err(LedgerError::NoSigner);
    }
    let hash = transaction_hash(&transaction, &network_id(network_passphrase))?;
    let signatures = signers.iter().map(|seed| signature(&hash, seed)).collect::<Result<Vec<_>, _>>()?;
    let envelope = TransactionEnvelope::Tx(TransactionV1Envelope {
        tx: transaction,
        signatures: signatures.try_into().map_err(xdr_err)?,
    });
    let envelope_xdr_base64 = envelope.to_xdr_base64(Limits::none()).map_err(xdr_err)?;
    Ok(SignedTx { envelope_xdr_base64, hash_hex: lajan_domain::hex::encode(&hash) })
}

/// `secret_seed`'s signature of a transaction hash, with the hint naming its key.
pub(crate) fn signature(hash: &[u8; 32], secret_seed: &SecretString) -> Result<DecoratedSignature, LedgerError> {
    let (signature, public_key) = signed(hash, secret_seed)?;
    // The hint lets validators find the signer among the account's keys without trying them all.
    let hint = SignatureHint(public_key[28..].try_into().map_err(|_| LedgerError::Xdr("key length".into()))?);
    Ok(DecoratedSignature { hint, signature: Signature(signature.try_into().map_err(xdr_err)?) })
}

/// `secret_seed`'s ed25519 signature of `message` (64 bytes): what a wallet checks a link
/// signed by a `stellar.toml`'s `SIGNING_KEY` with.
pub fn sign_message(message: &[u8], secret_seed: &SecretString) -> Result<[u8; 64], LedgerError> {
    signed(message, secret_seed).map(|(signature, _)| signature)
}

/// `secret_seed`'s signature of `message`, and the key that checks it.
fn signed(message: &[u8], secret_seed: &SecretString) -> Result<([u8; 64], [u8; 32]), LedgerError> {
    // `PrivateKey` zeroizes itself on drop, and so does `SigningKey` (dalek's `zeroize` feature).
    let seed = stellar_strkey::ed25519::PrivateKey::from_string(secret_seed.expose_secret())
        .map_err(|e| LedgerError::InvalidSecretSeed { reason: e.to_string() })?;
    let signing_key = SigningKey::from_bytes(&seed.0);
    drop(seed);
    Ok((signing_key.sign(message).to_bytes(), signing_key.verifying_key().to_bytes()))
}

/// The `G...` account whose master key is this secret seed: the distribution account when the
/// configuration gives only its secret.
pub fn account_of_secret(secret_seed: &SecretString) -> Result<String, LedgerError> {
    let seed = stellar_strkey::ed25519::PrivateKey::from_string(secret_seed.expose_secret())
        .map_err(|e| LedgerError::InvalidSecretSeed { reason: e.to_string() })?;
    let public = SigningKey::from_bytes(&seed.0).verifying_key().to_bytes();
    drop(seed);
    Ok(stellar_strkey::ed25519::PublicKey(public).to_string().as_str().to_owned())
}

/// A new random secret seed (`S...`), from a cryptographically secure generator, for a key Lajan
/// makes itself (the sandbox's signing key).
pub fn new_secret_seed() -> SecretString {
    let seed = stellar_strkey::ed25519::PrivateKey(rand::random::<[u8; 32]>());
    SecretString::from(seed.as_unredacted().to_string().as_str().to_owned())
}

/// Validates the inputs and assembles the unsigned XDR `Transaction`.
fn build_transaction(tx: &PaymentTx) -> Result<Transaction, LedgerError> {
    let source = account_key("source_account", tx.source_account)?;
    let destination = account_key("destination", tx.destination)?;
    let asset = asset(tx.asset_code, tx.asset_issuer)?;

    if tx.amount_cents <= 0 {
        return Err(LedgerError::AmountNotPositive { cents: tx.amount_cents });
    }
    let stroops =
        tx.amount_cents.checked_mul(STROOPS_PER_CENT).ok_or(LedgerError::AmountTooLarge { cents: tx.amount_cents })?;

    // Sequence 0 can never be valid: an account's sequence starts at ledger<<32 and the next one is +1.
    if tx.sequence <= 0 {
        return Err(LedgerError::InvalidSequence { sequence: tx.sequence });
    }
    if tx.base_fee < MIN_BASE_FEE {
        return Err(LedgerError::FeeTooLow { base_fee: tx.base_fee });
    }
    // Same rule as the protocol and the SDK's `TimeBounds`: 0 as max_time means "no upper bound".
    if tx.max_time != 0 && tx.min_time > tx.max_time {
        return Err(LedgerError::InvalidTimeBounds { min_time: tx.min_time, max_time: tx.max_time });
    }

    let memo = match &tx.memo {
        None => Memo::None,
        Some(StellarMemo::Text(text)) => {
            let bytes = text.as_bytes();
            if bytes.len() > MAX_MEMO_TEXT_BYTES {
                return Err(LedgerError::MemoTooLong { len: bytes.len() });
            }
            Memo::Text(StringM::try_from(bytes.to_vec()).map_err(xdr_err)?)
        }
        Some(StellarMemo::Id(id)) => Memo::Id(*id),
        Some(StellarMemo::Hash(bytes)) => Memo::Hash(Hash(*bytes)),
    };

    let payment_source = match tx.payment_source {
        Some(account) => Some(MuxedAccount::Ed25519(account_key("payment_source", account)?)),
        None => None,
    };
    let payment = Operation {
        source_account: payment_source,
        body: OperationBody::Payment(PaymentOp {
            destination: MuxedAccount::Ed25519(destination),
            asset,
            amount: stroops,
        }),
    };
    // The SDK charges base_fee per operation; with exactly one operation the fee is base_fee itself,
    // so no overflow is possible. Multi-operation batches will need a checked multiply here.
    let fee = tx.base_fee;

    Ok(Transaction {
        source_account: MuxedAccount::Ed25519(source),
        fee,
        seq_num: SequenceNumber(tx.sequence),
        cond: Preconditions::Time(TimeBounds { min_time: TimePoint(tx.min_time), max_time: TimePoint(tx.max_time) }),
        memo,
        operations: vec![payment].try_into().map_err(xdr_err)?,
        ext: TransactionExt::V0,
    })
}

/// sha256(network_id || ENVELOPE_TYPE_TX || XDR(tx)): the XDR of `TransactionSignaturePayload`
/// for a v1 transaction, spelled out so the bytes being signed are visible here.
pub(crate) fn transaction_hash(tx: &Transaction, network_id: &[u8; 32]) -> Result<[u8; 32], LedgerError> {
    let mut hasher = Sha256::new();
    hasher.update(network_id);
    hasher.update((EnvelopeType::Tx as i32).to_be_bytes());
    hasher.update(tx.to_xdr(Limits::none()).map_err(xdr_err)?);
    Ok(hasher.finalize().into())
}

/// Parses a `G...` StrKey. Muxed `M...` accounts are refused: Lajan pays plain accounts only.
pub(crate) fn account_key(field: &'static str, strkey: &str) -> Result<Uint256, LedgerError> {
    stellar_strkey::ed25519::PublicKey::from_string(strkey)
        .map(|key| Uint256(key.0))
        .map_err(|e| LedgerError::InvalidAccount { field, reason: e.to_string() })
}

/// Maps a code and issuer to the XDR asset the SDK's `Asset(code, issuer)` would produce.
fn asset(code: &str, issuer: Option<&str>) -> Result<Asset, LedgerError> {
    if code == "XLM" {
        // The SDK would read Asset("XLM", issuer) as a credit asset named XLM; for Lajan that is
        // far more likely a mistake than an intent, so it is refused.
        return match issuer {
            None => Ok(Asset::Native),
            Some(_) => Err(LedgerError::UnexpectedIssuer),
        };
    }
    // Same rule as the SDK (`^[a-zA-Z0-9]{1,12}$`) and stellar-core's asset validity check.
    if code.is_empty() || code.len() > 12 || !code.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return Err(LedgerError::InvalidAssetCode { code: code.to_owned() });
    }
    let issuer = issuer.ok_or_else(|| LedgerError::MissingIssuer { code: code.to_owned() })?;
    let issuer = AccountId(PublicKey::PublicKeyTypeEd25519(account_key("asset_issuer", issuer)?));
    // Codes are right-padded with NUL bytes to the fixed width of their class.
    Ok(if code.len() <= 4 {
        let mut padded = [0u8; 4];
        padded[..code.len()].copy_from_slice(code.as_bytes());
        Asset::CreditAlphanum4(AlphaNum4 { asset_code: AssetCode4(padded), issuer })
    } else {
        let mut padded = [0u8; 12];
        padded[..code.len()].copy_from_slice(code.as_bytes());
        Asset::CreditAlphanum12(AlphaNum12 { asset_code: AssetCode12(padded), issuer })
    })
}

pub(crate) fn xdr_err(e: stellar_xdr::Error) -> LedgerError {
    LedgerError::Xdr(e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stellar_decode::decode_payment;
    use stellar_xdr::ReadXdr;

    // Throwaway keys derived from fixed bytes; they hold nothing on any network.
    fn keypair(byte: u8) -> (String, SecretString) {
        let seed = stellar_strkey::ed25519::PrivateKey([byte; 32]);
        let public = SigningKey::from_bytes(&seed.0).verifying_key().to_bytes();
        let g = stellar_strkey::ed25519::PublicKey(public).to_string().as_str().to_owned();
        let s = seed.as_unredacted().to_string().as_str().into();
        (g, s)
    }

    fn sample<'a>(source: &'a str, dest: &'a str, issuer: &'a str) -> PaymentTx<'a> {
        PaymentTx {
            network_passphrase: TESTNET_PASSPHRASE,
            source_account: source,
            payment_source: None,
            sequence: 4_294_967_297,
            base_fee: 100,
            min_time: 1_700_000_000,
            max_time: 1_700_000_300,
            destination: dest,
            asset_code: "USDC",
            asset_issuer: Some(issuer),
            amount_cents: 12_550,
            memo: Some(StellarMemo::Text("invoice 42".into())),
        }
    }

    fn with<R>(f: impl FnOnce(PaymentTx, &SecretString) -> R) -> R {
        let (source, seed) = keypair(1);
        let (dest, _) = keypair(2);
        let (issuer, _) = keypair(3);
        f(sample(&source, &dest, &issuer), &seed)
    }

    fn err(tx: PaymentTx, seed: &SecretString) -> LedgerError {
        build_and_sign(&tx, &[seed]).expect_err("expected an error")
    }

    #[test]
    fn network_id_is_sha256_of_passphrase() {
        assert_eq!(
            lajan_domain::hex::encode(&network_id(TESTNET_PASSPHRASE)),
            "cee0302d59844d32bdca915c8203dd44b33fbb7edc19051ea37abedf28ecd472"
        );
    }

    #[test]
    fn envelope_round_trips_and_signature_verifies() {
        with(|tx, seed| {
            let signed = build_and_sign(&tx, &[seed]).unwrap();
            let env = TransactionEnvelope::from_xdr_base64(&signed.envelope_xdr_base64, Limits::none()).unwrap();
            let TransactionEnvelope::Tx(v1) = env else { panic!("expected a v1 envelope") };
            // Our hand-built hash preimage must agree with the XDR crate's own definition.
            let crate_hash = v1.tx.hash(network_id(TESTNET_PASSPHRASE)).unwrap();
            assert_eq!(lajan_domain::hex::encode(&crate_hash), signed.hash_hex);
            assert_eq!(v1.tx.fee, 100);
            assert_eq!(v1.signatures.len(), 1);
            let key = ed25519_dalek::VerifyingKey::from_bytes(
                &stellar_strkey::ed25519::PublicKey::from_string(tx.source_account).unwrap().0,
            )
            .unwrap();
            let sig = ed25519_dalek::Signature::from_slice(v1.signatures[0].signature.0.as_slice()).unwrap();
            key.verify_strict(&crate_hash, &sig).unwrap();
            assert_eq!(&v1.signatures[0].hint.0, &key.to_bytes()[28..]);
        });
    }

    #[test]
    fn decode_reads_back_what_was_built() {
        with(|tx, seed| {
            let signed = build_and_sign(&tx, &[seed]).unwrap();
            let d = decode_payment(&signed.envelope_xdr_base64, TESTNET_PASSPHRASE).unwrap();
            assert_eq!(d.hash_hex, signed.hash_hex);
            assert_eq!(d.source_account, tx.source_account);
            assert_eq!(d.destination, tx.destination);
            assert_eq!((d.sequence, d.min_time, d.max_time), (tx.sequence, tx.min_time, tx.max_time));
            assert_eq!((d.asset_code.as_str(), d.asset_issuer.as_deref()), ("USDC", tx.asset_issuer));
            assert_eq!(d.amount_stroops, tx.amount_cents * STROOPS_PER_CENT);
            assert_eq!(d.memo, Some(StellarMemo::Text("invoice 42".into())));
            assert!(d.signed_by_source && d.signed_by_payer);
            assert_eq!(d.payer, tx.source_account, "without a payment source, the source pays");
            assert_eq!(account_of_secret(seed).unwrap(), tx.source_account);
            // Another network's hash: the same bytes are not validly signed there.
            let other = decode_payment(&signed.envelope_xdr_base64, PUBLIC_PASSPHRASE).unwrap();
            assert!(!other.signed_by_source);
            assert_ne!(other.hash_hex, signed.hash_hex);
        });
        assert!(decode_payment("AAAA", TESTNET_PASSPHRASE).is_err());
    }

    #[test]
    fn a_channel_account_transaction_names_and_needs_both_signers() {
        with(|tx, distribution| {
            let (channel, channel_seed) = keypair(4);
            let payer = tx.source_account;
            let tx = PaymentTx { source_account: &channel, payment_source: Some(payer), ..tx };
            let both = build_and_sign(&tx, &[&channel_seed, distribution]).unwrap();
            let d = decode_payment(&both.envelope_xdr_base64, TESTNET_PASSPHRASE).unwrap();
            assert_eq!((d.source_account.as_str(), d.payer.as_str()), (channel.as_str(), payer));
            assert!(d.signed_by_source && d.signed_by_payer);
            let channel_only = build_and_sign(&tx, &[&channel_seed]).unwrap();
            let d = decode_payment(&channel_only.envelope_xdr_base64, TESTNET_PASSPHRASE).unwrap();
            assert!(d.signed_by_source && !d.signed_by_payer);
            assert_eq!(channel_only.hash_hex, both.hash_hex, "signatures are not part of the hash");
            assert_eq!(build_and_sign(&tx, &[]).unwrap_err(), LedgerError::NoSigner);
        });
    }

    #[test]
    fn asset_classes_follow_code_length() {
        let (issuer, _) = keypair(3);
        assert_eq!(asset("XLM", None).unwrap(), Asset::Native);
        assert!(
            matches!(asset("A", Some(&issuer)).unwrap(), Asset::CreditAlphanum4(a) if a.asset_code.0 == *b"A\0\0\0")
        );
        assert!(matches!(asset("USDC", Some(&issuer)).unwrap(), Asset::CreditAlphanum4(_)));
        assert!(matches!(asset("EURCX", Some(&issuer)).unwrap(), Asset::CreditAlphanum12(_)));
        assert!(matches!(asset("LONGASSET123", Some(&issuer)).unwrap(), Asset::CreditAlphanum12(_)));
    }

    #[test]
    fn bad_strkeys_are_rejected_per_field() {
        with(|tx, seed| {
            let e = err(PaymentTx { source_account: "GABC", ..tx.clone() }, seed);
            assert!(matches!(e, LedgerError::InvalidAccount { field: "source_account", .. }), "{e}");
            let e = err(PaymentTx { destination: "not-a-key", ..tx.clone() }, seed);
            assert!(matches!(e, LedgerError::InvalidAccount { field: "destination", .. }), "{e}");
            // A secret seed in an account field must be refused, not decoded as a key.
            let (_, other_seed) = keypair(9);
            let e = err(PaymentTx { destination: other_seed.expose_secret(), ..tx.clone() }, seed);
            assert!(matches!(e, LedgerError::InvalidAccount { field: "destination", .. }));
            let e = err(PaymentTx { asset_issuer: Some("GXYZ"), ..tx }, seed);
            assert!(matches!(e, LedgerError::InvalidAccount { field: "asset_issuer", .. }), "{e}");
        });
    }

    #[test]
    fn bad_seed_is_rejected_without_echoing_it() {
        with(|tx, _| {
            // A public key where the seed belongs: the classic config mix-up.
            let not_a_seed = SecretString::from(tx.source_account);
            let e = err(tx.clone(), &not_a_seed);
            assert!(matches!(e, LedgerError::InvalidSecretSeed { .. }), "{e}");
            assert!(!e.to_string().contains(tx.source_account));
            let (_, real) = keypair(1);
            let mut corrupted = real.expose_secret().to_owned();
            corrupted.replace_range(10..11, if &corrupted[10..11] == "A" { "B" } else { "A" });
            let e = err(tx, &SecretString::from(corrupted.clone()));
            assert!(matches!(e, LedgerError::InvalidSecretSeed { .. }), "{e}");
            assert!(!e.to_string().contains(&corrupted[..20]));
        });
    }

    #[test]
    fn bad_asset_codes_are_rejected() {
        with(|tx, seed| {
            for code in ["", "US DC", "TOOLONGASSET1", "EUR€", "usd-c"] {
                let e = err(PaymentTx { asset_code: code, ..tx.clone() }, seed);
                assert_eq!(e, LedgerError::InvalidAssetCode { code: code.into() });
            }
            let e = err(PaymentTx { asset_issuer: None, ..tx.clone() }, seed);
            assert_eq!(e, LedgerError::MissingIssuer { code: "USDC".into() });
            let e = err(PaymentTx { asset_code: "XLM", ..tx }, seed);
            assert_eq!(e, LedgerError::UnexpectedIssuer);
        });
    }

    #[test]
    fn memo_limit_is_28_utf8_bytes() {
        with(|tx, seed| {
            let ok = "a".repeat(28);
            let text = |s: &str| Some(StellarMemo::Text(s.to_owned()));
            build_and_sign(&PaymentTx { memo: text(&ok), ..tx.clone() }, &[seed]).unwrap();
            let long = "a".repeat(29);
            assert_eq!(err(PaymentTx { memo: text(&long), ..tx.clone() }, seed), LedgerError::MemoTooLong { len: 29 });
            // 10 chars but 30 bytes: the limit is on bytes.
            let wide = "€".repeat(10);
            assert_eq!(err(PaymentTx { memo: text(&wide), ..tx }, seed), LedgerError::MemoTooLong { len: 30 });
        });
    }

    #[test]
    fn amounts_must_be_positive_and_fit() {
        with(|tx, seed| {
            for cents in [0, -1, i64::MIN] {
                assert_eq!(
                    err(PaymentTx { amount_cents: cents, ..tx.clone() }, seed),
                    LedgerError::AmountNotPositive { cents }
                );
            }
            // i64::MAX stroops is 922337203685.4775807; 922337203685.47 is the largest cent amount.
            build_and_sign(&PaymentTx { amount_cents: 92_233_720_368_547, ..tx.clone() }, &[seed]).unwrap();
            let cents = 92_233_720_368_548;
            assert_eq!(err(PaymentTx { amount_cents: cents, ..tx }, seed), LedgerError::AmountTooLarge { cents });
        });
    }

    #[test]
    fn sequence_fee_and_time_bounds_are_checked() {
        with(|tx, seed| {
            assert_eq!(
                err(PaymentTx { sequence: 0, ..tx.clone() }, seed),
                LedgerError::InvalidSequence { sequence: 0 }
            );
            assert_eq!(err(PaymentTx { base_fee: 99, ..tx.clone() }, seed), LedgerError::FeeTooLow { base_fee: 99 });
            assert_eq!(
                err(PaymentTx { min_time: 10, max_time: 5, ..tx.clone() }, seed),
                LedgerError::InvalidTimeBounds { min_time: 10, max_time: 5 }
            );
            // max_time 0 means unbounded, so any min_time goes with it.
            build_and_sign(&PaymentTx { min_time: 10, max_time: 0, ..tx }, &[seed]).unwrap();
        });
    }

    #[test]
    fn error_messages_are_readable() {
        assert_eq!(
            LedgerError::MemoTooLong { len: 30 }.to_string(),
            "memo text is 30 bytes; Stellar allows at most 28"
        );
        assert_eq!(
            LedgerError::FeeTooLow { base_fee: 10 }.to_string(),
            "base fee of 10 stroops is below the network minimum of 100"
        );
    }
}
