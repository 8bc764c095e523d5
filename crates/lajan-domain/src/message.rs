//! Customer notifications as the outbox keeps them: the channel, a message to queue with an
//! invoice's send, a message and its status (forward only), and how a delivery attempt ended.

use crate::{Tenant, Timestamp};

/// A notification to queue with an invoice's `send` or an invitation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewMessage {
    pub id: String,
    /// What it says: `invoice`, `reminder`, `receipt`, `invitation`, `registration_code`.
    pub template: &'static str,
    /// The language it is written in (`en`, `fr`, `ht`).
    pub language: String,
    pub channel: Channel,
    pub recipient: String,
    pub subject: Option<String>,
    pub body_text: String,
    pub body_html: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Channel {
    Email,
    Sms,
    /// A WhatsApp message through the SMS provider's API (an invitation, when the organization
    /// turns it on).
    Whatsapp,
}

str_enum!(Channel {
    Email => "email",
    Sms => "sms",
    Whatsapp => "whatsapp",
});

impl Channel {
    /// The channels an invoice is sent by.
    pub const INVOICE: [Channel; 2] = [Channel::Email, Channel::Sms];
}

/// Where a message is on its way to a person; it only moves forward.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MessageStatus {
    /// Waiting for the worker to hand it to its provider.
    Queued,
    /// The provider took it (with its id).
    Sent,
    /// The provider says it reached the phone or mailbox (a sandbox message: at once, simulated).
    Delivered,
    /// The provider refused it or gave up, with its reason.
    Failed,
    /// The carrier could not deliver it (a number that does not exist, a phone off too long).
    Undeliverable,
}

str_enum!(MessageStatus {
    Queued => "queued",
    Sent => "sent",
    Delivered => "delivered",
    Failed => "failed",
    Undeliverable => "undeliverable",
});

/// The phone number a sandbox message to fails as a provider refusing it would (Twilio's test
/// number for an invalid `To`, error 21211).
pub const SANDBOX_FAILING_PHONE: &str = "+15005550001";
/// The phone number a sandbox message to is taken and then reported undeliverable by the carrier
/// (Twilio's test number for a phone that cannot receive it, error 30003).
pub const SANDBOX_UNREACHABLE_PHONE: &str = "+15005550009";

/// Where a sandbox message ends, simulated (it is never handed to a provider): delivered, except
/// to the two test numbers, so an integrator can see `failed` and `undeliverable` as live shows
/// them. The reason is the simulated provider's words.
pub fn sandbox_outcome(recipient: &str) -> (MessageStatus, Option<&'static str>) {
    match recipient.trim() {
        SANDBOX_FAILING_PHONE => {
            (MessageStatus::Failed, Some("21211: The 'To' number is not a valid phone number (simulated)"))
        }
        SANDBOX_UNREACHABLE_PHONE => {
            (MessageStatus::Undeliverable, Some("30003: Unreachable destination handset (simulated)"))
        }
        _ => (MessageStatus::Delivered, None),
    }
}

impl MessageStatus {
    /// How far on its way a status is: queued, then sent, then an end.
    const fn step(self) -> u8 {
        match self {
            MessageStatus::Queued => 0,
            MessageStatus::Sent => 1,
            MessageStatus::Delivered | MessageStatus::Failed | MessageStatus::Undeliverable => 2,
        }
    }

    /// Whether a message here may move to `to`: forward only, so a late `sent` never
    /// overwrites `delivered`, and an end is final.
    pub const fn moves_to(self, to: MessageStatus) -> bool {
        to.step() > self.step()
    }

    /// Whether the provider took the message on its way here (a refusal never reached it).
    pub const fn was_sent(self) -> bool {
        matches!(self, MessageStatus::Sent | MessageStatus::Delivered | MessageStatus::Undeliverable)
    }
}

/// A notification and where it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    pub id: String,
    pub tenant: Tenant,
    pub invoice_id: Option<String>,
    /// The client it went to (an invoice's, or the one an invitation invites).
    pub client_id: Option<String>,
    pub template: String,
    pub language: String,
    pub channel: Channel,
    pub recipient: String,
    pub subject: Option<String>,
    pub body_text: String,
    pub body_html: Option<String>,
    pub status: MessageStatus,
    /// The provider's id for it, once it took it.
    pub provider_id: Option<String>,
    pub attempts: i64,
    pub last_error: Option<String>,
    pub created_at: Timestamp,
    pub sent_at: Option<Timestamp>,
    /// When its status last moved.
    pub updated_at: Timestamp,
}

/// How an attempt to hand a message to its provider ended (a webhook's is
/// [`crate::webhook::DeliveryOutcome`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SendOutcome {
    Sent {
        provider_id: Option<String>,
    },
    /// Try again at `retry_at`.
    Retry {
        error: String,
        retry_at: Timestamp,
    },
    Failed {
        error: String,
    },
}

/// Templates whose words carry a secret: an invitation's link (its token is the capability to
/// register a wallet) and a registration code.
pub const SECRET_TEMPLATES: [&str; 2] = ["invitation", "registration_code"];

/// What a message of `template` says, as it may be read back (API, events, webhooks, console):
/// for a template in [`SECRET_TEMPLATES`], every registration link's token (after `/r/`) shown
/// as `***`, and in a code's message every 6-digit code (an invitation carries no code, so its
/// amounts and numbers stay as written); any other message as it is. Only the outbox's
/// delivery (and the sandbox's own endpoint) reads the words whole.
pub fn readable(template: &str, words: &str) -> String {
    if !SECRET_TEMPLATES.contains(&template) {
        return words.to_owned();
    }
    let hides_codes = template == "registration_code";
    let mut out = String::with_capacity(words.len());
    let mut rest = words;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix("/r/") {
            out.push_str("/r/***");
            rest = after.trim_start_matches(|c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_');
            continue;
        }
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 {
            let follows_digit = out.chars().next_back().is_some_and(|c| c.is_ascii_digit());
            out.push_str(if hides_codes && digits == 6 && !follows_digit { "***" } else { &rest[..digits] });
            rest = &rest[digits..];
            continue;
        }
        let mut chars = rest.chars();
        if let Some(c) = chars.next() {
            out.push(c);
        }
        rest = chars.as_str();
    }
    out
}

#[cfg(test)]
mod readable_tests {
    use super::readable;

    #[test]
    fn links_and_codes_are_hidden_and_nothing_else() {
        let invitation = "Acme sends you 25.00 USDC: https://pay.lajan.test/r/AbC-d_9xYz0123456789ab Reply STOP";
        assert_eq!(
            readable("invitation", invitation),
            "Acme sends you 25.00 USDC: https://pay.lajan.test/r/*** Reply STOP"
        );
        assert_eq!(readable("registration_code", "Acme: your code is 048213."), "Acme: your code is ***.");
        let large = "Acme sends you 250000 HTG: https://pay.lajan.test/r/AbC";
        assert_eq!(readable("invitation", large), "Acme sends you 250000 HTG: https://pay.lajan.test/r/***");
        assert_eq!(readable("registration_code", "call +50937000001 or 1234567"), "call +50937000001 or 1234567");
        assert_eq!(readable("invoice", "pay at /r/abc, code 123456"), "pay at /r/abc, code 123456", "not a secret");
        assert_eq!(readable("invitation", "<a href=\"https://x/r/tok\">x</a>"), "<a href=\"https://x/r/***\">x</a>");
    }
}
