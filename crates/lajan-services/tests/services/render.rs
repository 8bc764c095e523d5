//! The invoice notice texts: every field present, HTML escaped, SMS in one GSM-7 segment.

use lajan_i18n::Lang;
use lajan_services::messages::render::{InvoiceNotice, invoice_email, invoice_sms, is_single_gsm_segment};

const URL: &str = "https://pay.example.ht/pay/pi_0123456789abcdef0123456789abcdef";

fn notice(org: &str) -> InvoiceNotice {
    InvoiceNotice {
        lang: Lang::En,
        organization: org.into(),
        invoice_number: "INV-000042".into(),
        amount_due: "1250.00".into(),
        currency: "HTG".into(),
        due_date: "2026-12-01".into(),
        pay_url: URL.into(),
        memo: None,
    }
}

#[test]
fn the_example_sms() {
    let sms = invoice_sms(&notice("Fonkoze"), "+50937000000");
    assert_eq!(sms.to, "+50937000000");
    assert_eq!(sms.body, format!("Fonkoze: invoice INV-000042, HTG 1250.00 due 2026-12-01. Pay: {URL}"));
    assert!(is_single_gsm_segment(&sms.body));
}

#[test]
fn long_accented_names_are_shortened_into_one_segment() {
    let sms = invoice_sms(&notice("Société Générale Haïtienne de Banque d'Épargne et de Logement"), "+50937000000");
    assert!(is_single_gsm_segment(&sms.body), "{} ({} chars)", sms.body, sms.body.chars().count());
    assert!(sms.body.starts_with("Société Générale Haitienne"), "{}", sms.body);
    assert!(sms.body.ends_with(&format!("HTG 1250.00 due 2026-12-01. Pay: {URL}")), "{}", sms.body);
}

#[test]
fn names_outside_gsm_are_transliterated_or_dropped() {
    let body = invoice_sms(&notice("Café “Lakay” — Pétion‑Ville €"), "+1").body;
    assert!(body.starts_with("Café \"Lakay\" - Pétion-Ville EUR: invoice"), "{body}");
    assert!(is_single_gsm_segment(&body));

    // Nothing left of the name: the message still makes sense without it.
    let body = invoice_sms(&notice("日本銀行 🏦"), "+1").body;
    assert_eq!(body, format!("Invoice INV-000042, HTG 1250.00 due 2026-12-01. Pay: {URL}"));
}

#[test]
fn gsm_segment_rules() {
    assert!(is_single_gsm_segment(
        "Pay: https://x.ht/pay/pi_1?a=b&c=d#e 100% @home £5 $5 ¥5 èéùìòÇØøÅåÆæßÉÄÖÑÜäöñüà§¿¡"
    ));
    assert!(is_single_gsm_segment(&"a".repeat(160)));
    assert!(!is_single_gsm_segment(&"a".repeat(161)));
    for not_basic in ["€", "[", "]", "{", "}", "\\", "^", "~", "|", "ç", "ï", "ê", "’", "🙂", "\u{1b}"] {
        assert!(!is_single_gsm_segment(not_basic), "{not_basic:?}");
    }
}

/// A small deterministic generator: reproducible "property" runs without a proptest dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

#[test]
fn any_organization_name_yields_one_segment_with_amount_and_link_intact() {
    let alphabet: Vec<char> = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789      \
        éèàòùçïîêôûëÉÈÀÔÇŒœæÆñÑüÜß'’&-.,()[]{}€~|^\\\"“”«»—–…🙂日本\t\n\u{a0}"
        .chars()
        .collect();
    let mut rng = Rng(0x5eed_1a7a_0000_0001);
    for case in 0..2000 {
        let len = rng.below(120);
        let org: String = (0..len).map(|_| alphabet[rng.below(alphabet.len())]).collect();
        let hex: String = (0..32).map(|_| char::from(b"0123456789abcdef"[rng.below(16)])).collect();
        let base = rng.pick(&["https://pay.example.ht", "https://lajan.example.com", "http://127.0.0.1:8080"]);
        let url = format!("{base}/pay/pi_{hex}");
        let amount = rng.pick(&["0.01", "1250.00", "999999999.99", "12.5", "1000000000000.00"]);
        let n = InvoiceNotice {
            lang: Lang::En,
            organization: org.clone(),
            invoice_number: format!("INV-{:06}", rng.below(1_000_000)),
            amount_due: amount.into(),
            currency: rng.pick(&["HTG", "USD", "USDC", "EUR"]).into(),
            due_date: "2026-12-01".into(),
            pay_url: url.clone(),
            memo: None,
        };
        let body = invoice_sms(&n, "+50937000000").body;
        assert!(is_single_gsm_segment(&body), "case {case}: org {org:?} gave {body:?}");
        assert!(body.ends_with(&format!(". Pay: {url}")), "case {case}: link altered in {body:?}");
        assert!(body.contains(&format!(" {amount} due 2026-12-01.")), "case {case}: amount altered in {body:?}");
        assert!(body.contains(&n.invoice_number), "case {case}: {body:?}");
    }
}

#[test]
fn an_overlong_link_still_goes_out_whole() {
    let mut n = notice("Fonkoze");
    n.pay_url = format!("https://pay.example.ht/pay/pi_{}", "0".repeat(200));
    let body = invoice_sms(&n, "+1").body;
    assert_eq!(body, format!("HTG 1250.00. Pay: {}", n.pay_url));
}

#[test]
fn email_contains_every_field() {
    let mut n = notice("Fonkoze");
    n.memo = Some("Kotizasyon desanm\nMèsi!".into());
    let email = invoice_email(&n, " client@example.com ");

    assert_eq!(email.to, "client@example.com");
    assert_eq!(email.subject, "Invoice INV-000042 from Fonkoze: HTG 1250.00 due 2026-12-01");
    for field in ["Fonkoze", "INV-000042", "HTG 1250.00", "2026-12-01", "Kotizasyon desanm\nMèsi!", URL] {
        assert!(email.text.contains(field), "{field:?} missing from text:\n{}", email.text);
    }
    for field in ["Fonkoze", "INV-000042", "HTG 1250.00", "2026-12-01", "Kotizasyon desanm<br>Mèsi!"] {
        assert!(email.html.contains(field), "{field:?} missing from html:\n{}", email.html);
    }
    assert!(email.html.contains(&format!("<a href=\"{URL}\"")), "{}", email.html);
    assert!(email.html.contains(">Pay now</a>"));
    assert!(email.text.contains(&format!("Pay now: {URL}")));
}

#[test]
fn email_without_memo_has_no_memo_paragraph() {
    let email = invoice_email(&notice("Fonkoze"), "client@example.com");
    let with = invoice_email(&InvoiceNotice { memo: Some("  ".into()), ..notice("Fonkoze") }, "client@example.com");
    assert_eq!(email, with, "a blank memo is no memo");
}

#[test]
fn html_escapes_every_interpolated_value() {
    let n = InvoiceNotice {
        lang: Lang::En,
        organization: "<script>alert('org')</script> & Co".into(),
        invoice_number: "INV-<b>1</b>".into(),
        amount_due: "1250.00".into(),
        currency: "HTG".into(),
        due_date: "2026-12-01".into(),
        pay_url: "https://pay.example.ht/pay/pi_1?a=1&b=\"><script>x</script>".into(),
        memo: Some("<script>alert(\"memo\")</script>".into()),
    };
    let email = invoice_email(&n, "client@example.com");

    assert!(!email.html.contains("<script"), "{}", email.html);
    assert!(!email.html.contains("<b>1"), "{}", email.html);
    assert!(email.html.contains("&lt;script&gt;alert(&#39;org&#39;)&lt;/script&gt; &amp; Co"), "{}", email.html);
    assert!(email.html.contains("&lt;script&gt;alert(&quot;memo&quot;)&lt;/script&gt;"), "{}", email.html);
    assert!(email.html.contains("href=\"https://pay.example.ht/pay/pi_1?a=1&amp;b=&quot;&gt;&lt;script&gt;"));
    // The plain-text part is not HTML: it keeps the characters as written.
    assert!(email.text.contains("<script>alert('org')</script> & Co"));
}

#[test]
fn line_breaks_in_names_cannot_reach_the_subject_or_sms() {
    let n = notice("Evil\r\nBcc: victim@example.com");
    let email = invoice_email(&n, "client@example.com");
    assert!(!email.subject.contains(['\r', '\n']), "{:?}", email.subject);
    let sms = invoice_sms(&n, "+1");
    assert!(!sms.body.contains(['\r', '\n']), "{:?}", sms.body);
}

#[test]
fn each_language_writes_its_own_invoice_in_one_segment_with_the_link_whole() {
    let long = "Institution de Microfinance pour le Développement Économique et Social";
    for (lang, words, email_words) in [
        (Lang::Ht, "fakti INV-000042 (HTG 1250.00) dwe peye 2026-12-01. Peye: ", "voye fakti"),
        (Lang::Fr, "facture INV-000042, HTG 1250.00 à régler le 2026-12-01. Payer : ", "vous a envoyé la facture"),
        (Lang::En, "invoice INV-000042, HTG 1250.00 due 2026-12-01. Pay: ", "sent you invoice"),
    ] {
        for org in ["Fonkoze", long] {
            let n = InvoiceNotice { lang, ..notice(org) };
            let sms = invoice_sms(&n, "+50937000000").body;
            assert!(is_single_gsm_segment(&sms), "{lang:?}: {sms}");
            assert!(sms.ends_with(&format!("{words}{URL}")), "{lang:?}: {sms}");
        }
        let email = invoice_email(&InvoiceNotice { lang, ..notice("Fonkoze") }, "client@example.com");
        assert!(email.text.contains(email_words), "{lang:?}: {}", email.text);
        assert!(email.html.contains(&format!("<html lang=\"{}\">", lang.code())), "{}", email.html);
        assert!(email.html.contains("<strong>INV-000042</strong>"), "{}", email.html);
    }
}
