//! Payment link use cases: create one (with its payment intent) and deactivate it.

use crate::events::link_event;
use crate::{ServiceError, ServiceResult, Services};
use lajan_domain::id::IdKind;
use lajan_domain::invoice::MAX_DESCRIPTION_CHARS;
use lajan_domain::money::{Currency, parse_amount};
use lajan_domain::payment::PaymentLink;
use lajan_domain::payment::{IntentStatus, PaymentIntent, new_reference};
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
        let currency: Currency = match r.currency.as_deref() {
            Some(c) => c.parse().map_err(|e: String| Invalid::new("invalid_currency", e))?,
            None => self.store.get_settings(tenant).await?.default_currency,
        };
        let id = IdKind::PaymentLink.generate();
        let link = PaymentLink {
            id: id.clone(),
            amount,
            currency,
            description,
            created_at: now,
            expires_at,
            intent: PaymentIntent {
                id: IdKind::PaymentIntent.generate(),
                org_id: tenant.org_id.clone(),
                env: tenant.env,
                amount,
                currency,
                reference: new_reference(),
                status: IntentStatus::Active,
                amount_received: 0,
                invoice_id: None,
                payment_link_id: Some(id),
                created_at: now,
                paid_at: None,
                expires_at,
            },
        };
        let event = link_event("payment_link.created", &link, &self.config.public_url);
        self.store.create_payment_link(tenant, &link, &event, idempotency).await?;
        Ok(link)
    }

    /// Deactivates a link: its page stops taking payments (`payment_link.deactivated`).
    pub async fn deactivate_payment_link(&self, tenant: &Tenant, id: &str) -> ServiceResult<PaymentLink> {
        let public_url = self.config.public_url.as_str();
        let (link, _) = self
            .store
            .deactivate_payment_link(tenant, id, Timestamp::now(), &|l| {
                link_event("payment_link.deactivated", l, public_url)
            })
            .await
            .map_err(ServiceError::not_found_as("payment link"))?;
        Ok(link)
    }
}
