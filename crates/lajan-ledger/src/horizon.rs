//! A small Horizon client for submitting payouts exactly once.
//!
//! Every submission outcome lands in one of three buckets, because each demands a different action
//! from the payout logic: applied ([`Submitted`]), refused by the network with nothing applied
//! ([`HorizonError::Rejected`]), or unknown ([`HorizonError::Unknown`]: a timeout, a dropped
//! connection, a 5xx). An unknown outcome must never be treated as a failure, since the payment may
//! still land; the safe move is to resubmit the *identical* envelope (same hash, same sequence, so the
//! network applies it at most once) until its `max_time` passes, then ask Horizon by hash.
//! [`crate::exactly_once::submit_exactly_once`] does exactly that.

use std::time::Duration;

use lajan_store::redact_url;
use reqwest::{StatusCode, Url};
use serde::Deserialize;

use crate::LedgerError;
use crate::stellar_decode::failed_operation_codes;

/// Horizon's problem `type` for an unknown resource; used to tell "this transaction does not exist"
/// from a 404 caused by a wrong base URL or a proxy, which must not be read as "not applied".
const NOT_FOUND_TYPE: &str = "https://stellar.org/horizon-errors/not_found";

/// How much of an unexpected response body goes into an error message: enough to diagnose, without
/// flooding logs with a whole HTML error page.
const BODY_EXCERPT_CHARS: usize = 300;

/// Talks to one Horizon server (e.g. `https://horizon-testnet.stellar.org`).
#[derive(Clone, Debug)]
pub struct HorizonClient {
    base_url: Url,
    http: reqwest::Client,
}

/// A transaction the network applied successfully.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Submitted {
    /// Lowercase hex transaction hash, as Horizon reports it.
    pub hash: String,
    /// The ledger that included it.
    pub ledger: i64,
}

/// Why a Horizon call did not yield an applied transaction (or an answer).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HorizonError {
    /// The outcome is unknown (HTTP 504 "Timeout", connection error, client timeout, 5xx, 429): the
    /// transaction may or may not be applied. Resubmit the IDENTICAL envelope (same hash) until its
    /// `max_time` passes, then reconcile with [`HorizonClient::transaction_ledger`].
    #[error("outcome unknown: {0}")]
    Unknown(String),
    /// The network refused the transaction and nothing was applied. `tx_code` is Horizon's
    /// transaction result code (`tx_failed`, `tx_bad_seq`, `tx_too_late`, ...); `op_codes` the
    /// per-operation codes (`op_no_destination`, ...), empty when Horizon sent none.
    #[error("rejected by the network: {} ({message})", self.error_code())]
    Rejected { tx_code: String, op_codes: Vec<String>, message: String },
    /// Anything else unexpected: malformed JSON, a 4xx that is not a transaction result, a wrong URL.
    #[error("unexpected Horizon response: {0}")]
    Other(String),
}

impl HorizonError {
    /// The most specific code: for `tx_failed`, the first operation code that is not `op_success`
    /// (that is the one that says *why*, e.g. `op_no_destination`); otherwise the transaction code.
    /// `"unknown"` and `"other"` for the non-rejection variants, so callers can always record a code.
    pub fn error_code(&self) -> String {
        match self {
            HorizonError::Rejected { tx_code, op_codes, .. } => {
                if tx_code == "tx_failed"
                    && let Some(op) = op_codes.iter().find(|c| *c != "op_success")
                {
                    return op.clone();
                }
                tx_code.clone()
            }
            HorizonError::Unknown(_) => "unknown".to_owned(),
            HorizonError::Other(_) => "other".to_owned(),
        }
    }

    /// Whether the payout has definitively failed and should be reported as such, i.e. retrying with
    /// a fresh envelope would fail the same way. Not final: `tx_bad_seq` and `tx_insufficient_fee`
    /// (nothing was applied; reload the sequence / raise the fee and build a new envelope), and every
    /// `Unknown` or `Other` (the payment may still be, or already be, applied). `tx_too_late` is final
    /// for that envelope.
    pub fn is_final(&self) -> bool {
        match self {
            HorizonError::Rejected { tx_code, .. } => !matches!(tx_code.as_str(), "tx_bad_seq" | "tx_insufficient_fee"),
            HorizonError::Unknown(_) | HorizonError::Other(_) => false,
        }
    }

    pub(crate) fn is_tx_code(&self, code: &str) -> bool {
        matches!(self, HorizonError::Rejected { tx_code, .. } if tx_code == code)
    }
}

impl HorizonClient {
    /// `timeout` bounds each whole request; Horizon itself gives up on a submission after ~30 s
    /// with a 504, so something a bit above that avoids cutting off answers it was about to give.
    pub fn new(base_url: &str, timeout: Duration) -> Result<Self, LedgerError> {
        let shown = redact_url(base_url);
        let base_url =
            Url::parse(base_url).map_err(|e| LedgerError::HorizonClient(format!("invalid base URL {shown:?}: {e}")))?;
        // Endpoints are built by appending path segments, which needs an http(s) URL with a path.
        if !matches!(base_url.scheme(), "http" | "https") || base_url.cannot_be_a_base() {
            return Err(LedgerError::HorizonClient(format!("base URL {shown} is not an http(s) URL")));
        }
        let http = reqwest::Client::builder()
            .timeout(timeout)
            .build()
            .map_err(|e| LedgerError::HorizonClient(format!("cannot build the HTTP client: {e}")))?;
        Ok(HorizonClient { base_url, http })
    }

    /// `GET {base}/accounts/{id}`: the account's current sequence number (Horizon sends it as a
    /// decimal string, because it does not fit a JSON double).
    pub async fn account_sequence(&self, account: &str) -> Result<i64, HorizonError> {
        #[derive(Deserialize)]
        struct Account {
            sequence: String,
        }
        let found: Account = self.account(account).await?;
        found
            .sequence
            .parse()
            .map_err(|e| HorizonError::Other(format!("account sequence {:?} is not an i64: {e}", found.sequence)))
    }

    /// `GET {base}/accounts/{id}`, read as `T`; an account the network does not have is an error.
    async fn account<T: serde::de::DeserializeOwned>(&self, account: &str) -> Result<T, HorizonError> {
        self.account_if_any(account)
            .await?
            .ok_or_else(|| HorizonError::Other(format!("account {account} does not exist on this network")))
    }

    /// `GET {base}/accounts/{id}`, read as `T`; `None` when the network has no such account.
    async fn account_if_any<T: serde::de::DeserializeOwned>(&self, account: &str) -> Result<Option<T>, HorizonError> {
        let (status, body) = self.get(&["accounts", account]).await?;
        if status == StatusCode::NOT_FOUND && is_not_found_problem(&body) {
            return Ok(None);
        }
        if !status.is_success() {
            return Err(classify_failure(status, &body));
        }
        parse(&body).map(Some)
    }

    /// `GET {base}/accounts/{id}`: what the account holds of an asset, as Horizon's decimal
    /// string (`None` issuer: the native asset); `None` when it holds no trustline for it.
    pub async fn account_balance(
        &self,
        account: &str,
        asset_code: &str,
        asset_issuer: Option<&str>,
    ) -> Result<Option<String>, HorizonError> {
        #[derive(Deserialize)]
        struct Account {
            #[serde(default)]
            balances: Vec<Balance>,
        }
        #[derive(Deserialize)]
        struct Balance {
            balance: String,
            asset_type: String,
            asset_code: Option<String>,
            asset_issuer: Option<String>,
        }
        let found: Account = self.account(account).await?;
        let held = found.balances.into_iter().find(|b| match asset_issuer {
            None => b.asset_type == "native",
            Some(issuer) => b.asset_code.as_deref() == Some(asset_code) && b.asset_issuer.as_deref() == Some(issuer),
        });
        Ok(held.map(|b| b.balance))
    }

    /// `GET {base}/accounts/{id}`: the assets the account holds trustlines for (code and issuer;
    /// the native asset as `("native", None)`); `None` when the network has no such account.
    pub async fn account_assets(&self, account: &str) -> Result<Option<Vec<(String, Option<String>)>>, HorizonError> {
        #[derive(Deserialize)]
        struct Account {
            #[serde(default)]
            balances: Vec<Balance>,
        }
        #[derive(Deserialize)]
        struct Balance {
            asset_type: String,
            asset_code: Option<String>,
            asset_issuer: Option<String>,
        }
        let Some(found) = self.account_if_any::<Account>(account).await? else { return Ok(None) };
        let held = found.balances.into_iter().map(|b| match b.asset_type.as_str() {
            "native" => ("native".to_owned(), None),
            _ => (b.asset_code.unwrap_or_default(), b.asset_issuer),
        });
        Ok(Some(held.collect()))
    }

    /// `POST {base}/transactions` with form field `tx=<base64 envelope>`, waiting for the ledger.
    pub async fn submit(&self, envelope_xdr_base64: &str) -> Result<Submitted, HorizonError> {
        let response = self
            .http
            .post(self.endpoint(&["transactions"]))
            .form(&[("tx", envelope_xdr_base64)])
            .send()
            .await
            .map_err(transport_error)?;
        let (status, body) = read(response).await?;
        if !status.is_success() {
            return Err(classify_failure(status, &body));
        }
        let tx: TransactionResource = parse(&body)?;
        // Horizon answers 200 only for successful transactions; a 200 saying otherwise is a server we
        // do not understand, and we cannot claim either "applied" or "refused".
        if tx.successful == Some(false) {
            return Err(HorizonError::Other(format!("HTTP 200 for transaction {} marked unsuccessful", tx.hash)));
        }
        Ok(Submitted { hash: tx.hash, ledger: tx.ledger })
    }

    /// `GET {base}/transactions/{hash}`: `Some(ledger)` when the network applied it successfully,
    /// `None` when Horizon does not know it (404). A transaction that made it into a ledger but
    /// *failed* is reported as `Rejected { tx_code: "tx_failed" }` with its operations' codes
    /// from the result XDR: it is final, and nothing moved.
    pub async fn transaction_ledger(&self, hash: &str) -> Result<Option<i64>, HorizonError> {
        let (status, body) = self.get(&["transactions", hash]).await?;
        if status == StatusCode::NOT_FOUND && is_not_found_problem(&body) {
            return Ok(None);
        }
        if !status.is_success() {
            return Err(classify_failure(status, &body));
        }
        let tx: TransactionResource = parse(&body)?;
        if tx.successful == Some(false) {
            // The submission's own answer named the operation's code; when it was lost, the
            // result XDR still does (`op_no_destination` tells the organization far more than
            // `tx_failed`).
            let op_codes = tx.result_xdr.as_deref().map(failed_operation_codes).unwrap_or_default();
            return Err(HorizonError::Rejected {
                tx_code: "tx_failed".to_owned(),
                op_codes,
                message: format!("transaction {hash} was included in ledger {} but failed", tx.ledger),
            });
        }
        Ok(Some(tx.ledger))
    }

    /// `GET {base}/accounts/{id}/payments?order=asc&join=transactions`: payments to and from the
    /// account after `cursor` (a `paging_token`; `None` starts at the account's first payment), oldest
    /// first, with their transaction's memo.
    pub async fn payments(
        &self,
        account: &str,
        cursor: Option<&str>,
        limit: u32,
    ) -> Result<Vec<PaymentRecord>, HorizonError> {
        #[derive(Deserialize)]
        struct Page {
            #[serde(rename = "_embedded")]
            embedded: Embedded,
        }
        #[derive(Deserialize)]
        struct Embedded {
            records: Vec<PaymentRecord>,
        }
        let mut url = self.endpoint(&["accounts", account, "payments"]);
        {
            let mut query = url.query_pairs_mut();
            query.append_pair("order", "asc").append_pair("limit", &limit.to_string());
            query.append_pair("join", "transactions");
            if let Some(cursor) = cursor {
                query.append_pair("cursor", cursor);
            }
        }
        let response = self.http.get(url).send().await.map_err(transport_error)?;
        let (status, body) = read(response).await?;
        if !status.is_success() {
            return Err(classify_failure(status, &body));
        }
        Ok(parse::<Page>(&body)?.embedded.records)
    }

    /// When the newest ledger Horizon has ingested closed, in Unix seconds (from its root
    /// resource's `history_latest_ledger_closed_at`).
    pub async fn latest_ledger_closed_at(&self) -> Result<u64, HorizonError> {
        Ok(self.root_resource().await?.latest_closed_at)
    }

    /// Horizon's root resource: the network it serves and how much history it keeps.
    pub async fn root(&self) -> Result<HorizonRoot, HorizonError> {
        let root = self.root_resource().await?;
        let missing = |field: &str| HorizonError::Other(format!("Horizon's root resource has no {field}"));
        Ok(HorizonRoot {
            network_passphrase: root.network_passphrase.ok_or_else(|| missing("network_passphrase"))?,
            elder_ledger: root.elder_ledger.ok_or_else(|| missing("history_elder_ledger"))?,
            latest_closed_at: root.latest_closed_at,
        })
    }

    async fn root_resource(&self) -> Result<RootResource, HorizonError> {
        #[derive(Deserialize)]
        struct Root {
            network_passphrase: Option<String>,
            history_elder_ledger: Option<i64>,
            history_latest_ledger_closed_at: String,
        }
        let (status, body) = self.get(&[]).await?;
        if !status.is_success() {
            return Err(classify_failure(status, &body));
        }
        let root: Root = parse(&body)?;
        Ok(RootResource {
            network_passphrase: root.network_passphrase,
            elder_ledger: root.history_elder_ledger,
            latest_closed_at: unix_seconds(&root.history_latest_ledger_closed_at, "latest ledger close time")?,
        })
    }

    /// `GET {base}/ledgers/{sequence}`: when that ledger closed, in Unix seconds.
    pub async fn ledger_closed_at(&self, sequence: i64) -> Result<u64, HorizonError> {
        #[derive(Deserialize)]
        struct Ledger {
            closed_at: String,
        }
        let (status, body) = self.get(&["ledgers", &sequence.to_string()]).await?;
        if !status.is_success() {
            return Err(classify_failure(status, &body));
        }
        unix_seconds(&parse::<Ledger>(&body)?.closed_at, "ledger close time")
    }

    fn endpoint(&self, segments: &[&str]) -> Url {
        let mut url = self.base_url.clone();
        // `new` rejected cannot-be-a-base URLs, so this cannot fail. Pushing segments (rather than
        // formatting strings) percent-encodes them, so an odd account id cannot change the path.
        url.path_segments_mut().expect("checked in HorizonClient::new").pop_if_empty().extend(segments);
        url
    }

    async fn get(&self, segments: &[&str]) -> Result<(StatusCode, Vec<u8>), HorizonError> {
        let response = self.http.get(self.endpoint(segments)).send().await.map_err(transport_error)?;
        read(response).await
    }
}

/// What Horizon's root resource says of its network and history.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HorizonRoot {
    pub network_passphrase: String,
    /// The oldest ledger Horizon keeps history for: a transaction applied before it is not
    /// found, so "not found" proves nothing about anything older.
    pub elder_ledger: i64,
    /// When the newest ledger it has ingested closed, in Unix seconds.
    pub latest_closed_at: u64,
}

struct RootResource {
    network_passphrase: Option<String>,
    elder_ledger: Option<i64>,
    latest_closed_at: u64,
}

/// An RFC 3339 time from Horizon, in Unix seconds.
fn unix_seconds(text: &str, what: &str) -> Result<u64, HorizonError> {
    let at = text
        .parse::<jiff::Timestamp>()
        .map_err(|e| HorizonError::Other(format!("Horizon's {what} {text:?} does not parse: {e}")))?;
    u64::try_from(at.as_second()).map_err(|_| HorizonError::Other(format!("Horizon's {what} is before 1970")))
}

/// One record of Horizon's payments endpoint, reduced to what matching an incoming payment needs.
/// Operation types other than payments (`create_account`, ...) leave the payment fields empty.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
pub struct PaymentRecord {
    pub paging_token: String,
    #[serde(rename = "type")]
    pub kind: String,
    pub transaction_hash: String,
    #[serde(default)]
    pub transaction_successful: bool,
    #[serde(default)]
    pub from: String,
    #[serde(default)]
    pub to: String,
    #[serde(default)]
    pub asset_type: String,
    pub asset_code: Option<String>,
    pub asset_issuer: Option<String>,
    /// A decimal string with seven places, e.g. `"12.5000000"`.
    #[serde(default)]
    pub amount: String,
    /// Present because the request joins transactions.
    pub transaction: Option<PaymentTransaction>,
}

#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
pub struct PaymentTransaction {
    pub ledger: i64,
    #[serde(default)]
    pub memo_type: String,
    pub memo: Option<String>,
}

/// The fields of Horizon's transaction resource (also the body of a successful submission) we use.
#[derive(Deserialize)]
struct TransactionResource {
    hash: String,
    ledger: i64,
    // Absent in some older Horizon versions' submission response; only an explicit `false` counts.
    successful: Option<bool>,
    /// The `TransactionResult` XDR: why a transaction that failed in a ledger failed.
    #[serde(default)]
    result_xdr: Option<String>,
}

/// Horizon's RFC 7807 problem document, reduced to what we classify on.
#[derive(Deserialize)]
struct Problem {
    #[serde(rename = "type", default)]
    kind: String,
    #[serde(default)]
    title: String,
    #[serde(default)]
    detail: String,
    extras: Option<ProblemExtras>,
}

#[derive(Deserialize)]
struct ProblemExtras {
    result_codes: Option<ResultCodes>,
}

#[derive(Deserialize)]
struct ResultCodes {
    transaction: String,
    #[serde(default)]
    operations: Vec<String>,
}

/// A request that failed below HTTP: refused, reset, timed out. The request may have been delivered
/// (only the answer lost), so this is never evidence that nothing happened.
fn transport_error(e: reqwest::Error) -> HorizonError {
    let kind = if e.is_timeout() { "timed out" } else { "failed" };
    // reqwest's text names the URL, with whatever credentials the base URL carries.
    HorizonError::Unknown(format!("request {kind}: {}", e.without_url()))
}

async fn read(response: reqwest::Response) -> Result<(StatusCode, Vec<u8>), HorizonError> {
    let status = response.status();
    // Losing the body mid-way is a transport failure too: a 200 may have been on its way.
    let body = response.bytes().await.map_err(transport_error)?;
    Ok((status, body.to_vec()))
}

fn parse<T: serde::de::DeserializeOwned>(body: &[u8]) -> Result<T, HorizonError> {
    serde_json::from_slice(body)
        .map_err(|e| HorizonError::Other(format!("cannot parse Horizon's JSON ({e}): {}", excerpt(body))))
}

fn is_not_found_problem(body: &[u8]) -> bool {
    serde_json::from_slice::<Problem>(body).is_ok_and(|p| p.kind == NOT_FOUND_TYPE)
}

/// Classifies a non-2xx response.
fn classify_failure(status: StatusCode, body: &[u8]) -> HorizonError {
    let problem = serde_json::from_slice::<Problem>(body).ok();
    let summary = match &problem {
        Some(p) if !p.title.is_empty() => format!("HTTP {status}: {} {}", p.title, p.detail).trim_end().to_owned(),
        _ => format!("HTTP {status}: {}", excerpt(body)),
    };
    // 5xx (Horizon's 504 Timeout, a 502 from a proxy, 503 while catching up) and 429 (rate limited)
    // say nothing about whether the transaction reached the network, so they are unknown even when
    // they look like "not accepted": the safe response to both is resubmitting the same envelope.
    if status.is_server_error() || status == StatusCode::TOO_MANY_REQUESTS {
        return HorizonError::Unknown(summary);
    }
    match problem {
        Some(Problem { extras: Some(ProblemExtras { result_codes: Some(codes) }), title, detail, .. }) => {
            HorizonError::Rejected {
                tx_code: codes.transaction,
                op_codes: codes.operations,
                message: format!("{title} {detail}").trim().to_owned(),
            }
        }
        _ => HorizonError::Other(summary),
    }
}

fn excerpt(body: &[u8]) -> String {
    String::from_utf8_lossy(body).chars().take(BODY_EXCERPT_CHARS).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rejected(tx: &str, ops: &[&str]) -> HorizonError {
        HorizonError::Rejected {
            tx_code: tx.into(),
            op_codes: ops.iter().map(|s| s.to_string()).collect(),
            message: String::new(),
        }
    }

    #[test]
    fn error_code_prefers_the_failing_operation() {
        assert_eq!(rejected("tx_failed", &["op_success", "op_underfunded"]).error_code(), "op_underfunded");
        // No operation codes (or all op_success) falls back to the transaction code.
        assert_eq!(rejected("tx_failed", &[]).error_code(), "tx_failed");
        assert_eq!(rejected("tx_bad_auth", &["op_no_destination"]).error_code(), "tx_bad_auth");
        assert_eq!(HorizonError::Unknown("x".into()).error_code(), "unknown");
    }

    #[test]
    fn finality() {
        assert!(rejected("tx_failed", &["op_no_destination"]).is_final());
        assert!(rejected("tx_too_late", &[]).is_final());
        assert!(rejected("tx_bad_auth", &[]).is_final());
        assert!(!rejected("tx_bad_seq", &[]).is_final());
        assert!(!rejected("tx_insufficient_fee", &[]).is_final());
        assert!(!HorizonError::Unknown("x".into()).is_final());
        assert!(!HorizonError::Other("x".into()).is_final());
    }

    #[test]
    fn classifies_problems() {
        let timeout = br#"{"type":"https://stellar.org/horizon-errors/timeout","title":"Timeout","status":504}"#;
        assert!(matches!(classify_failure(StatusCode::GATEWAY_TIMEOUT, timeout), HorizonError::Unknown(_)));
        assert!(matches!(classify_failure(StatusCode::BAD_GATEWAY, b"<html>"), HorizonError::Unknown(_)));
        let malformed = br#"{"type":"https://stellar.org/horizon-errors/transaction_malformed","title":"Transaction Malformed","status":400}"#;
        assert!(matches!(classify_failure(StatusCode::BAD_REQUEST, malformed), HorizonError::Other(_)));
    }

    #[test]
    fn new_rejects_non_http_base_urls() {
        for bad in ["not a url", "mailto:ops@example.com", "ftp://example.com"] {
            let e = HorizonClient::new(bad, Duration::from_secs(1)).unwrap_err();
            assert!(matches!(e, LedgerError::HorizonClient(_)), "{bad}: {e}");
        }
        let client = HorizonClient::new("https://horizon.example.com/base/", Duration::from_secs(1)).unwrap();
        assert_eq!(client.endpoint(&["accounts", "G/A"]).as_str(), "https://horizon.example.com/base/accounts/G%2FA");
    }
}
