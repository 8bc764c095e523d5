//! Reading a payment transaction back from its envelope: what a stored envelope says, without
//! trusting anything stored beside it, and whether the accounts it spends from signed it.

use crate::stellar::{LedgerError, network_id, transaction_hash, xdr_err};
use stellar_xdr::{
    AccountId, Asset, Limits, Memo, MuxedAccount, OperationBody, Preconditions, PublicKey, TimeBounds,
    TransactionEnvelope, TransactionV1Envelope, Uint256,
};

/// A single-payment envelope read back from its XDR: what a stored envelope says without
/// trusting anything stored beside it (its `max_time` decides how long it may still land).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodedPayment {
    pub hash_hex: String,
    /// The transaction's source: whose sequence it takes (a channel account, or the payer).
    pub source_account: String,
    /// The account the payment comes from: the operation's source, else the transaction's.
    pub payer: String,
    pub sequence: i64,
    /// The whole transaction's fee in stroops (one operation: its fee per operation).
    pub fee: u32,
    pub min_time: u64,
    pub max_time: u64,
    pub destination: String,
    /// `"XLM"` for the native asset.
    pub asset_code: String,
    pub asset_issuer: Option<String>,
    pub amount_stroops: i64,
    pub memo_text: Option<String>,
    /// Whether one of the signatures is the source account's master key over this network's hash.
    pub signed_by_source: bool,
    /// The same for the payer (the source's signature, when the payer is the source).
    pub signed_by_payer: bool,
}

/// Decodes an envelope built by [`build_and_sign`] (a v1 envelope with one payment operation).
pub fn decode_payment(envelope_xdr_base64: &str, network_passphrase: &str) -> Result<DecodedPayment, LedgerError> {
    use stellar_xdr::ReadXdr;
    let envelope =
        TransactionEnvelope::from_xdr_base64(envelope_xdr_base64, Limits::len(64 * 1024)).map_err(xdr_err)?;
    let TransactionEnvelope::Tx(TransactionV1Envelope { tx, signatures }) = envelope else {
        return Err(LedgerError::Xdr("not a v1 transaction envelope".into()));
    };
    let [op] = tx.operations.as_slice() else {
        return Err(LedgerError::Xdr("not a single-operation transaction".into()));
    };
    let OperationBody::Payment(payment) = &op.body else {
        return Err(LedgerError::Xdr("the operation is not a payment".into()));
    };
    let key_of = |m: &MuxedAccount| match m {
        MuxedAccount::Ed25519(Uint256(k)) => Ok(*k),
        MuxedAccount::MuxedEd25519(_) => Err(LedgerError::Xdr("muxed accounts are not supported".into())),
    };
    let g = |k: [u8; 32]| stellar_strkey::ed25519::PublicKey(k).to_string().as_str().to_owned();
    let source = key_of(&tx.source_account)?;
    let (asset_code, asset_issuer) = match &payment.asset {
        Asset::Native => ("XLM".to_owned(), None),
        Asset::CreditAlphanum4(a) => (code_text(&a.asset_code.0), Some(issuer_text(&a.issuer))),
        Asset::CreditAlphanum12(a) => (code_text(&a.asset_code.0), Some(issuer_text(&a.issuer))),
    };
    let (min_time, max_time) = match &tx.cond {
        Preconditions::Time(TimeBounds { min_time, max_time }) => (min_time.0, max_time.0),
        _ => (0, 0),
    };
    let memo_text = match &tx.memo {
        Memo::Text(t) => Some(String::from_utf8_lossy(t.as_slice()).into_owned()),
        _ => None,
    };
    let payer = op.source_account.as_ref().map(key_of).transpose()?.unwrap_or(source);
    let hash = transaction_hash(&tx, &network_id(network_passphrase))?;
    let signed_by = |account: &[u8; 32]| {
        ed25519_dalek::VerifyingKey::from_bytes(account).is_ok_and(|key| {
            signatures.iter().any(|s| {
                ed25519_dalek::Signature::from_slice(s.signature.0.as_slice())
                    .is_ok_and(|sig| key.verify_strict(&hash, &sig).is_ok())
            })
        })
    };
    Ok(DecodedPayment {
        hash_hex: lajan_domain::hex::encode(&hash),
        source_account: g(source),
        payer: g(payer),
        sequence: tx.seq_num.0,
        fee: tx.fee,
        min_time,
        max_time,
        destination: g(key_of(&payment.destination)?),
        asset_code,
        asset_issuer,
        amount_stroops: payment.amount,
        memo_text,
        signed_by_source: signed_by(&source),
        signed_by_payer: signed_by(&payer),
    })
}

fn code_text(padded: &[u8]) -> String {
    padded.iter().take_while(|b| **b != 0).map(|b| char::from(*b)).collect()
}

fn issuer_text(issuer: &AccountId) -> String {
    let AccountId(PublicKey::PublicKeyTypeEd25519(Uint256(k))) = issuer;
    stellar_strkey::ed25519::PublicKey(*k).to_string().as_str().to_owned()
}
