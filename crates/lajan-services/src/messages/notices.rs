//! The words of a payment reminder and of a payment receipt, in the client's language: a
//! one-segment SMS wherever the language allows, and a short email.

use super::render::{EmailAction, email_html, is_single_gsm_segment, shorten, to_gsm};
use super::shapes::{OutgoingEmail, OutgoingSms, one_line};
use lajan_i18n::{Lang, text};

/// Where a reminder falls against its due date: it says "is due on", "is due today" or "was due".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReminderWhen {
    Before,
    Today,
    After,
}

impl ReminderWhen {
    pub fn of(offset_days: i32) -> Self {
        match offset_days {
            d if d < 0 => ReminderWhen::Before,
            0 => ReminderWhen::Today,
            _ => ReminderWhen::After,
        }
    }

    const fn key(self) -> &'static str {
        match self {
            ReminderWhen::Before => "reminder-before",
            ReminderWhen::Today => "reminder-today",
            ReminderWhen::After => "reminder-after",
        }
    }
}

/// What a reminder says, as display strings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReminderNotice {
    pub lang: Lang,
    pub when: ReminderWhen,
    pub organization: String,
    pub invoice_number: String,
    /// `HTG 500.00`: what is left of the instalment (or the invoice).
    pub amount: String,
    /// `YYYY-MM-DD`.
    pub due_date: String,
    pub pay_url: String,
}

/// What a receipt says, as display strings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReceiptNotice {
    pub lang: Lang,
    pub organization: String,
    pub invoice_number: String,
    /// `HTG 500.00`: what the payment counted.
    pub paid: String,
    /// `HTG 809.97`, or `None` once nothing is left.
    pub left: Option<String>,
    /// The payment was reversed after its receipt went: this takes the receipt back.
    pub correction: bool,
}

/// `{org}: {sentence}{tail}` in one segment: the organization's name shortened as far as a
/// readable name allows, else the sentence alone; the amount, the date and the link are never
/// cut. Anything the GSM alphabet lacks is folded into it first; the link goes out as it is.
fn one_segment(organization: &str, sentence: &str, link: Option<&str>) -> String {
    const LINK: &str = "LAJANLINK";
    let tail = link.map(|_| format!(" {LINK}")).unwrap_or_default();
    let put_link = |body: String| match link {
        Some(link) => body.replace(LINK, &one_line(link)),
        None => body,
    };
    let sentence = to_gsm(sentence);
    let org = to_gsm(organization);
    let full = format!("{org}: {sentence}{tail}");
    if is_single_gsm_segment(&put_link(full.clone())) {
        return put_link(full);
    }
    let over = full.chars().count().saturating_sub(super::render::SEGMENT);
    let short = shorten(&org, org.chars().count().saturating_sub(over));
    // A name cut to a couple of letters says nothing and reads like a typo.
    if short.chars().count() >= 3 {
        let body = put_link(format!("{short}: {sentence}{tail}"));
        if is_single_gsm_segment(&body) {
            return body;
        }
    }
    put_link(format!("{sentence}{tail}"))
}

impl ReminderNotice {
    fn say(&self, key: &str) -> String {
        let args = [
            ("org", one_line(&self.organization)),
            ("number", one_line(&self.invoice_number)),
            ("amount", one_line(&self.amount)),
            ("date", one_line(&self.due_date)),
        ];
        text(self.lang, key, &args)
    }
}

pub fn reminder_sms(n: &ReminderNotice, to: &str) -> OutgoingSms {
    let sentence = format!("{} {}", n.say(n.when.key()), n.say("reminder-pay"));
    let body = one_segment(&n.organization, &sentence, Some(&n.pay_url));
    OutgoingSms { to: to.trim().to_owned(), body, status_callback: None }
}

pub fn reminder_email(n: &ReminderNotice, to: &str) -> OutgoingEmail {
    let (subject, sentence) = (n.say("reminder-email-subject"), n.say(n.when.key()));
    let (button, fallback) = (n.say("reminder-email-button"), n.say("invite-email-fallback"));
    let link = one_line(&n.pay_url);
    let intro = format!("{}: {sentence}", one_line(&n.organization));
    let text = format!("{intro}\n\n{button}: {link}\n");
    let html =
        email_html(n.lang.code(), &[intro], Some(EmailAction { button: &button, link: &link, fallback: &fallback }));
    OutgoingEmail { to: to.trim().to_owned(), subject: one_line(&subject), text, html }
}

impl ReceiptNotice {
    fn sentence(&self) -> String {
        let mut args = vec![("number", one_line(&self.invoice_number)), ("paid", one_line(&self.paid))];
        let (owing, settled) = if self.correction {
            ("receipt-corrected", "receipt-corrected-none")
        } else {
            ("receipt-left", "receipt-paid")
        };
        match &self.left {
            Some(left) => {
                args.push(("left", one_line(left)));
                text(self.lang, owing, &args)
            }
            None => text(self.lang, settled, &args),
        }
    }
}

pub fn receipt_sms(n: &ReceiptNotice, to: &str) -> OutgoingSms {
    let body = one_segment(&n.organization, &n.sentence(), None);
    OutgoingSms { to: to.trim().to_owned(), body, status_callback: None }
}

pub fn receipt_email(n: &ReceiptNotice, to: &str) -> OutgoingEmail {
    let args = [("org", one_line(&n.organization)), ("number", one_line(&n.invoice_number))];
    let subject =
        text(n.lang, if n.correction { "receipt-correction-subject" } else { "receipt-email-subject" }, &args);
    let intro = format!("{}: {}", one_line(&n.organization), n.sentence());
    let html = email_html(n.lang.code(), std::slice::from_ref(&intro), None);
    OutgoingEmail { to: to.trim().to_owned(), subject: one_line(&subject), text: format!("{intro}\n"), html }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINK: &str = "https://pay.lajan.example/pay/pi_01a1fcabba3475ab93d77402274386ce?lang=fr";

    fn reminder(lang: Lang, when: ReminderWhen, organization: &str) -> ReminderNotice {
        ReminderNotice {
            lang,
            when,
            organization: organization.into(),
            invoice_number: "INV-000042".into(),
            amount: "HTG 12500.00".into(),
            due_date: "2026-12-15".into(),
            pay_url: LINK.into(),
        }
    }

    /// Prints each text with its length: docs/invoices.md quotes them (`cargo test -p
    /// lajan-services notices -- --nocapture`).
    #[test]
    fn every_reminder_and_receipt_fits_one_segment_in_each_language_with_the_link_whole() {
        for lang in [Lang::En, Lang::Fr, Lang::Ht] {
            for when in [ReminderWhen::Before, ReminderWhen::Today, ReminderWhen::After] {
                let sms = reminder_sms(&reminder(lang, when, "Fonkoze"), "+50937000000");
                println!("{lang:?} {when:?} ({} chars): {}", sms.body.chars().count(), sms.body);
                assert!(is_single_gsm_segment(&sms.body), "{lang:?} {when:?}: {}", sms.body);
                assert!(sms.body.ends_with(LINK) && sms.body.contains("HTG 12500.00"), "{}", sms.body);
                assert!(sms.body.starts_with("Fonkoze: ") && sms.body.contains("INV-000042"), "{}", sms.body);
                let long = "Institution de Microfinance pour le Développement Économique et Social";
                let sms = reminder_sms(&reminder(lang, when, long), "+50937000000");
                assert!(is_single_gsm_segment(&sms.body) && sms.body.ends_with(LINK), "{}", sms.body);
            }
            for (left, correction) in [
                (Some("HTG 809.97".to_owned()), false),
                (None, false),
                (Some("HTG 1309.97".to_owned()), true),
                (None, true),
            ] {
                let n = ReceiptNotice {
                    lang,
                    organization: "Fonkoze".into(),
                    invoice_number: "INV-000042".into(),
                    paid: "HTG 500.00".into(),
                    left: left.clone(),
                    correction,
                };
                let sms = receipt_sms(&n, "+50937000000");
                let kind = if correction { "correction" } else { "receipt" };
                println!("{lang:?} {kind} ({} chars): {}", sms.body.chars().count(), sms.body);
                assert!(sms.body.starts_with("Fonkoze: "), "the organization's name is never cut here: {}", sms.body);
                assert!(is_single_gsm_segment(&sms.body) && sms.body.contains("HTG 500.00"), "{}", sms.body);
                assert_eq!(sms.body.contains("09.97"), left.is_some(), "{}", sms.body);
            }
        }
    }

    #[test]
    fn the_reminder_speaks_the_clients_language_and_the_email_escapes() {
        let ht = reminder_sms(&reminder(Lang::Ht, ReminderWhen::After, "Fonkoze"), "+50937000000");
        assert!(ht.body.contains("te dwe peye"), "{}", ht.body);
        let fr = reminder_sms(&reminder(Lang::Fr, ReminderWhen::Today, "Fonkoze"), "+50937000000");
        assert!(fr.body.contains("aujourd'hui"), "{}", fr.body);
        let email = reminder_email(&reminder(Lang::Fr, ReminderWhen::Before, "Caisse <Populaire> & Co"), "a@b.ht");
        assert!(email.html.contains("Caisse &lt;Populaire&gt; &amp; Co") && email.html.contains("lang=\"fr\""));
        assert!(email.text.contains(LINK) && email.subject.contains("INV-000042"), "{}", email.subject);
    }
}
