//! How a receiver's invitation looks from outside, alone and inside its `client.invited` event.

use crate::views::clients::ClientView;
use lajan_domain::Timestamp;
use lajan_domain::client::Client;
use lajan_domain::invitation::Invitation;
use serde::Serialize;
use utoipa::ToSchema;

/// A client's invitation to register a wallet.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InvitationView {
    /// Always `invitation`.
    #[schema(example = "invitation")]
    pub object: &'static str,
    #[schema(example = "cli_0193a1b2c3d47e8f9a0b1c2d3e4f5a6b")]
    pub client_id: String,
    /// `invited` (a payout waits; the receiver has a link), `registered` (they gave a wallet),
    /// `locked` (too many wrong answers; the organization unlocks it) or `expired` (no payout
    /// waits any more; the links are dead).
    #[schema(example = "invited", pattern = "^(invited|registered|locked|expired)$")]
    pub status: &'static str,
    /// How many times it was sent, by the schedule or by hand; each send carries a new link.
    #[schema(example = 1)]
    pub sends: i64,
    #[schema(value_type = Option<String>, format = DateTime)]
    pub last_sent_at: Option<Timestamp>,
    /// When it is sent again unless the receiver registers first; null once the settings'
    /// `invitationResends` are spent.
    #[schema(value_type = Option<String>, format = DateTime)]
    pub next_send_at: Option<Timestamp>,
    #[schema(value_type = String, format = DateTime)]
    pub created_at: Timestamp,
    #[schema(value_type = Option<String>, format = DateTime)]
    pub registered_at: Option<Timestamp>,
    #[schema(value_type = Option<String>, format = DateTime)]
    pub locked_at: Option<Timestamp>,
}

impl From<&Invitation> for InvitationView {
    fn from(i: &Invitation) -> Self {
        InvitationView {
            object: "invitation",
            client_id: i.client_id.clone(),
            status: i.status.as_str(),
            sends: i.sends,
            last_sent_at: i.last_sent_at,
            next_send_at: i.next_send_at,
            created_at: i.created_at,
            registered_at: i.registered_at,
            locked_at: i.locked_at,
        }
    }
}

/// The `data.object` of `client.invited`: the client, and its invitation as of the send.
#[derive(Debug, Serialize, ToSchema)]
pub struct InvitedClientView {
    #[serde(flatten)]
    pub client: ClientView,
    pub invitation: InvitationView,
}

impl InvitedClientView {
    pub fn new(client: &Client, invitation: &Invitation) -> Self {
        InvitedClientView { client: ClientView::from(client), invitation: InvitationView::from(invitation) }
    }
}
