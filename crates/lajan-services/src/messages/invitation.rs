//! The words of an invitation to register a wallet, in the receiver's language: the one-segment
//! SMS (or WhatsApp text) and the email, naming the organization, the amount waiting and the link.

use super::render::{EmailAction, email_html, is_single_gsm_segment, shorten, to_gsm};
use super::shapes::{OutgoingEmail, OutgoingSms, one_line};
use lajan_i18n::{Lang, text};

/// What a receiver needs to know to claim a payout, as display strings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvitationNotice {
    pub lang: Lang,
    pub organization: String,
    /// What waits, per asset: the API's decimal string and the asset code, e.g.
    /// `("1250.00", "HTG")`; the words join several with `+`.
    pub amounts: Vec<(String, String)>,
    /// `{public_url}/r/<token>`.
    pub link: String,
}

impl InvitationNotice {
    /// `1250.00 HTG + 20.00 USDC`, each code passed through `fold` (the SMS alphabet, or one line).
    fn amount_text(&self, fold: impl Fn(&str) -> String) -> String {
        let parts: Vec<String> =
            self.amounts.iter().map(|(amount, asset)| format!("{} {}", one_line(amount), fold(asset))).collect();
        parts.join(" + ")
    }
}

/// Stands for the link while the words are folded into the SMS alphabet: the link goes out as
/// it is, never transliterated or cut.
const LINK: &str = "LAJANLINK";

/// An SMS that fits one segment for any realistic input: only the organization's name is
/// shortened; if even the short wording cannot fit (an unusually long link) the amount and the
/// link still go out whole.
pub fn invitation_sms(n: &InvitationNotice, to: &str) -> OutgoingSms {
    let amount = n.amount_text(to_gsm);
    let link = one_line(&n.link);
    let words = |key: &str, org: &str| {
        let args = [("org", org.to_owned()), ("amount", amount.clone()), ("link", LINK.to_owned())];
        to_gsm(&text(n.lang, key, &args)).replace(LINK, &link)
    };
    let sms = |body: String| OutgoingSms { to: to.trim().to_owned(), body, status_callback: None };
    let org = to_gsm(&n.organization);
    let full = words("invite-sms", &org);
    if is_single_gsm_segment(&full) {
        return sms(full);
    }
    let over = full.chars().count().saturating_sub(super::render::SEGMENT);
    let short_org = shorten(&org, org.chars().count().saturating_sub(over));
    // A name cut to a couple of letters says nothing and reads like a typo.
    if short_org.chars().count() >= 3 {
        let body = words("invite-sms", &short_org);
        if is_single_gsm_segment(&body) {
            return sms(body);
        }
    }
    sms(words("invite-sms-short", ""))
}

pub fn invitation_email(n: &InvitationNotice, to: &str) -> OutgoingEmail {
    let org = one_line(&n.organization);
    let amount = n.amount_text(one_line);
    let link = one_line(&n.link);
    let say = |key: &str| text(n.lang, key, &[("org", org.clone()), ("amount", amount.clone())]);
    let (subject, intro, how, button, fallback) = (
        say("invite-email-subject"),
        say("invite-email-intro"),
        say("invite-email-how"),
        say("invite-email-button"),
        say("invite-email-fallback"),
    );
    let text = format!("{intro}\n\n{how}\n\n{button}: {link}\n");
    let html = email_html(
        n.lang.code(),
        &[intro, how],
        Some(EmailAction { button: &button, link: &link, fallback: &fallback }),
    );
    OutgoingEmail { to: to.trim().to_owned(), subject: one_line(&subject), text, html }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn notice(lang: Lang, organization: &str) -> InvitationNotice {
        InvitationNotice {
            lang,
            organization: organization.into(),
            amounts: vec![("1250.00".into(), "USDC".into())],
            link: "https://pay.lajan.example/r/Hk3v9Q2mXb7LrT0aYc1dWe".into(),
        }
    }

    #[test]
    fn the_sms_speaks_the_receivers_language_in_one_segment_with_the_link_whole() {
        for (lang, says) in [(Lang::Ht, "voye"), (Lang::Fr, "envoie"), (Lang::En, "sending")] {
            let sms = invitation_sms(&notice(lang, "Fonkoze Fondasyon Kole Zepòl"), " +50937000000 ");
            assert!(is_single_gsm_segment(&sms.body), "{lang:?}: {}", sms.body);
            assert!(sms.body.contains(says) && sms.body.contains("1250.00 USDC"), "{lang:?}: {}", sms.body);
            assert!(sms.body.ends_with("https://pay.lajan.example/r/Hk3v9Q2mXb7LrT0aYc1dWe"), "{}", sms.body);
            assert!(sms.body.contains("Fonkoze"), "{}", sms.body);
            assert_eq!(sms.to, "+50937000000");
        }
        let long = "Institution de Microfinance pour le Développement Économique et Social des Communautés Rurales";
        let sms = invitation_sms(&notice(Lang::Fr, long), "+50937000000");
        assert!(is_single_gsm_segment(&sms.body), "{}", sms.body);
        assert!(sms.body.contains("Institution") && sms.body.contains("1250.00 USDC"), "{}", sms.body);
        let mut huge = notice(Lang::Ht, "Fonkoze");
        huge.link = format!("https://pay.lajan.example/r/{}", "x".repeat(150));
        let sms = invitation_sms(&huge, "+50937000000");
        assert!(sms.body.contains(&huge.link) && sms.body.contains("1250.00 USDC"), "the link is never cut");
    }

    #[test]
    fn the_email_escapes_what_the_organization_typed() {
        let email = invitation_email(&notice(Lang::Fr, "Caisse <Populaire> & Co"), "ana@example.ht");
        assert!(email.subject.contains("Caisse <Populaire> & Co") && email.subject.contains("1250.00 USDC"));
        assert!(email.html.contains("Caisse &lt;Populaire&gt; &amp; Co") && !email.html.contains("<Populaire>"));
        assert!(email.html.contains("lang=\"fr\"") && email.text.contains("https://pay.lajan.example/r/"));
    }

    #[test]
    fn several_assets_are_named_together() {
        let mut n = notice(Lang::Ht, "Fonkoze");
        n.amounts.push(("20.00".into(), "HTG".into()));
        let sms = invitation_sms(&n, "+50937000000");
        assert!(sms.body.contains("1250.00 USDC + 20.00 HTG"), "{}", sms.body);
    }
}
