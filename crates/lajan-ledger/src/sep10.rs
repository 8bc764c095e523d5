//! SEP-10 web authentication, the service's side: the challenge transaction a wallet signs to
//! prove it holds an account. Built as the SEP shapes it (and the official SDKs check it):
//! sequence 0, time bounds, a `manage_data` operation from the client's account named
//! `<home domain> auth` holding a random nonce, one from the service's account naming the web
//! auth domain, signed by the service's signing key. It is never submitted: sequence 0 cannot
//! apply on any network.

use crate::stellar::{LedgerError, SignedTx, account_key, sign, xdr_err};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use secrecy::SecretString;
use stellar_xdr::{
    DataValue, ManageDataOp, Memo, MuxedAccount, Operation, OperationBody, Preconditions, SequenceNumber, String64,
    StringM, TimeBounds, TimePoint, Transaction, TransactionExt,
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
}

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
    let operations = vec![
        data(client, format!("{} auth", r.home_domain), STANDARD.encode(r.nonce).into_bytes())?,
        data(server.clone(), "web_auth_domain".to_owned(), r.web_auth_domain.as_bytes().to_vec())?,
    ];
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
