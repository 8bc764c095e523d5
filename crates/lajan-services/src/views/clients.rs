//! How a client looks from outside.

use lajan_domain::Timestamp;
use lajan_domain::client::Client;
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
            created_at: c.created_at,
            updated_at: c.updated_at,
        }
    }
}
