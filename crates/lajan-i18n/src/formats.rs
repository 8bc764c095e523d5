//! Amounts, dates and status names as each language writes them: `1,234.56` and
//! `November 26, 2026` in English, `1 234,56` and `26 novembre 2026` in French and Creole. The
//! API's values stay as they are; only what a page shows is formatted, through the template
//! filters `money`, `day`, `when`, `status` and `event`.

use crate::{Lang, page_lang};
use minijinja::{State, Value};

/// A decimal amount (`-1234.5600`) with the language's group and decimal separators; anything
/// that is not a plain decimal is shown as it came.
pub fn amount(lang: Lang, value: &str) -> String {
    let (sign, digits) = value.strip_prefix('-').map_or(("", value), |rest| ("-", rest));
    let (whole, fraction) = digits.split_once('.').map_or((digits, None), |(w, f)| (w, Some(f)));
    let plain = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !plain(whole) || fraction.is_some_and(|f| !plain(f)) {
        return value.to_owned();
    }
    // French and Creole group with a narrow no-break space, so a figure never breaks a line.
    let (group, point) = match lang {
        Lang::En => (",", "."),
        Lang::Fr | Lang::Ht => ("\u{202f}", ","),
    };
    let mut grouped = String::with_capacity(value.len() + whole.len() / 3 * 3);
    for (i, digit) in whole.chars().enumerate() {
        if i > 0 && (whole.len() - i) % 3 == 0 {
            grouped.push_str(group);
        }
        grouped.push(digit);
    }
    match fraction {
        Some(f) => format!("{sign}{grouped}{point}{f}"),
        None => format!("{sign}{grouped}"),
    }
}

/// A calendar date (`2026-12-01`) written out; anything else as it came.
pub fn day(lang: Lang, value: &str) -> String {
    match value.parse::<jiff::civil::Date>() {
        Ok(date) => written_date(lang, date),
        Err(_) => value.to_owned(),
    }
}

/// An instant (RFC 3339) as its date and minute in timezone `zone` (an IANA name; UTC when
/// none or unknown), written out with the zone's name (`Port-au-Prince time`), so nobody
/// wonders which clock it is; anything else as it came.
pub fn when_in(lang: Lang, value: &str, zone: Option<&str>) -> String {
    let Ok(instant) = value.parse::<jiff::Timestamp>() else { return value.to_owned() };
    let named = zone.filter(|z| *z != "UTC").and_then(|z| Some((z, jiff::tz::TimeZone::get(z).ok()?)));
    let (local, zone) = match named {
        Some((name, tz)) => {
            let city = name.rsplit('/').next().unwrap_or(name).replace('_', " ");
            (instant.to_zoned(tz).datetime(), crate::text(lang, "zone-time", &[("city", city)]))
        }
        None => (instant.to_zoned(jiff::tz::TimeZone::UTC).datetime(), "UTC".to_owned()),
    };
    let time = format!("{:02}:{:02}", local.hour(), local.minute());
    crate::text(lang, "date-time", &[("date", written_date(lang, local.date())), ("time", time), ("zone", zone)])
}

fn written_date(lang: Lang, date: jiff::civil::Date) -> String {
    let month = crate::text(lang, &format!("month-{:02}", date.month()), &[]);
    let args = [("day", date.day().to_string()), ("month", month), ("year", date.year().to_string())];
    crate::text(lang, "date", &args)
}

/// A status, type or outcome the API names in `snake_case`, in words (`status-<name>` in the
/// catalogue); a name the catalogue lacks is shown as it is.
pub fn status(lang: Lang, value: &str) -> String {
    crate::known(lang, &format!("status-{value}"), &[]).unwrap_or_else(|| value.to_owned())
}

/// An event type (`invoice.paid`) in words (`event-invoice-paid` in the catalogue).
pub fn event(lang: Lang, event_type: &str) -> String {
    let key = format!("event-{}", event_type.replace('.', "-"));
    crate::known(lang, &key, &[]).unwrap_or_else(|| event_type.to_owned())
}

/// The template filters, in the page's language; a missing value shows as nothing.
pub fn add_filters(env: &mut minijinja::Environment<'static>) {
    fn filter(format: fn(Lang, &str) -> String) -> impl Fn(&State, Value) -> String + Send + Sync + 'static {
        move |state: &State, value: Value| {
            if value.is_none() || value.is_undefined() {
                String::new()
            } else {
                format(page_lang(state), &value.to_string())
            }
        }
    }
    env.add_filter("money", filter(amount));
    env.add_filter("day", filter(day));
    // Times in the organization's timezone on the console's pages (their frame names it).
    env.add_filter("when", |state: &State, value: Value| {
        if value.is_none() || value.is_undefined() {
            return String::new();
        }
        let zone = state.lookup("frame").and_then(|f| f.get_attr("timezone").ok()).filter(|z| !z.is_undefined());
        when_in(page_lang(state), &value.to_string(), zone.as_ref().and_then(Value::as_str))
    });
    // `value|status("invoice")`: a status as it reads of that kind of thing, where a language
    // agrees it with the thing's gender (`envoyée`, an invoice; `envoyé`, a payout).
    env.add_filter("status", |state: &State, value: Value, kind: Option<String>| {
        if value.is_none() || value.is_undefined() {
            return String::new();
        }
        let (lang, value) = (page_lang(state), value.to_string());
        kind.and_then(|kind| crate::known(lang, &format!("status-{kind}-{value}"), &[]))
            .unwrap_or_else(|| status(lang, &value))
    });
    env.add_filter("event", filter(event));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts_take_each_languages_separators() {
        assert_eq!(amount(Lang::En, "1234567.50"), "1,234,567.50");
        assert_eq!(amount(Lang::Fr, "1234567.50"), "1\u{202f}234\u{202f}567,50");
        assert_eq!(amount(Lang::Ht, "-1000"), "-1\u{202f}000");
        assert_eq!(amount(Lang::En, "999.9999999"), "999.9999999");
        assert_eq!(amount(Lang::Fr, "0.05"), "0,05");
        assert_eq!(amount(Lang::Fr, "n/a"), "n/a");
        assert_eq!(amount(Lang::Fr, "1.2.3"), "1.2.3");
    }

    #[test]
    fn dates_and_instants_are_written_out() {
        assert_eq!(day(Lang::En, "2026-12-01"), "December 1, 2026");
        assert_eq!(day(Lang::Fr, "2026-12-01"), "1 décembre 2026");
        assert_eq!(day(Lang::Ht, "2026-12-01"), "1 desanm 2026");
        assert_eq!(when_in(Lang::Fr, "2026-11-26T06:53:23.123Z", None), "26 novembre 2026 à 06:53 UTC");
        assert_eq!(when_in(Lang::En, "2026-11-26T06:53:23.123Z", None), "November 26, 2026, 06:53 UTC");
        assert_eq!(when_in(Lang::En, "soon", None), "soon");
        // In the organization's timezone, named; daylight saving time included (EDT in July).
        let port_au_prince = Some("America/Port-au-Prince");
        assert_eq!(
            when_in(Lang::Fr, "2026-11-26T14:05:00Z", port_au_prince),
            "26 novembre 2026 à 09:05 heure de Port-au-Prince"
        );
        assert_eq!(when_in(Lang::Ht, "2026-07-01T14:05:00Z", port_au_prince), "1 jiyè 2026 a 10:05 lè Port-au-Prince");
        assert_eq!(when_in(Lang::En, "2026-11-26T14:05:00Z", Some("Mars/Olympus")), "November 26, 2026, 14:05 UTC");
    }

    #[test]
    fn every_event_type_has_words() {
        for event_type in lajan_domain::event::EVENT_TYPES {
            assert_ne!(event(Lang::En, event_type), *event_type, "{event_type} has no words in the catalogues");
        }
        assert_eq!(event(Lang::Fr, "invoice.paid"), "Facture payée");
    }

    #[test]
    fn every_status_the_console_shows_has_words() {
        use lajan_domain::{console::SignInOutcome, disbursement, invoice::InvoiceStatus, payout, webhook};
        let mut names: Vec<&str> = Vec::new();
        names.extend(InvoiceStatus::ALL.iter().map(|s| s.as_str()));
        names.extend(payout::ApprovalStatus::ALL.iter().map(|s| s.as_str()));
        names.extend(payout::ExecStatus::ALL.iter().map(|s| s.as_str()));
        names.extend(payout::PayoutType::ALL.iter().map(|s| s.as_str()));
        names.extend(payout::PayoutFilter::ALL.iter().map(|s| s.as_str()));
        names.extend(disbursement::DisbursementStatus::ALL.iter().map(|s| s.as_str()));
        names.extend(disbursement::DisbursementSource::ALL.iter().map(|s| s.as_str()));
        names.extend(disbursement::ItemStatus::ALL.iter().map(|s| s.as_str()));
        names.extend(webhook::DeliveryStatus::ALL.iter().map(|s| s.as_str()));
        names.extend(SignInOutcome::ALL.iter().map(|s| s.as_str()));
        names.extend(lajan_domain::payment::IntentStatus::ALL.iter().map(|s| s.as_str()));
        // The catalogue test keeps French and Creole as complete as English.
        for name in names {
            let key = format!("status-{name}");
            assert_ne!(crate::text(Lang::En, &key, &[]), key, "{key} is missing from the catalogues");
        }
    }
}
