//! Prefixed identifiers (`cli_0193...`): a kind prefix plus 32 lowercase hex digits, a UUIDv7
//! (time-ordered) for every kind but the payment page's, whose id is its capability.

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
    /// An executor's claim on payouts: every write it makes to them presents it.
    Lease,
    /// A console user.
    User,
    /// One attempt to sign in to the console.
    SignIn,
    /// A user or API key created or disabled: a line of the access trail.
    AccessChange,
    /// A change of an organization's settings, applied or waiting for a second person.
    SettingsChange,
    /// A wallet's SEP-24 deposit: its user's registration, followed until they are paid.
    WalletDeposit,
    /// A payment counted on an invoice: from the ledger, or received outside Lajan.
    InvoicePayment,
    /// A move of a client's credit balance.
    CreditTransaction,
    /// What a sent invoice no longer asks for, and why.
    CreditNote,
}

impl IdKind {
    /// Every kind.
    pub const ALL: [IdKind; 24] = [
        IdKind::Organization,
        IdKind::ApiKey,
        IdKind::Client,
        IdKind::Event,
        IdKind::Invoice,
        IdKind::Payout,
        IdKind::Attempt,
        IdKind::PaymentIntent,
        IdKind::PaymentLink,
        IdKind::Disbursement,
        IdKind::DisbursementItem,
        IdKind::WebhookEndpoint,
        IdKind::Delivery,
        IdKind::LedgerPayment,
        IdKind::Message,
        IdKind::User,
        IdKind::SignIn,
        IdKind::AccessChange,
        IdKind::SettingsChange,
        IdKind::WalletDeposit,
        IdKind::InvoicePayment,
        IdKind::CreditTransaction,
        IdKind::CreditNote,
        IdKind::Lease,
    ];

    pub const fn prefix(self) -> &'static str {
        match self {
            IdKind::Organization => "org_",
            IdKind::User => "usr_",
            IdKind::SignIn => "sgn_",
            IdKind::AccessChange => "acc_",
            IdKind::SettingsChange => "stc_",
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
            IdKind::Lease => "lease_",
            IdKind::WalletDeposit => "wdp_",
            IdKind::InvoicePayment => "ipy_",
            IdKind::CreditTransaction => "cbt_",
            IdKind::CreditNote => "cn_",
        }
    }

    /// Whether `raw` has this kind's shape: its prefix and 32 lowercase hex digits.
    pub fn is_id(self, raw: &str) -> bool {
        raw.strip_prefix(self.prefix())
            .is_some_and(|hex| hex.len() == 32 && hex.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)))
    }

    /// A new identifier of this kind. UUIDv7 sorts by creation time, so ids are index friendly.
    /// A payment intent's id is the URL of its public page, which anyone holding it may open, so
    /// it carries 128 bits from the operating system's generator and nothing else: no time, no
    /// counter, nothing shared with the invoice's id made in the same millisecond.
    pub fn generate(self) -> String {
        let bytes = match self {
            IdKind::PaymentIntent => {
                let mut bytes = [0u8; 16];
                // Without a working OS generator no unguessable capability can be issued at all.
                getrandom::fill(&mut bytes)
                    .unwrap_or_else(|e| panic!("the operating system's random generator failed: {e}"));
                bytes
            }
            _ => *uuid::Uuid::now_v7().as_bytes(),
        };
        let mut id = String::with_capacity(self.prefix().len() + 32);
        id.push_str(self.prefix());
        id.push_str(&crate::hex::encode(&bytes));
        id
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_id_has_its_kinds_prefix_and_32_lowercase_hex_digits() {
        let id = IdKind::Client.generate();
        assert!(IdKind::Client.is_id(&id));
        assert!(!IdKind::Invoice.is_id(&id));
        assert!(!IdKind::Client.is_id(&id.to_uppercase()));
        assert!(!IdKind::Client.is_id(&id[..id.len() - 1]));
        assert!(!IdKind::Client.is_id(&format!("{id}0")));
        assert!(!IdKind::Client.is_id("cli_0193a4b1c2d37e4f8a9b0c1d2e3f4a5g"));
    }

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

    #[test]
    fn the_readme_names_every_prefix_an_integrator_meets() {
        let readme = include_str!("../../../README.md");
        let formats = readme.split("- **Formats.**").nth(1).and_then(|f| f.split("\n- ").next()).unwrap_or_default();
        // An executor's lease never leaves Lajan.
        for kind in IdKind::ALL.into_iter().filter(|k| *k != IdKind::Lease) {
            assert!(formats.contains(&format!("`{}`", kind.prefix())), "README's Formats leaves out {}", kind.prefix());
        }
    }

    #[test]
    fn payment_page_ids_share_nothing_with_ids_made_beside_them() {
        let invoice = IdKind::Invoice.generate();
        let pages: Vec<String> = (0..64).map(|_| IdKind::PaymentIntent.generate()).collect();
        for page in &pages {
            assert!(page.starts_with("pi_") && page.len() == 3 + 32, "{page}");
            assert!(page.bytes().skip(3).all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase()));
            // A UUIDv7 shares its leading 12 hex digits (the millisecond) with any id made then.
            assert_ne!(page[3..11], invoice[4..12], "{page} looks time-ordered beside {invoice}");
        }
        // The version nibble of a UUID (position 12) is free here: all 16 values turn up.
        let nibbles: std::collections::HashSet<u8> = pages.iter().map(|p| p.as_bytes()[3 + 12]).collect();
        assert!(nibbles.len() > 4, "the 13th digit varies, as it cannot in a UUID");
    }
}
