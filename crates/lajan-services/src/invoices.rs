//! Invoice use cases: create (and send at once), update a draft, send, void, and the overdue
//! rule the overdue job applies. Each validates, applies the rule and commits one unit of work
//! with its event (and, for a send, its messages).

use crate::events::{PaidEventMakers, invoice_event, message_event};
use crate::messages::invoice_messages;
use crate::{ServiceError, ServiceResult, Services};
use lajan_domain::id::IdKind;
use lajan_domain::installment::{InstallmentInput, parse_installments, plan_due_date};
use lajan_domain::invoice::InvoiceDetail;
use lajan_domain::invoice::{
    DueDate, Invoice, InvoiceAction, InvoiceStatus, LineItem, LineItemInput, Totals, parse_memo, price_line_items,
};
use lajan_domain::message::{Channel, Message};
use lajan_domain::money::Currency;
use lajan_domain::payment::{IntentStatus, PaymentIntent, new_reference};
use lajan_domain::settings::Settings;
use lajan_domain::validation::FieldErrors;
use lajan_domain::{Invalid, Tenant, Timestamp};
use lajan_store::invoices::InvoiceChanges;
use lajan_store::messages::InvoiceSending;
use lajan_store::{Change, IdempotentResponse, StoreError, StoreResult};

/// An invoice as a caller asks for it, before validation.
#[derive(Debug, Clone, Default)]
pub struct InvoiceRequest {
    pub client_id: Option<String>,
    pub currency: Option<String>,
    pub due_date: Option<String>,
    pub line_items: Option<Vec<LineItemInput>>,
    pub memo: Option<String>,
    /// The parts the total is due in; then `due_date` may be left out (it is the last part's).
    pub installments: Option<Vec<InstallmentInput>>,
    /// Pay what it can from the client's credit balance in its currency when first sent.
    pub apply_credit_balance: bool,
    pub send_immediately: bool,
}

/// Changes to a draft: `None` keeps a field; `memo: Some(None)` clears the memo.
#[derive(Debug, Clone, Default)]
pub struct InvoiceUpdate {
    pub client_id: Option<String>,
    pub currency: Option<String>,
    pub due_date: Option<String>,
    pub line_items: Option<Vec<LineItemInput>>,
    pub memo: Option<Option<String>>,
    pub installments: Option<Vec<InstallmentInput>>,
    pub apply_credit_balance: Option<bool>,
}

/// An invoice sent: the invoice after the send, and the messages queued.
pub type Sent = (InvoiceDetail, Vec<Message>);

fn parse_currency(raw: &str) -> Result<Currency, Invalid> {
    raw.parse().map_err(|e: String| Invalid::new("invalid_currency", e))
}

fn invalid_client(id: &str) -> Invalid {
    Invalid::new("invalid_client", format!("No client with id {id:?}"))
}

impl Services {
    /// Creates a draft invoice and its payment intent, with `invoice.created`; with
    /// `send_immediately`, sends it in the same transaction, so a retry never finds one without
    /// the other.
    pub async fn create_invoice(
        &self,
        tenant: &Tenant,
        r: InvoiceRequest,
        idempotency: Option<IdempotentResponse<'_, InvoiceDetail>>,
    ) -> ServiceResult<InvoiceDetail> {
        let mut errors = FieldErrors::new();
        let planned = r.installments.as_ref().is_some_and(|rows| !rows.is_empty());
        for (field, present) in [
            ("clientId", r.client_id.is_some()),
            ("dueDate", r.due_date.is_some() || planned),
            ("lineItems", r.line_items.is_some()),
        ] {
            if !present {
                errors.add(field, "is required");
            }
        }
        let memo = parse_memo(r.memo.as_deref(), &mut errors);
        errors.finish()?;
        let (Some(client_id), Some(items)) = (r.client_id, r.line_items) else {
            return Err(Invalid::new("validation_error", "clientId, dueDate and lineItems are required").into());
        };
        let currency = r.currency.as_deref().map(parse_currency).transpose()?;
        let given_due = r.due_date.as_deref().map(DueDate::parse).transpose()?;
        let rows = r.installments.unwrap_or_default();
        // Priced with the defaults the creating transaction reads, which then checks the client:
        // the line items' errors come before `invalid_client`, in the documented order.
        let draft = |s: &Settings| {
            let (line_items, totals) = price_line_items(&items, s.default_tax_rate)?;
            let plan = parse_installments(&rows, totals.total)?;
            let due_date = plan_due_date(&plan, given_due)?
                .ok_or_else(|| Invalid::fields(vec![lajan_domain::FieldError::new("dueDate", "is required")]))?;
            let currency = currency.unwrap_or(s.default_currency);
            let (mut invoice, intent) =
                new_invoice(tenant, client_id.clone(), currency, due_date, memo.clone(), line_items, totals);
            invoice.installments = plan;
            invoice.apply_credit_balance = r.apply_credit_balance;
            Ok((invoice, intent))
        };
        if r.send_immediately {
            // Sending needs a client that can be reached, refused after the lines and the
            // client's existence: both are checked here first, against the settings as read now.
            draft(&self.store.get_settings(tenant).await?)?;
            let client = self.store.get_client(tenant, &client_id).await?.ok_or_else(|| invalid_client(&client_id))?;
            if !client.reachable() {
                return Err(Invalid::new(
                    "no_channel_available",
                    "sendImmediately needs a client with an email or phone number",
                )
                .into());
            }
        }
        let public_url = self.config.public_url.as_str();
        let organization = if r.send_immediately { self.organization_name(tenant).await? } else { String::new() };
        let messages = |d: &InvoiceDetail| invoice_messages(d, &organization, public_url, &[]);
        let event = |d: &InvoiceDetail| invoice_event("invoice.created", d, public_url);
        let makers = PaidEventMakers::new(public_url);
        let paid = makers.events();
        let sending = InvoiceSending { render: &messages, paid: &paid, message_event: &message_event };
        let send = if r.send_immediately { Some(&sending) } else { None };
        let created = self.store.create_invoice(tenant, &draft, &event, send, idempotency).await?;
        if r.send_immediately {
            self.nudges.messages_queued();
        }
        Ok(created)
    }

    /// Applies changes to a draft (re-pricing the lines with the organization's default tax
    /// rate); `cannot_update` once it left draft.
    pub async fn update_invoice(&self, tenant: &Tenant, id: &str, u: InvoiceUpdate) -> ServiceResult<InvoiceDetail> {
        let mut errors = FieldErrors::new();
        let memo = u.memo.map(|m| parse_memo(m.as_deref(), &mut errors));
        errors.finish()?;
        let currency = u.currency.as_deref().map(parse_currency).transpose()?;
        let due_date = u.due_date.as_deref().map(DueDate::parse).transpose()?;
        // Priced again with the default tax rate the updating transaction reads; checked here so
        // their errors come in the documented order.
        if let Some(items) = &u.line_items {
            price_line_items(items, self.store.get_settings(tenant).await?.default_tax_rate)?;
        }
        let changes = InvoiceChanges {
            client_id: u.client_id,
            currency,
            due_date,
            line_items: u.line_items,
            memo,
            installments: u.installments,
            apply_credit_balance: u.apply_credit_balance,
        };
        self.store
            .update_invoice(tenant, id, &changes, Timestamp::now())
            .await
            .map_err(ServiceError::not_found_as("invoice"))
    }

    /// Queues the invoice's messages on `channels` (empty: every channel the client can
    /// receive) and marks it sent, with `invoice.sent`.
    pub async fn send_invoice(
        &self,
        tenant: &Tenant,
        id: &str,
        channels: &[Channel],
        idempotency: Option<IdempotentResponse<'_, Sent>>,
    ) -> ServiceResult<Sent> {
        let organization = self.organization_name(tenant).await?;
        let public_url = self.config.public_url.as_str();
        let messages = |d: &InvoiceDetail| invoice_messages(d, &organization, public_url, channels);
        let event = |d: &InvoiceDetail| invoice_event("invoice.sent", d, public_url);
        let makers = PaidEventMakers::new(public_url);
        let paid = makers.events();
        let sending = InvoiceSending { render: &messages, paid: &paid, message_event: &message_event };
        let sent = self
            .store
            .send_invoice(tenant, id, Timestamp::now(), &sending, &event, idempotency)
            .await
            .map_err(ServiceError::not_found_as("invoice"))?;
        self.nudges.messages_queued();
        Ok(sent)
    }

    /// Voids an unpaid invoice (its payment link stops taking payments), with `invoice.voided`.
    pub async fn void_invoice(
        &self,
        tenant: &Tenant,
        id: &str,
        reason: Option<&str>,
        idempotency: Option<IdempotentResponse<'_, (InvoiceDetail, bool)>>,
    ) -> ServiceResult<(InvoiceDetail, bool)> {
        let public_url = self.config.public_url.as_str();
        let event = |d: &InvoiceDetail| invoice_event("invoice.voided", d, public_url);
        self.store
            .invoice_action(
                id,
                InvoiceAction::Void,
                reason,
                Change { tenant, at: Timestamp::now(), events: &event, idempotency },
            )
            .await
            .map_err(ServiceError::not_found_as("invoice"))
    }

    /// A sent invoice's page was opened: it becomes viewed, with `invoice.viewed`.
    pub async fn mark_viewed(&self, tenant: &Tenant, id: &str) -> StoreResult<InvoiceDetail> {
        let public_url = self.config.public_url.as_str();
        let event = |d: &_| invoice_event("invoice.viewed", d, public_url);
        let (viewed, _) = self
            .store
            .invoice_action(id, InvoiceAction::View, None, Change::unkeyed(tenant, Timestamp::now(), &event))
            .await?;
        Ok(viewed)
    }

    /// Sent and viewed invoices whose due date has passed in their organization's timezone
    /// become overdue. Safe to run in several processes at once: the transition re-checks the
    /// status under a row lock, so each invoice moves (and emits) once. Returns how many moved.
    pub async fn mark_overdue(&self, now: Timestamp) -> StoreResult<usize> {
        // A date that has passed anywhere on Earth is at most today's UTC date.
        let today_utc = jiff::Timestamp::from_millisecond(now.as_millis())
            .map(|t| t.to_zoned(jiff::tz::TimeZone::UTC).date().to_string())
            .map_err(|e| StoreError::Corrupt(e.to_string()))?;
        let public_url = self.config.public_url.as_str();
        let event = |d: &_| invoice_event("invoice.overdue", d, public_url);
        let mut moved = 0;
        for (tenant, id, due, tz) in self.store.overdue_candidates(&today_utc, 1000).await? {
            if !due.has_passed(now, &tz) {
                continue;
            }
            match self
                .store
                .invoice_action(&id, InvoiceAction::MarkOverdue, None, Change::unkeyed(&tenant, now, &event))
                .await
            {
                Ok((_, true)) => moved += 1,
                Ok((_, false)) | Err(StoreError::NotFound) => {}
                Err(e) => return Err(e),
            }
        }
        Ok(moved)
    }

    /// The organization's name, which its invoice messages carry.
    pub(crate) async fn organization_name(&self, tenant: &Tenant) -> StoreResult<String> {
        let org = self.store.get_organization(&tenant.org_id).await?;
        org.map(|o| o.name).ok_or_else(|| StoreError::Corrupt("tenant without organization".into()))
    }
}

/// A new draft invoice and its payment intent, ready for `Store::create_invoice`.
pub fn new_invoice(
    tenant: &Tenant,
    client_id: String,
    currency: Currency,
    due_date: DueDate,
    memo: Option<String>,
    line_items: Vec<LineItem>,
    totals: Totals,
) -> (Invoice, PaymentIntent) {
    let now = Timestamp::now();
    let id = IdKind::Invoice.generate();
    let intent = PaymentIntent {
        id: IdKind::PaymentIntent.generate(),
        org_id: tenant.org_id.clone(),
        env: tenant.env,
        amount: totals.total,
        currency,
        reference: new_reference(),
        status: IntentStatus::Active,
        amount_received: 0,
        invoice_id: Some(id.clone()),
        payment_link_id: None,
        created_at: now,
        paid_at: None,
        expires_at: None,
    };
    let invoice = Invoice {
        id,
        number: String::new(),
        client_id,
        currency,
        status: InvoiceStatus::Draft,
        due_date,
        memo,
        line_items,
        totals,
        amount_paid: 0,
        amount_overpaid: 0,
        amount_credited: 0,
        installments: Vec::new(),
        apply_credit_balance: false,
        payment_intent_id: intent.id.clone(),
        created_at: now,
        updated_at: now,
        sent_at: None,
        paid_at: None,
        voided_at: None,
        void_reason: None,
    };
    (invoice, intent)
}
