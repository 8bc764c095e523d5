//! Reading a payment transaction back from its envelope: what a stored envelope says, without
//! trusting anything stored beside it, and whether the accounts it spends from signed it.

use crate::stellar::{LedgerError, network_id, transaction_hash, xdr_err};
use lajan_domain::stellar_memo::StellarMemo;
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
    pub memo: Option<StellarMemo>,
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
    let memo = match &tx.memo {
        Memo::Text(t) => Some(StellarMemo::Text(String::from_utf8_lossy(t.as_slice()).into_owned())),
        Memo::Id(id) => Some(StellarMemo::Id(*id)),
        Memo::Hash(h) => Some(StellarMemo::Hash(h.0)),
        Memo::None | Memo::Return(_) => None,
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
        memo,
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

/// The operation result codes of a transaction that failed in a ledger, as Horizon names them
/// (`op_no_destination`, `op_no_trust`, `op_underfunded`, ...), from its `result_xdr`: what a
/// lookup by hash reports when the submission's own answer was lost. Empty when the XDR does not
/// read or says no operation failed.
pub fn failed_operation_codes(result_xdr_base64: &str) -> Vec<String> {
    use stellar_xdr::{
        OperationResult, OperationResultTr, PaymentResult, ReadXdr, TransactionResult, TransactionResultResult,
    };
    let Ok(result) = TransactionResult::from_xdr_base64(result_xdr_base64, Limits::len(64 * 1024)) else {
        return Vec::new();
    };
    let TransactionResultResult::TxFailed(operations) = result.result else { return Vec::new() };
    let code = |op: &OperationResult| -> &'static str {
        match op {
            OperationResult::OpInner(OperationResultTr::Payment(payment)) => match payment {
                PaymentResult::Success => "op_success",
                PaymentResult::Malformed => "op_malformed",
                PaymentResult::Underfunded => "op_underfunded",
                PaymentResult::SrcNoTrust => "op_src_no_trust",
                PaymentResult::SrcNotAuthorized => "op_src_not_authorized",
                PaymentResult::NoDestination => "op_no_destination",
                PaymentResult::NoTrust => "op_no_trust",
                PaymentResult::NotAuthorized => "op_not_authorized",
                PaymentResult::LineFull => "op_line_full",
                PaymentResult::NoIssuer => "op_no_issuer",
            },
            // Lajan's transactions hold one payment; anything else is named by its kind.
            OperationResult::OpInner(_) => "op_failed",
            OperationResult::OpBadAuth => "op_bad_auth",
            OperationResult::OpNoAccount => "op_no_source_account",
            OperationResult::OpNotSupported => "op_not_supported",
            OperationResult::OpTooManySubentries => "op_too_many_subentries",
            OperationResult::OpExceededWorkLimit => "op_exceeded_work_limit",
            OperationResult::OpTooManySponsoring => "op_too_many_sponsoring",
        }
    };
    operations.iter().map(|op| code(op).to_owned()).collect()
}

/// A `result_xdr` of a transaction whose one payment failed with `op_code`: what Horizon shows
/// for it, for the test network. `None` for a code that is not a payment's.
pub fn failed_payment_result_xdr(op_code: &str) -> Option<String> {
    use stellar_xdr::{
        OperationResult, OperationResultTr, PaymentResult, TransactionResult, TransactionResultExt,
        TransactionResultResult, WriteXdr,
    };
    let payment = match op_code {
        "op_underfunded" => PaymentResult::Underfunded,
        "op_no_destination" => PaymentResult::NoDestination,
        "op_no_trust" => PaymentResult::NoTrust,
        "op_not_authorized" => PaymentResult::NotAuthorized,
        "op_line_full" => PaymentResult::LineFull,
        "op_no_issuer" => PaymentResult::NoIssuer,
        _ => return None,
    };
    let operations = vec![OperationResult::OpInner(OperationResultTr::Payment(payment))].try_into().ok()?;
    let result = TransactionResult {
        fee_charged: 100,
        result: TransactionResultResult::TxFailed(operations),
        ext: TransactionResultExt::V0,
    };
    result.to_xdr_base64(Limits::none()).ok()
}

#[cfg(test)]
mod result_tests {
    use super::{failed_operation_codes, failed_payment_result_xdr};

    #[test]
    fn a_failed_payments_reason_reads_back_from_its_result_xdr() {
        for code in ["op_no_destination", "op_no_trust", "op_underfunded"] {
            let xdr = failed_payment_result_xdr(code).unwrap();
            assert_eq!(failed_operation_codes(&xdr), [code]);
        }
        assert!(failed_operation_codes("not xdr").is_empty());
    }
}
