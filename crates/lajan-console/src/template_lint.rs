//! Checks that no template carries words of its own (every text a person reads comes from the
//! catalogues through `t(...)`, so a French or Creole page cannot keep an English leftover), and
//! that every key a template or the code says is in the catalogues.

use std::path::Path;

/// What may stand in a template as it is: names that are the same in every language.
const SAME_IN_EVERY_LANGUAGE: &[&str] = &[
    "Lajan",
    "URL",
    "HTTP",
    "ms",
    "CSV",
    "English",
    "Français",
    "Kreyòl",
    "America/Port-au-Prince",
    "https://example.ht/lajan/webhooks",
    "June stipends",
    "G…",
];

/// `source` without its `open … close` spans, each replaced by what `keep` makes of its inside.
fn without(source: &str, open: &str, close: &str, mut keep: impl FnMut(&str) -> String) -> String {
    let mut out = String::with_capacity(source.len());
    let mut rest = source;
    while let Some(start) = rest.find(open) {
        out.push_str(&rest[..start]);
        let inner = &rest[start + open.len()..];
        let end = inner.find(close).unwrap_or_else(|| panic!("unclosed {open} in {rest:.80}"));
        out.push_str(&keep(&inner[..end]));
        rest = &inner[end + close.len()..];
    }
    out.push_str(rest);
    out
}

/// The string literals of a template expression that are words a person would read: not keys of
/// `t(...)`, paths, field names or other lowercase identifiers.
fn readable_literals(expression: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut pieces = expression.split('"');
    let mut before = pieces.next().unwrap_or_default();
    while let (Some(literal), Some(after)) = (pieces.next(), pieces.next()) {
        let a_key = before.trim_end().ends_with("t(") || before.trim_end().ends_with('~');
        let identifier =
            literal.chars().all(|c| c.is_ascii_lowercase() || "_-./*:{}%".contains(c) || c.is_ascii_digit());
        let words = literal.chars().any(char::is_alphabetic);
        if words && !a_key && !identifier && !SAME_IN_EVERY_LANGUAGE.contains(&literal) {
            found.push(literal.to_owned());
        }
        before = after;
    }
    found
}

/// The words a template shows that do not come from the catalogue.
fn words_of_its_own(source: &str) -> Vec<String> {
    let mut found = Vec::new();
    let source = without(source, "{#", "#}", |_| String::new());
    // Styles and scripts are not read; a script's words for people come through `data-*`.
    let source = without(&source, "<style", "</style>", |_| String::new());
    let source = without(&source, "<script", "</script>", |_| String::new());
    let source = without(&source, "{%", "%}", |inner| {
        found.extend(readable_literals(inner));
        String::new()
    });
    let source = without(&source, "{{", "}}", |inner| {
        found.extend(readable_literals(inner));
        String::new()
    });
    // Attributes people read (placeholders, labels for screen readers, titles) count as text.
    let source = without(&source, "<", ">", |tag| {
        let mut shown = String::new();
        for attribute in ["placeholder=\"", "aria-label=\"", "title=\"", "alt=\""] {
            for value in tag.split(attribute).skip(1) {
                shown.push(' ');
                shown.push_str(value.split('"').next().unwrap_or_default());
            }
        }
        format!(" {shown} ")
    });
    let mut text = source.replace("&nbsp;", " ");
    for allowed in SAME_IN_EVERY_LANGUAGE {
        text = text.replace(allowed, " ");
    }
    found.extend(text.split_whitespace().filter(|w| w.chars().any(char::is_alphabetic)).map(str::to_owned));
    found
}

/// Every template that speaks from the catalogues, by file name: the console's and the hosted
/// payment page's (in `lajan-api`).
pub(crate) fn template_sources() -> Vec<(String, String)> {
    let console = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut sources = Vec::new();
    for dir in [console.join("templates"), console.join("../lajan-api/templates")] {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            sources.push((name, std::fs::read_to_string(&path).unwrap()));
        }
    }
    assert!(sources.iter().any(|(name, _)| name == "pay.html"), "the payment page is checked too");
    sources
}

#[test]
fn templates_carry_no_words_of_their_own() {
    let mut leftovers = Vec::new();
    for (name, source) in template_sources() {
        for word in words_of_its_own(&source) {
            leftovers.push(format!("{name}: {word}"));
        }
    }
    assert!(leftovers.is_empty(), "text outside the catalogues:\n{}", leftovers.join("\n"));
}

#[test]
fn the_check_finds_text_literals_and_attributes() {
    let found = words_of_its_own(
        r#"<h1>Invoices</h1><input placeholder="Name"><p>{{ t("saved") }}</p>{{ choice("status", "Status") }}<a href="/x">{{ "/console" }}</a>"#,
    );
    assert_eq!(found, ["Status", "Invoices", "Name"]);
}

#[test]
fn every_key_the_templates_use_is_in_the_catalogue() {
    let english = lajan_i18n::catalogue_keys(lajan_i18n::Lang::En);
    let mut used = Vec::new();
    for (name, source) in template_sources() {
        for piece in source.split("t(\"").skip(1) {
            let (key, after) = piece.split_once('"').unwrap();
            // `t("role-" ~ frame.role)`: a prefix, which some keys must start with.
            let prefix = after.trim_start().starts_with('~');
            used.push((name.clone(), key.to_owned(), prefix));
        }
    }
    assert!(!used.is_empty());
    let known = |key: &str, prefix: bool| {
        if prefix { english.iter().any(|k| k.starts_with(key)) } else { english.contains(key) }
    };
    let unknown: Vec<_> = used.iter().filter(|(_, key, prefix)| !known(key, *prefix)).collect();
    assert!(unknown.is_empty(), "keys in templates but not in locales/en.ftl: {unknown:?}");
}

#[test]
fn every_key_the_code_says_is_in_the_catalogue() {
    let english = lajan_i18n::catalogue_keys(lajan_i18n::Lang::En);
    let console = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut sources: Vec<std::path::PathBuf> =
        std::fs::read_dir(console.join("src")).unwrap().map(|e| e.unwrap().path()).collect();
    sources.push(console.join("../lajan-api/src/routes/pay.rs"));
    let mut unknown = Vec::new();
    let mut seen = 0;
    for path in sources {
        let source = std::fs::read_to_string(&path).unwrap();
        // A key is said by `say("..")`, `say_with("..")`, `text(lang, "..")` or named in a
        // literal of a key family (`"no-such-status"` handed to a list's filter).
        for opener in ["say(\"", "say_with(\"", "text(lang, \"", "text(self.lang, \"", "\"no-such-", "\"pay-"] {
            for piece in source.split(opener).skip(1) {
                let Some((rest, _)) = piece.split_once('"') else { continue };
                let key = match opener.strip_prefix('"') {
                    Some(family) => format!("{family}{rest}"),
                    None => rest.to_owned(),
                };
                if key.contains(['{', ' ', '.']) || key.ends_with('-') {
                    continue;
                }
                seen += 1;
                if !english.contains(&key) {
                    unknown.push(format!("{}: {key}", path.display()));
                }
            }
        }
    }
    assert!(seen > 40, "the scan found only {seen} keys");
    assert!(unknown.is_empty(), "keys the code says that locales/en.ftl lacks: {unknown:?}");
}
