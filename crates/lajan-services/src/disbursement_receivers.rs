//! Disbursement rows that name their receiver by phone number or email instead of a client or a
//! wallet: each is found among the organization's clients, or a client is made for it (stored
//! with the draft, in its transaction), so a row can pay someone who has no wallet yet.

use crate::clients::seal;
use crate::disbursements::ItemRequest;
use crate::{ServiceError, ServiceResult, Services};
use lajan_domain::client::{Client, ClientInput, Email};
use lajan_domain::id::IdKind;
use lajan_domain::phone::PhoneNumber;
use lajan_domain::{FieldError, Invalid, Tenant, Timestamp};
use std::collections::HashMap;

/// The clients the contact rows pay, by row, and those among them that are new.
#[derive(Default)]
pub(crate) struct Receivers {
    pub by_row: HashMap<u32, Client>,
    pub new: Vec<Client>,
}

/// The clients the rows may pay, found by phone number or by email (any ASCII letter case) in
/// constant time, so a file of thousands of rows costs what it holds, not its square.
#[derive(Default)]
struct Directory {
    clients: Vec<Client>,
    by_phone: HashMap<String, usize>,
    by_email: HashMap<String, usize>,
}

impl Directory {
    fn add(&mut self, client: Client) {
        let at = self.clients.len();
        if let Some(phone) = &client.phone_number {
            self.by_phone.entry(phone.clone()).or_insert(at);
        }
        if let Some(email) = &client.email {
            self.by_email.entry(email.to_ascii_lowercase()).or_insert(at);
        }
        self.clients.push(client);
    }

    /// The client with this phone number, and the one with this email.
    fn find(&self, phone: Option<&PhoneNumber>, email: Option<&Email>) -> (Option<&Client>, Option<&Client>) {
        let at = |i: Option<&usize>| i.map(|&i| &self.clients[i]);
        (
            at(phone.and_then(|p| self.by_phone.get(p.as_str()))),
            at(email.and_then(|e| self.by_email.get(&e.as_str().to_ascii_lowercase()))),
        )
    }
}

/// A row naming its receiver by contact only: neither `clientId` nor `walletAccountId`.
fn by_contact(r: &ItemRequest) -> bool {
    r.client_id.is_none() && r.wallet_account_id.is_none() && (r.phone_number.is_some() || r.email.is_some())
}

fn row_error(row: u32, field: &str, code: &'static str, message: impl Into<String>) -> FieldError {
    FieldError::in_row(row, field, Invalid::new(code, message))
}

impl Services {
    /// The receiver of every contact row: the organization's client with that phone number or
    /// email (the same contact on several rows is one client), else a new client from the row's
    /// names, language default and verification. A row whose contact is malformed, whose phone
    /// and email belong to two clients, or that would make a client without its names is put in
    /// `bad` instead.
    pub(crate) async fn receivers_of(
        &self,
        tenant: &Tenant,
        requests: &[ItemRequest],
        bad: &mut Vec<FieldError>,
    ) -> ServiceResult<Receivers> {
        let mut wanted = Vec::new();
        if !requests.iter().any(by_contact) {
            return Ok(Receivers::default());
        }
        let settings = self.store.get_settings(tenant).await?;
        for r in requests.iter().filter(|r| by_contact(r)) {
            let phone = r.phone_number.as_deref().map(|p| PhoneNumber::parse_in(p, settings.country)).transpose();
            let email = r.email.as_deref().map(Email::parse).transpose();
            match (phone, email) {
                (Err(e), _) => bad.push(row_error(r.row, "phoneNumber", "invalid_phone", format!("phoneNumber {e}"))),
                (_, Err(e)) => bad.push(row_error(r.row, "email", "invalid_email", format!("email {e}"))),
                (Ok(phone), Ok(email)) => wanted.push((r, phone, email)),
            }
        }
        if wanted.is_empty() {
            return Ok(Receivers::default());
        }
        let phones: Vec<String> =
            wanted.iter().filter_map(|(_, p, _)| p.as_ref().map(|p| p.as_str().to_owned())).collect();
        let emails: Vec<String> =
            wanted.iter().filter_map(|(_, _, e)| e.as_ref().map(|e| e.as_str().to_owned())).collect();
        let mut known = Directory::default();
        for client in self.store.clients_by_contact(tenant, &phones, &emails).await? {
            known.add(client);
        }
        let language = settings.receivers.default_client_language;
        let now = Timestamp::now();
        let (mut receivers, mut answers) = (Receivers::default(), Vec::new());
        for (r, phone, email) in wanted {
            match known.find(phone.as_ref(), email.as_ref()) {
                (Some(a), Some(b)) if a.id != b.id => bad.push(row_error(
                    r.row,
                    "email",
                    "ambiguous_recipient",
                    format!(
                        "phoneNumber is client {}'s and email is client {}'s: give the clientId of the one to pay",
                        a.id, b.id
                    ),
                )),
                (Some(c), _) | (None, Some(c)) => {
                    receivers.by_row.insert(r.row, c.clone());
                }
                (None, None) => {
                    let input = ClientInput {
                        first_name: r.first_name.clone(),
                        last_name: r.last_name.clone(),
                        email: r.email.clone(),
                        phone_number: r.phone_number.clone(),
                        wallet_account_id: None,
                        wallet_memo: None,
                        wallet_memo_type: None,
                        language: None,
                        reminders_enabled: None,
                        verification: r.verification.clone(),
                    };
                    match input.into_client(IdKind::Client.generate(), now, settings.country) {
                        Err(refused) => {
                            let first = refused.details.into_iter().next();
                            let (field, message) = first.map_or(("row".to_owned(), refused.message), |d| {
                                let message = format!("{} {} (a new client is made for this row)", d.field, d.message);
                                (d.field, message)
                            });
                            bad.push(row_error(r.row, &field, "validation_error", message));
                        }
                        Ok((mut client, answer)) => {
                            client.language = language;
                            answers.push(answer);
                            receivers.by_row.insert(r.row, client.clone());
                            receivers.new.push(client.clone());
                            // Later rows with the same contact pay this client too.
                            known.add(client);
                        }
                    }
                }
            }
        }
        if !bad.is_empty() {
            // Nothing will be stored: no answer needs its slow hash.
            return Ok(receivers);
        }
        // Each answer is sealed with its own slow hash; they run side by side, as many at once
        // as the password gate has slots.
        let mut sealing = tokio::task::JoinSet::new();
        for (i, answer) in answers.into_iter().enumerate() {
            let gate = self.password_gate.clone();
            sealing.spawn(async move { (i, seal(&gate, answer).await) });
        }
        while let Some(done) = sealing.join_next().await {
            let (i, sealed) = done.map_err(|e| ServiceError::Unavailable(format!("hashing stopped: {e}")))?;
            receivers.new[i].verification = sealed?;
        }
        Ok(receivers)
    }
}
