//! Prefixed, time-ordered identifiers (`cli_0193...`): a kind prefix plus a lowercase UUIDv7.

/// The kinds of identifiers Lajan hands out, each with its prefix.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IdKind {
    Organization,
    ApiKey,
    Client,
    Event,
    Invoice,
    Payout,
    Attempt,
    PaymentIntent,
    PaymentLink,
    Disbursement,
    DisbursementItem,
    WebhookEndpoint,
    Delivery,
    LedgerPayment,
    Message,
}

impl IdKind {
    pub const fn prefix(self) -> &'static str {
        match self {
            IdKind::Organization => "org_",
            IdKind::ApiKey => "key_",
            IdKind::Client => "cli_",
            IdKind::Event => "evt_",
            IdKind::Invoice => "inv_",
            IdKind::Payout => "pyt_",
            IdKind::Attempt => "att_",
            IdKind::PaymentIntent => "pi_",
            IdKind::PaymentLink => "pl_",
            IdKind::Disbursement => "dsb_",
            IdKind::DisbursementItem => "dsi_",
            IdKind::WebhookEndpoint => "we_",
            IdKind::Delivery => "whd_",
            IdKind::LedgerPayment => "lp_",
            IdKind::Message => "msg_",
        }
    }

    /// A new identifier of this kind. UUIDv7 sorts by creation time, so ids are index friendly.
    pub fn generate(self) -> String {
        let uuid = uuid::Uuid::now_v7();
        let mut id = String::with_capacity(self.prefix().len() + 32);
        id.push_str(self.prefix());
        id.push_str(uuid.simple().encode_lower(&mut uuid::Uuid::encode_buffer()));
        id
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_carry_their_prefix_and_are_unique_and_ordered() {
        let a = IdKind::Client.generate();
        let b = IdKind::Client.generate();
        assert!(a.starts_with("cli_"));
        assert_eq!(a.len(), 4 + 32);
        assert_ne!(a, b);
        assert!(a < b, "v7 ids sort by creation time");
        assert_eq!(a, a.to_lowercase());
    }
}
