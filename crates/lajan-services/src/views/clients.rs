//! How a client looks from outside: in full, and as the resources that name one embed it.

use lajan_domain::Timestamp;
use lajan_domain::client::Client;
use lajan_domain::stellar_memo::StellarMemo;
use serde::Serialize;
use utoipa::ToSchema;

/// A client: a person the organization invoices and pays.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ClientView {
    #[schema(example = "cli_0193a1b2c3d47e8f9a0b1c2d3e4f5a6b")]
    pub id: String,
    pub first_name: String,
    pub last_name: String,
    pub email: Option<String>,
    /// E.164.
    #[schema(example = "+50937000000")]
    pub phone_number: Option<String>,
    /// Stellar account (StrKey, `G...`).
    #[schema(example = "GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H")]
    pub wallet_account_id: Option<String>,
    /// The memo the wallet needs to credit the client (a custodial wallet or an exchange): text
    /// (at most 28 bytes), an id (a whole number) or a hash (64 hex digits). Every payout to the
    /// wallet carries it. null when the wallet needs none.
    #[schema(example = "1234567")]
    pub wallet_memo: Option<String>,
    /// text, id or hash (null with `walletMemo`).
    #[schema(value_type = Option<String>, example = "id")]
    pub wallet_memo_type: Option<&'static str>,
    /// The language Lajan speaks to the client in: invitations, messages and the pages they
    /// open (`ht` Haitian Creole, `fr` French, `en` English).
    #[schema(value_type = String, example = "ht", pattern = "^(ht|fr|en)$")]
    pub language: &'static str,
    /// Whether the organization's payment reminders go to the client.
    pub reminders_enabled: bool,
    /// What the receiver must answer before registering a wallet, when the organization asks.
    /// The answer is never returned: it is kept only as a slow hash.
    pub verification: Option<VerificationView>,
    #[schema(value_type = String, format = DateTime)]
    pub created_at: Timestamp,
    #[schema(value_type = String, format = DateTime)]
    pub updated_at: Timestamp,
}

impl From<&Client> for ClientView {
    fn from(c: &Client) -> Self {
        ClientView {
            id: c.id.clone(),
            first_name: c.first_name.clone(),
            last_name: c.last_name.clone(),
            email: c.email.clone(),
            phone_number: c.phone_number.clone(),
            wallet_account_id: c.wallet_account_id.clone(),
            wallet_memo: c.wallet_memo.as_ref().map(StellarMemo::value),
            wallet_memo_type: c.wallet_memo.as_ref().map(|m| m.kind().as_str()),
            language: c.language.as_str(),
            reminders_enabled: c.reminders_enabled,
            verification: c.verification.as_ref().map(|v| VerificationView { kind: v.kind.as_str() }),
            created_at: c.created_at,
            updated_at: c.updated_at,
        }
    }
}

/// The question a client's receiver must answer; never its answer.
#[derive(Debug, Serialize, ToSchema)]
pub struct VerificationView {
    /// `date_of_birth`, `national_id`, `pin` or `year_month`.
    #[serde(rename = "type")]
    #[schema(value_type = String, example = "date_of_birth")]
    pub kind: &'static str,
}

/// The client an invoice row names.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ClientSummary {
    pub id: String,
    pub first_name: String,
    pub last_name: String,
}

/// The client an invoice is addressed to.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ClientContact {
    pub id: String,
    pub first_name: String,
    pub last_name: String,
    pub email: Option<String>,
}

/// The client a payout row pays.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PayoutClientSummary {
    pub id: String,
    pub first_name: String,
    pub last_name: String,
    pub wallet_account_id: Option<String>,
}

/// The client a payout pays, with the contacts its recipient may need.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PayoutClient {
    pub id: String,
    pub first_name: String,
    pub last_name: String,
    pub wallet_account_id: Option<String>,
    pub phone_number: Option<String>,
    pub email: Option<String>,
}

impl From<&Client> for ClientSummary {
    fn from(c: &Client) -> Self {
        ClientSummary { id: c.id.clone(), first_name: c.first_name.clone(), last_name: c.last_name.clone() }
    }
}

impl From<&Client> for ClientContact {
    fn from(c: &Client) -> Self {
        ClientContact {
            id: c.id.clone(),
            first_name: c.first_name.clone(),
            last_name: c.last_name.clone(),
            email: c.email.clone(),
        }
    }
}

impl From<&Client> for PayoutClientSummary {
    fn from(c: &Client) -> Self {
        PayoutClientSummary {
            id: c.id.clone(),
            first_name: c.first_name.clone(),
            last_name: c.last_name.clone(),
            wallet_account_id: c.wallet_account_id.clone(),
        }
    }
}

impl From<&Client> for PayoutClient {
    fn from(c: &Client) -> Self {
        PayoutClient {
            id: c.id.clone(),
            first_name: c.first_name.clone(),
            last_name: c.last_name.clone(),
            wallet_account_id: c.wallet_account_id.clone(),
            phone_number: c.phone_number.clone(),
            email: c.email.clone(),
        }
    }
}
