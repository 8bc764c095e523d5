//! The words of an invoice notice, in the client's language: the email (subject, text and
//! HTML) and the one-segment SMS.

use super::shapes::{OutgoingEmail, OutgoingSms, one_line};
use lajan_i18n::{Lang, text};

/// What a customer needs to know about an invoice, as display strings the API already formatted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvoiceNotice {
    /// The client's language, which every word is in.
    pub lang: Lang,
    pub organization: String,
    pub invoice_number: String,
    /// The API's decimal string, e.g. `1250.00`.
    pub amount_due: String,
    pub currency: String,
    /// `YYYY-MM-DD`.
    pub due_date: String,
    pub pay_url: String,
    pub memo: Option<String>,
}

pub fn invoice_email(n: &InvoiceNotice, to: &str) -> OutgoingEmail {
    let org = one_line(&n.organization);
    let number = one_line(&n.invoice_number);
    let amount = format!("{} {}", one_line(&n.currency), one_line(&n.amount_due));
    let due = one_line(&n.due_date);
    let url = one_line(&n.pay_url);
    let memo = n.memo.as_deref().map(str::trim).filter(|m| !m.is_empty());
    let args = [("org", org.clone()), ("number", number.clone()), ("amount", amount.clone()), ("date", due.clone())];
    let say = |key: &str| one_line(&text(n.lang, key, &args));
    let (intro, amount_label, due_label) =
        (say("invoice-email-intro"), say("invoice-email-amount-due"), say("invoice-email-due-date"));
    let (button, fallback) = (say("reminder-email-button"), say("invite-email-fallback"));
    let subject = say("invoice-email-subject");

    let mut words = format!("{intro}\n\n{amount_label}: {amount}\n{due_label}: {due}\n");
    if let Some(memo) = memo {
        words.push_str(&format!("\n{memo}\n"));
    }
    words.push_str(&format!("\n{button}: {url}\n"));

    let memo_html = memo
        .map(|m| format!("<p style=\"margin:16px 0 0;color:#3e4c59;\">{}</p>\n", escape(m).replace('\n', "<br>")))
        .unwrap_or_default();
    // The number stands out in the sentence, in whichever place the language puts it.
    let intro = escape(&intro).replacen(&escape(&number), &format!("<strong>{}</strong>", escape(&number)), 1);
    let (amount, due, url) = (escape(&amount), escape(&due), escape(&url));
    let (amount_label, due_label, button, fallback) =
        (escape(&amount_label), escape(&due_label), escape(&button), escape(&fallback));
    let html = format!(
        "<!DOCTYPE html>\n\
<html lang=\"{lang}\"><body style=\"margin:0;padding:24px;background:#f4f5f7;font-family:Helvetica,Arial,sans-serif;color:#1f2933;\">\n\
<div style=\"max-width:480px;margin:0 auto;background:#ffffff;border-radius:8px;padding:24px;\">\n\
<p style=\"margin:0 0 16px;font-size:16px;\">{intro}</p>\n\
<table role=\"presentation\" style=\"width:100%;border-collapse:collapse;font-size:15px;\">\n\
<tr><td style=\"padding:4px 0;color:#52606d;\">{amount_label}</td>\
<td style=\"padding:4px 0;text-align:right;font-weight:bold;\">{amount}</td></tr>\n\
<tr><td style=\"padding:4px 0;color:#52606d;\">{due_label}</td>\
<td style=\"padding:4px 0;text-align:right;\">{due}</td></tr>\n\
</table>\n\
{memo_html}\
<p style=\"margin:24px 0;text-align:center;\"><a href=\"{url}\" style=\"display:inline-block;padding:12px 28px;\
background:#0b6e4f;color:#ffffff;text-decoration:none;border-radius:6px;font-weight:bold;\">{button}</a></p>\n\
<p style=\"margin:0;font-size:13px;color:#52606d;\">{fallback} \
<a href=\"{url}\" style=\"color:#0b6e4f;\">{url}</a></p>\n\
</div>\n</body></html>\n",
        lang = n.lang.code()
    );

    OutgoingEmail { to: to.trim().to_owned(), subject, text: words, html }
}

/// An email's button: its words, where it goes, and what the line under it says before the link.
pub(super) struct EmailAction<'a> {
    pub button: &'a str,
    pub link: &'a str,
    pub fallback: &'a str,
}

/// A short email's HTML in `lang`: each paragraph (plain text, escaped here; the first larger),
/// then the button and the link written out for mail clients that show no button.
pub(super) fn email_html(lang: &str, paragraphs: &[String], action: Option<EmailAction<'_>>) -> String {
    let mut body = String::new();
    for (i, p) in paragraphs.iter().enumerate() {
        let style =
            if i == 0 { "margin:0 0 16px;font-size:16px;" } else { "margin:0 0 16px;font-size:15px;color:#3e4c59;" };
        body.push_str(&format!("<p style=\"{style}\">{}</p>\n", escape(p).replace('\n', "<br>")));
    }
    if let Some(a) = action {
        let (button, url, fallback) = (escape(a.button), escape(a.link), escape(a.fallback));
        body.push_str(&format!(
            "<p style=\"margin:24px 0;text-align:center;\"><a href=\"{url}\" style=\"display:inline-block;padding:12px 28px;\
background:#0b6e4f;color:#ffffff;text-decoration:none;border-radius:6px;font-weight:bold;\">{button}</a></p>\n\
<p style=\"margin:0;font-size:13px;color:#52606d;\">{fallback} <a href=\"{url}\" style=\"color:#0b6e4f;\">{url}</a></p>\n"
        ));
    }
    format!(
        "<!DOCTYPE html>\n\
<html lang=\"{lang}\"><body style=\"margin:0;padding:24px;background:#f4f5f7;font-family:Helvetica,Arial,sans-serif;color:#1f2933;\">\n\
<div style=\"max-width:480px;margin:0 auto;background:#ffffff;border-radius:8px;padding:24px;\">\n\
{body}</div>\n</body></html>\n",
        lang = escape(lang)
    )
}

/// Escapes text for both element content and double- or single-quoted attribute values.
pub(super) fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// One GSM-7 segment holds 160 septets; a single character outside the basic table switches the
/// whole message to UCS-2 (70 characters a segment), and extension characters take two septets.
pub(super) const SEGMENT: usize = 160;

/// Builds an SMS that fits one segment for any realistic input. Only the organization name is
/// shortened or transliterated; the amount and the link are never altered. If even the shortest
/// wording cannot fit (an unusually long link), the amount and link still go out whole.
pub fn invoice_sms(n: &InvoiceNotice, to: &str) -> OutgoingSms {
    let number = to_gsm(&n.invoice_number);
    let currency = to_gsm(&n.currency);
    let due = to_gsm(&n.due_date);
    let amount = one_line(&n.amount_due);
    let url = one_line(&n.pay_url);

    let sms = |body: String| OutgoingSms { to: to.trim().to_owned(), body, status_callback: None };
    let args = [("number", number), ("amount", format!("{currency} {amount}")), ("date", due)];
    let say = |key: &str| to_gsm(&text(n.lang, key, &args));
    let pay = format!("{} {url}", say("reminder-pay"));

    let core = format!("{} {pay}", say("invoice-sms"));
    let org = to_gsm(&n.organization);
    let room = SEGMENT.saturating_sub(core.chars().count() + ": ".len());
    let org = shorten(&org, room);
    // A name cut to a couple of letters says nothing and reads like a typo.
    if org.chars().count() >= 3 {
        let body = format!("{org}: {core}");
        if is_single_gsm_segment(&body) {
            return sms(body);
        }
    }

    let fallbacks = [
        format!("{} {pay}", say("invoice-sms-alone")),
        format!("{} {pay}", say("invoice-sms-short")),
        format!("{currency} {amount}. {pay}"),
    ];
    let last = fallbacks[fallbacks.len() - 1].clone();
    sms(fallbacks.into_iter().find(|b| is_single_gsm_segment(b)).unwrap_or(last))
}

/// True if `s` goes out as a single SMS: at most 160 characters, all from the GSM 03.38 basic
/// table (no extension characters such as `€` or `[`, which cost two septets and are not shown by
/// every handset).
pub fn is_single_gsm_segment(s: &str) -> bool {
    s.chars().count() <= SEGMENT && s.chars().all(is_gsm_basic)
}

/// The GSM 03.38 default alphabet, less the escape to the extension table (0x1B).
const GSM_BASIC: &str = "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?\
¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà";

fn is_gsm_basic(c: char) -> bool {
    GSM_BASIC.contains(c)
}

/// Rewrites text into the GSM basic table on one line: accents the table lacks are dropped (`ï` ->
/// `i`), typographic punctuation becomes its ASCII look-alike, anything else is left out.
pub(super) fn to_gsm(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in one_line(s).chars() {
        if is_gsm_basic(c) {
            out.push(c);
            continue;
        }
        out.push_str(match c {
            'À' | 'Á' | 'Â' | 'Ã' | 'Ā' => "A",
            'á' | 'â' | 'ã' | 'ā' => "a",
            'ç' | 'ć' | 'č' => "c",
            'Ć' | 'Č' => "C",
            'È' | 'Ê' | 'Ë' | 'Ē' => "E",
            'ê' | 'ë' | 'ē' => "e",
            'Ì' | 'Í' | 'Î' | 'Ï' => "I",
            'í' | 'î' | 'ï' => "i",
            'Ò' | 'Ó' | 'Ô' | 'Õ' => "O",
            'ó' | 'ô' | 'õ' => "o",
            'Ù' | 'Ú' | 'Û' => "U",
            'ú' | 'û' => "u",
            'Ý' | 'Ÿ' => "Y",
            'ý' | 'ÿ' => "y",
            'Œ' => "OE",
            'œ' => "oe",
            'Š' => "S",
            'š' => "s",
            'Ž' => "Z",
            'ž' => "z",
            '‘' | '’' | 'ʼ' | '`' | '´' => "'",
            '“' | '”' | '«' | '»' | '„' => "\"",
            '‐' | '‑' | '–' | '—' | '−' | '~' => "-",
            '…' => "...",
            '[' | '{' => "(",
            ']' | '}' => ")",
            '\\' | '|' => "/",
            '€' => "EUR",
            '\u{a0}' => " ",
            _ => "",
        });
    }
    one_line(&out)
}

/// Cuts a name to at most `max` characters, at a word boundary when one is reasonably close.
pub(super) fn shorten(name: &str, max: usize) -> String {
    if name.chars().count() <= max {
        return name.to_owned();
    }
    let cut: String = name.chars().take(max).collect();
    let next_is_space = name.chars().nth(max).is_some_and(|c| c == ' ');
    let cut = match cut.rfind(' ') {
        Some(i) if !next_is_space && cut[..i].chars().count() >= max / 2 => &cut[..i],
        _ => cut.as_str(),
    };
    cut.trim_end_matches([' ', ',', '-', '\'', '&', '(']).to_owned()
}
