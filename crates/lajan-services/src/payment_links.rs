//! Payment link use cases: create one (with its payment intent) and delete it.

use crate::events::link_event;
use crate::{ServiceError, ServiceResult, Services};
use lajan_domain::id::IdKind;
use lajan_domain::invoice::MAX_DESCRIPTION_CHARS;
use lajan_domain::money::{Currency, parse_amount};
use lajan_domain::payment::PaymentLink;
use lajan_domain::payment::{IntentStatus, PaymentIntent, new_reference};
use lajan_domain::settings::Settings;
use lajan_domain::validation::{FieldErrors, required_text};
use lajan_domain::{Invalid, Tenant, Timestamp};
use lajan_store::IdempotentResponse;

/// A payment link as a caller asks for it, before validation. `amount` is the number's exact
/// decimal text.
#[derive(Debug, Clone, Default)]
pub struct PaymentLinkRequest {
    pub amount: Option<String>,
    pub currency: Option<String>,
    pub description: Option<String>,
    pub expires_at: Option<String>,
}

impl Services {
    /// Validates the link (every bad field at once, then the amount and currency) and records it
    /// with its payment intent and `payment_link.created`.
    pub async fn create_payment_link(
        &self,
        tenant: &Tenant,
        r: PaymentLinkRequest,
        idempotency: Option<IdempotentResponse<'_, PaymentLink>>,
    ) -> ServiceResult<PaymentLink> {
        let now = Timestamp::now();
        let mut errors = FieldErrors::new();
        let description =
            errors.take("description", required_text(r.description.as_deref(), MAX_DESCRIPTION_CHARS, false));
        if r.amount.is_none() {
            errors.add("amount", "is required");
        }
        let expires_at =
            r.expires_at.as_deref().and_then(|raw| errors.take("expiresAt", Timestamp::parse_deadline(raw, now)));
        errors.finish()?;
        let (Some(description), Some(amount)) = (description, r.amount) else {
            return Err(Invalid::new("validation_error", "amount and description are required").into());
        };
        let amount = parse_amount("amount", &amount)?;
        let currency: Option<Currency> = r
            .currency
            .as_deref()
            .map(|c| c.parse().map_err(|e: String| Invalid::new("invalid_currency", e)))
            .transpose()?;
        let id = IdKind::PaymentLink.generate();
        let intent_id = IdKind::PaymentIntent.generate();
        let reference = new_reference();
        // The default currency is the one the creating transaction reads.
        let draft = |s: &Settings| {
            let currency = currency.unwrap_or(s.default_currency);
            PaymentLink {
                id: id.clone(),
                amount,
                currency,
                description: description.clone(),
                created_at: now,
                expires_at,
                intent: PaymentIntent {
                    id: intent_id.clone(),
                    org_id: tenant.org_id.clone(),
                    env: tenant.env,
                    amount,
                    currency,
                    reference: reference.clone(),
                    status: IntentStatus::Active,
                    amount_received: 0,
                    invoice_id: None,
                    payment_link_id: Some(id.clone()),
                    created_at: now,
                    paid_at: None,
                    expires_at,
                },
            }
        };
        let public_url = self.config.public_url.as_str();
        let event = |l: &PaymentLink| link_event("payment_link.created", l, public_url);
        Ok(self.store.create_payment_link(tenant, &draft, &event, idempotency).await?)
    }

    /// Deletes a link: it leaves the API, and an active one is deactivated first, so its page
    /// stops taking payments (`payment_link.deactivated`, with its last state).
    pub async fn delete_payment_link(&self, tenant: &Tenant, id: &str) -> ServiceResult<PaymentLink> {
        let public_url = self.config.public_url.as_str();
        self.store
            .delete_payment_link(tenant, id, Timestamp::now(), &|l| {
                link_event("payment_link.deactivated", l, public_url)
            })
            .await
            .map_err(ServiceError::not_found_as("payment link"))
    }
}
