//! Customer notifications: the messages an invoice send queues (their words are in [`render`]),
//! the invitation to register a wallet (in the receiver's language, [`invitation`]), and the
//! email and SMS shapes the notification sender hands to its transports.

pub mod invitation;
pub mod notices;
pub mod receipts;
pub mod render;
mod shapes;

pub use shapes::{OutgoingEmail, OutgoingSms, one_line};

use crate::views::{money, pay_url};
use lajan_domain::Invalid;
use lajan_domain::id::IdKind;
use lajan_domain::invoice::InvoiceDetail;
use lajan_domain::invoice_payment::InvoicePayment;
use lajan_domain::message::{Channel, NewMessage};
use lajan_domain::reminder::DueReminder;

/// The email and SMS for an invoice, on the channels requested that the client can receive.
/// `requested` empty means every channel the client can receive.
pub fn invoice_messages(
    d: &InvoiceDetail,
    organization: &str,
    public_url: &str,
    requested: &[Channel],
) -> Result<Vec<NewMessage>, Invalid> {
    use render::{InvoiceNotice, invoice_email, invoice_sms};
    let i = &d.invoice;
    // Due in instalments, the notice asks for the next one: what is left of it, by its date.
    let (amount_due, due_date) = match i.next_installment() {
        Some(next) => (next.remaining(), next.due_date),
        None => (i.amount_remaining(), i.due_date),
    };
    let lang = client_lang(&d.client);
    let notice = InvoiceNotice {
        lang,
        organization: organization.to_owned(),
        invoice_number: i.number.clone(),
        amount_due: money(amount_due),
        currency: i.currency.code().to_owned(),
        due_date: due_date.to_string(),
        pay_url: pay_link(public_url, &d.intent.id, lang),
        memo: d.invoice.memo.clone(),
    };
    let wanted = |c: Channel| requested.is_empty() || requested.contains(&c);
    let mut messages = Vec::new();
    if let (true, Some(email)) = (wanted(Channel::Email), &d.client.email) {
        messages.push(email_message("invoice", lang.code(), invoice_email(&notice, email)));
    }
    if let (true, Some(phone)) = (wanted(Channel::Sms), &d.client.phone_number) {
        messages.push(text_message(Channel::Sms, "invoice", lang.code(), invoice_sms(&notice, phone)));
    }
    if messages.is_empty() {
        let asked = if requested.is_empty() {
            "email or sms".to_owned()
        } else {
            requested.iter().map(|c| c.as_str()).collect::<Vec<_>>().join(" or ")
        };
        return Err(Invalid::new(
            "no_channel_available",
            format!("The client has no contact for {asked}: add an email or phone number to the client"),
        ));
    }
    Ok(messages)
}

/// A reminder's messages, in the client's language, on each of `channels` the client can
/// receive; none when the client can receive none of them.
pub fn reminder_messages(
    d: &InvoiceDetail,
    reminder: &DueReminder,
    organization: &str,
    public_url: &str,
    channels: &[Channel],
) -> Vec<NewMessage> {
    use notices::{ReminderNotice, ReminderWhen, reminder_email, reminder_sms};
    let lang = client_lang(&d.client);
    let notice = ReminderNotice {
        lang,
        when: ReminderWhen::of(reminder.key.offset_days),
        organization: organization.to_owned(),
        invoice_number: d.invoice.number.clone(),
        amount: format!("{} {}", d.invoice.currency.code(), money(reminder.amount)),
        due_date: reminder.due_date.to_string(),
        pay_url: pay_link(public_url, &d.intent.id, lang),
    };
    let mut messages = Vec::new();
    for channel in channels {
        match (channel, &d.client.email, &d.client.phone_number) {
            (Channel::Email, Some(email), _) => {
                messages.push(email_message("reminder", lang.code(), reminder_email(&notice, email)));
            }
            (Channel::Sms, _, Some(phone)) => {
                messages.push(text_message(Channel::Sms, "reminder", lang.code(), reminder_sms(&notice, phone)));
            }
            _ => {}
        }
    }
    messages
}

/// A payment's receipt, in the client's language, telling what the invoice still owed right
/// after it (`left`): by SMS to a phone, else by email; none when the client has neither. For a
/// payment reversed after its receipt went, the correction that takes it back, with what the
/// invoice owes now (`left`).
pub fn receipt_messages(d: &InvoiceDetail, payment: &InvoicePayment, left: i64, organization: &str) -> Vec<NewMessage> {
    use notices::{ReceiptNotice, receipt_email, receipt_sms};
    let lang = client_lang(&d.client);
    let currency = d.invoice.currency.code();
    let notice = ReceiptNotice {
        lang,
        organization: organization.to_owned(),
        invoice_number: d.invoice.number.clone(),
        paid: format!("{currency} {}", money(payment.amount)),
        left: (left > 0).then(|| format!("{currency} {}", money(left))),
        correction: payment.reversal.is_some(),
    };
    let template = if notice.correction { "receipt_correction" } else { "receipt" };
    match (&d.client.phone_number, &d.client.email) {
        (Some(phone), _) => vec![text_message(Channel::Sms, template, lang.code(), receipt_sms(&notice, phone))],
        (None, Some(email)) => vec![email_message(template, lang.code(), receipt_email(&notice, email))],
        (None, None) => Vec::new(),
    }
}

/// An invitation's messages: WhatsApp (when the organization turns it on) or SMS to a phone,
/// else an email, in the client's language, naming the organization and what waits.
pub fn invitation_messages(d: &lajan_store::DueInvitation, link: &str) -> Result<Vec<NewMessage>, Invalid> {
    use invitation::{InvitationNotice, invitation_email, invitation_sms};
    let notice = InvitationNotice {
        lang: client_lang(&d.client),
        organization: d.organization.clone(),
        amounts: d.waiting.iter().map(|(asset, amount)| (money(*amount), asset.clone())).collect(),
        link: link.to_owned(),
    };
    let language = notice.lang.code();
    let message = if let Some(phone) = &d.client.phone_number {
        let channel = if d.settings.whatsapp_invitations { Channel::Whatsapp } else { Channel::Sms };
        text_message(channel, "invitation", language, invitation_sms(&notice, phone))
    } else if let Some(email) = &d.client.email {
        email_message("invitation", language, invitation_email(&notice, email))
    } else {
        return Err(Invalid::new(
            "no_channel_available",
            "The client has no phone number or email to invite them by: add one to the client",
        ));
    };
    Ok(vec![message])
}

/// The payment page's link as a client is sent it: it opens in their language (the page's
/// own switch still lets them pick another).
fn pay_link(public_url: &str, intent_id: &str, lang: lajan_i18n::Lang) -> String {
    format!("{}?lang={}", pay_url(public_url, intent_id), lang.code())
}

/// The language a client's messages are written in (Creole for a code the catalogue lacks).
fn client_lang(client: &lajan_domain::client::Client) -> lajan_i18n::Lang {
    lajan_i18n::Lang::parse(client.language.as_str()).unwrap_or(lajan_i18n::Lang::Ht)
}

/// An email's words, from `template` in `language`.
fn email_message(template: &'static str, language: &str, m: OutgoingEmail) -> NewMessage {
    NewMessage {
        id: IdKind::Message.generate(),
        template,
        language: language.to_owned(),
        channel: Channel::Email,
        recipient: m.to,
        subject: Some(m.subject),
        body_text: m.text,
        body_html: Some(m.html),
    }
}

/// An SMS's words by SMS or WhatsApp, from `template` in `language`.
fn text_message(channel: Channel, template: &'static str, language: &str, m: OutgoingSms) -> NewMessage {
    NewMessage {
        id: IdKind::Message.generate(),
        template,
        language: language.to_owned(),
        channel,
        recipient: m.to,
        subject: None,
        body_text: m.body,
        body_html: None,
    }
}
