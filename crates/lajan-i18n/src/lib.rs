//! Lajan's languages: English, French and Haitian Creole (kreyòl ayisyen). Every string the
//! console and the hosted payment page show comes from one Fluent catalogue per language
//! (`locales/*.ftl`, compiled in); it sits below the services so that messages can too. A console request is answered in the signed-in user's
//! chosen language, else the first its browser asks for (`Accept-Language`), else English.
//! Templates write `t("key")` or `t("key", name=value)`, Rust code `say("key")` (the request's
//! language) or `text(lang, key, args)`; [`formats`] writes amounts, dates and statuses.

pub mod formats;
pub mod typed;

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource};
use http::{HeaderMap, header};
use minijinja::value::Kwargs;
use minijinja::{Error, State};
use serde::Serialize;
use std::cell::Cell;
use std::collections::BTreeSet;
use std::future::Future;
use std::sync::OnceLock;
use unic_langid::{LanguageIdentifier, langid};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    En,
    Fr,
    Ht,
}

/// Each language's catalogue, in [`Lang::ALL`]'s order.
const CATALOGUES: [&str; 3] =
    [include_str!("../locales/en.ftl"), include_str!("../locales/fr.ftl"), include_str!("../locales/ht.ftl")];

impl Lang {
    pub const ALL: [Lang; 3] = [Lang::En, Lang::Fr, Lang::Ht];

    pub const fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Fr => "fr",
            Lang::Ht => "ht",
        }
    }

    fn index(self) -> usize {
        match self {
            Lang::En => 0,
            Lang::Fr => 1,
            Lang::Ht => 2,
        }
    }

    fn id(self) -> LanguageIdentifier {
        match self {
            Lang::En => langid!("en"),
            Lang::Fr => langid!("fr"),
            Lang::Ht => langid!("ht"),
        }
    }

    pub fn parse(code: &str) -> Option<Lang> {
        let primary = code.split(['-', '_']).next().unwrap_or_default();
        Lang::ALL.into_iter().find(|l| l.code().eq_ignore_ascii_case(primary))
    }

    /// The first language of an `Accept-Language` header (by its weights) the console speaks;
    /// English when it names none of them.
    pub fn from_accept_language(header: &str) -> Lang {
        let mut asked: Vec<(f32, usize, Lang)> = header
            .split(',')
            .enumerate()
            .filter_map(|(order, part)| {
                let mut pieces = part.trim().split(';');
                let lang = Lang::parse(pieces.next()?.trim())?;
                let weight = pieces
                    .find_map(|p| p.trim().strip_prefix("q="))
                    .map_or(Some(1.0), |q| q.trim().parse::<f32>().ok())?;
                (weight > 0.0).then_some((weight, order, lang))
            })
            .collect();
        asked.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        asked.first().map_or(Lang::En, |(_, _, lang)| *lang)
    }
}

fn bundles() -> &'static [FluentBundle<FluentResource>; 3] {
    static BUNDLES: OnceLock<[FluentBundle<FluentResource>; 3]> = OnceLock::new();
    BUNDLES.get_or_init(|| {
        Lang::ALL.map(|lang| {
            let source = CATALOGUES[lang.index()].to_owned();
            let resource = FluentResource::try_new(source)
                .unwrap_or_else(|(_, errors)| panic!("the {} catalogue does not parse: {errors:?}", lang.code()));
            let mut bundle = FluentBundle::new_concurrent(vec![lang.id()]);
            // Placeholders go into HTML that says its own direction: no isolation marks.
            bundle.set_use_isolating(false);
            if let Err(errors) = bundle.add_resource(resource) {
                panic!("the {} catalogue repeats a key: {errors:?}", lang.code());
            }
            bundle
        })
    })
}

/// `key`'s text in `lang` with `args`; English when `lang`'s catalogue lacks it (a test keeps
/// them complete), the key itself when no catalogue has it.
pub fn text(lang: Lang, key: &str, args: &[(&str, String)]) -> String {
    known(lang, key, args).unwrap_or_else(|| key.to_owned())
}

/// `key`'s text as [`text`] gives it, or `None` when no catalogue has the key: for the keys made
/// from a value (`status-<name>`), where a value without words is shown as it is.
pub fn known(lang: Lang, key: &str, args: &[(&str, String)]) -> Option<String> {
    let mut fluent_args = FluentArgs::new();
    for (name, value) in args {
        // A count arrives as text; as a number it picks its plural form (`1 row`, `2 rows`).
        // Only plain counts: an id, a phone number or `007` stays text as written.
        let count = !value.is_empty()
            && value.len() < 16
            && !value.starts_with('0')
            && value.bytes().all(|b| b.is_ascii_digit());
        match value.parse::<u64>() {
            Ok(n) if count => fluent_args.set(*name, n),
            _ => fluent_args.set(*name, value.clone()),
        }
    }
    for lang in [lang, Lang::En] {
        let bundle = &bundles()[lang.index()];
        if let Some(pattern) = bundle.get_message(key).and_then(|m| m.value()) {
            let mut errors = Vec::new();
            return Some(bundle.format_pattern(pattern, Some(&fluent_args), &mut errors).into_owned());
        }
    }
    None
}

tokio::task_local! {
    /// The language the request being answered speaks: what its browser asks for, until the
    /// signed-in user's own choice replaces it. Kept per request so that the pages a handler
    /// answers without a frame (a refusal, a failure) speak it too, without every one of the
    /// console's error paths passing it along.
    static ANSWERING_IN: Cell<Lang>;
}

/// Runs `answer` (a request's handling) speaking `lang`, until [`answer_in`] changes it.
pub async fn answering<F: Future>(lang: Lang, answer: F) -> F::Output {
    ANSWERING_IN.scope(Cell::new(lang), answer).await
}

/// The language a request's browser asks for (`Accept-Language`).
pub fn asked_language(headers: &HeaderMap) -> Lang {
    let asked = headers.get(header::ACCEPT_LANGUAGE).and_then(|v| v.to_str().ok()).unwrap_or_default();
    Lang::from_accept_language(asked)
}

/// The rest of this request is answered in `lang`.
pub fn answer_in(lang: Lang) {
    // Outside a request (a unit test), there is nothing to set.
    let _ = ANSWERING_IN.try_with(|current| current.set(lang));
}

/// The language this request is answered in; English outside one.
pub fn answering_in() -> Lang {
    ANSWERING_IN.try_with(Cell::get).unwrap_or(Lang::En)
}

/// `key`'s text in the language this request is answered in.
pub fn say(key: &str) -> String {
    text(answering_in(), key, &[])
}

/// `key`'s text in the language this request is answered in, when a catalogue has the key.
pub fn say_known(key: &str) -> Option<String> {
    known(answering_in(), key, &[])
}

/// `key`'s text with `args` in the language this request is answered in.
pub fn say_with(key: &str, args: &[(&str, String)]) -> String {
    text(answering_in(), key, args)
}

/// The language a template renders in: its `lang`, or its frame's, else the request's.
pub fn page_lang(state: &State) -> Lang {
    state
        .lookup("lang")
        .or_else(|| state.lookup("frame").and_then(|f| f.get_attr("lang").ok()))
        .and_then(|v| Lang::parse(&v.to_string()))
        .unwrap_or_else(answering_in)
}

/// Teaches a template environment the page's language: the function `t` ([`template_text`])
/// and the filters `money`, `day`, `when`, `status` and `event` ([`formats`]).
pub fn add_to(env: &mut minijinja::Environment<'static>) {
    env.add_function("t", template_text);
    formats::add_filters(env);
}

/// The template function `t(key, name=value, ...)`, in the page's language.
pub fn template_text(state: &State, key: &str, kwargs: Kwargs) -> Result<String, Error> {
    let mut args = Vec::new();
    for name in kwargs.args() {
        let value: minijinja::Value = kwargs.get(name)?;
        args.push((name, value.to_string()));
    }
    kwargs.assert_all_used()?;
    Ok(text(page_lang(state), key, &args))
}

/// The keys `lang`'s catalogue defines: for the checks that every key a page or a message says
/// is in the catalogues.
pub fn catalogue_keys(lang: Lang) -> BTreeSet<String> {
    CATALOGUES[lang.index()]
        .lines()
        .filter(|l| l.chars().next().is_some_and(|c| c.is_ascii_lowercase()))
        .filter_map(|l| l.split_once('=').map(|(k, _)| k.trim().to_owned()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_catalogue_has_every_key() {
        let english = catalogue_keys(Lang::En);
        assert!(english.len() > 10, "the English catalogue reads as {english:?}");
        for lang in [Lang::Fr, Lang::Ht] {
            let theirs = catalogue_keys(lang);
            let missing: Vec<_> = english.difference(&theirs).collect();
            let extra: Vec<_> = theirs.difference(&english).collect();
            assert!(missing.is_empty(), "{} lacks {missing:?}", lang.code());
            assert!(extra.is_empty(), "{} has keys English lacks: {extra:?}", lang.code());
        }
        // Each parses, and each key has a text in each language.
        for lang in Lang::ALL {
            for key in &english {
                let has_text = bundles()[lang.index()].get_message(key).and_then(|m| m.value()).is_some();
                assert!(has_text, "{key} has no text in {}", lang.code());
            }
        }
    }

    #[test]
    fn the_browser_s_first_spoken_language_wins() {
        assert_eq!(Lang::from_accept_language("fr-FR,fr;q=0.9,en;q=0.8"), Lang::Fr);
        assert_eq!(Lang::from_accept_language("de-DE, ht;q=0.8, fr;q=0.7"), Lang::Ht);
        assert_eq!(Lang::from_accept_language("en;q=0.5, fr;q=0.9"), Lang::Fr, "by weight, not order");
        assert_eq!(Lang::from_accept_language("fr;q=0, ht"), Lang::Ht, "q=0 means not this one");
        assert_eq!(Lang::from_accept_language("de, *"), Lang::En);
        assert_eq!(Lang::from_accept_language(""), Lang::En);
    }

    #[test]
    fn counts_pick_their_plural_form() {
        assert_eq!(text(Lang::En, "item-count", &[("count", "1".into())]), "1 item");
        assert_eq!(text(Lang::En, "item-count", &[("count", "2".into())]), "2 items");
        assert_eq!(text(Lang::Fr, "rows-invalid", &[("count", "1".into())]), "1 ligne est incorrecte.");
        assert_eq!(text(Lang::En, "pay-footer", &[("reference", "007".into())]), "Payments by Lajan · reference 007");
        assert_eq!(
            text(Lang::En, "date", &[("day", "5".into()), ("month", "May".into()), ("year", "2026".into())]),
            "May 5, 2026"
        );
    }

    #[test]
    fn placeholders_are_filled_without_isolation_marks() {
        let signed_in_as = text(Lang::Fr, "role-not-allowed", &[("role", "viewer".into())]);
        assert!(signed_in_as.contains("viewer") && !signed_in_as.contains('\u{2068}'), "{signed_in_as}");
    }
}
