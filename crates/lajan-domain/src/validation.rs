//! Validation failures: a stable machine code, a human message, and per-field details.

use serde::Serialize;
use std::fmt;

/// One field's problem, e.g. `{ field: "lineItems[0].quantity", message: "must be positive" }`.
/// In a batch (a disbursement's items) it also names the row, counted from 1, and the same
/// code a single request would have been refused with.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FieldError {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub row: Option<u32>,
    pub field: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<&'static str>,
    pub message: String,
}

impl FieldError {
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        FieldError { row: None, field: field.into(), code: None, message: message.into() }
    }

    /// The problem of one row of a batch: `invalid` as a single request would have met it.
    pub fn in_row(row: u32, field: impl Into<String>, invalid: Invalid) -> Self {
        FieldError { row: Some(row), field: field.into(), code: Some(invalid.code), message: invalid.message }
    }
}

/// Input that a domain constructor refused. The API answers it with 400 and these contents.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invalid {
    pub code: &'static str,
    pub message: String,
    pub details: Vec<FieldError>,
}

impl Invalid {
    pub fn new(code: &'static str, message: impl Into<String>) -> Self {
        Invalid { code, message: message.into(), details: Vec::new() }
    }

    /// `validation_error` listing every bad field.
    pub fn fields(details: Vec<FieldError>) -> Self {
        let message = match details.as_slice() {
            [one] => format!("{}: {}", one.field, one.message),
            _ => format!("{} fields are invalid", details.len()),
        };
        Invalid { code: "validation_error", message, details }
    }
}

impl fmt::Display for Invalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

impl std::error::Error for Invalid {}

/// Why `text` is unfit to show a person, if it is: a control character (NUL, escape, DEL, the
/// C1 range) that no screen shows and that an SMS, an email subject or a Stellar memo would carry
/// as garbage, or an invisible character that changes how the rest reads (bidirectional
/// overrides and isolates, which can make a memo display as something else; zero-width space and
/// byte-order mark; line and paragraph separators; characters that display as nothing, so a
/// name can look blank or like another: tag characters, invisible operators, interlinear
/// annotation marks, the Mongolian vowel separator, the soft hyphen, the deprecated format
/// characters and the Hangul fillers). With `lines`, line breaks and tabs are allowed, for notes
/// of several lines. Joiners (ZWJ, ZWNJ) and directional marks stay: scripts need them.
pub fn control_character(text: &str, lines: bool) -> Option<String> {
    let invisible = |c: char| {
        matches!(c,
            '\u{00AD}' | '\u{115F}' | '\u{1160}' | '\u{180E}' | '\u{200B}' | '\u{202A}'..='\u{202E}'
            | '\u{2060}'..='\u{2064}' | '\u{2066}'..='\u{206F}' | '\u{3164}' | '\u{FEFF}' | '\u{FFA0}'
            | '\u{FFF9}'..='\u{FFFB}' | '\u{E0000}'..='\u{E007F}')
    };
    let breaks = |c: char| matches!(c, '\n' | '\r' | '\t' | '\u{2028}' | '\u{2029}');
    let refused = |c: char| (c.is_control() || invisible(c) || breaks(c)) && !(lines && breaks(c));
    let (at, c) = text.chars().enumerate().find(|&(_, c)| refused(c))?;
    Some(format!(
        "must not contain control or invisible formatting characters (found U+{:04X} at character {})",
        u32::from(c),
        at + 1
    ))
}

/// The longest reason a person may give for voiding, rejecting or the like.
pub const MAX_REASON_CHARS: usize = 500;

/// Why something was voided or rejected, as the person gave it under `reason`: optional, at
/// most [`MAX_REASON_CHARS`] characters, several lines allowed.
pub fn parse_reason(raw: Option<&str>) -> Result<Option<String>, Invalid> {
    parse_text(raw, MAX_REASON_CHARS, true).map_err(|rule| Invalid::fields(vec![FieldError::new("reason", rule)]))
}

/// Free text a person typed (a memo, a description, a reason): at most `max_chars` characters
/// and nothing [`control_character`] refuses (line breaks allowed with `lines`), then trimmed,
/// with empty meaning none. The error is the rule broken, for a [`FieldError`] under the field's
/// name.
pub fn parse_text(raw: Option<&str>, max_chars: usize, lines: bool) -> Result<Option<String>, String> {
    let Some(raw) = raw else { return Ok(None) };
    check_text(raw, max_chars, lines)?;
    let text = raw.trim();
    Ok((!text.is_empty()).then(|| text.to_owned()))
}

/// The rules of free text, checked on the text as sent, before it is trimmed: what the OpenAPI
/// document's `maxLength` and `pattern` say, so a value the document refuses (a tab at the end
/// of a one-line field, spaces past the limit) is refused here too, not silently trimmed.
pub fn check_text(raw: &str, max_chars: usize, lines: bool) -> Result<(), String> {
    if raw.chars().count() > max_chars {
        return Err(format!("must be at most {max_chars} characters"));
    }
    match control_character(raw, lines) {
        Some(problem) => Err(problem),
        None => Ok(()),
    }
}

/// Like [`parse_text`], for a field that must be given and not blank.
pub fn required_text(raw: Option<&str>, max_chars: usize, lines: bool) -> Result<String, String> {
    match parse_text(raw, max_chars, lines)? {
        Some(text) => Ok(text),
        None if raw.is_none() => Err("is required".into()),
        None => Err("must not be empty".into()),
    }
}

/// Collects field errors while a request is parsed, so one response lists all of them.
#[derive(Debug, Default)]
pub struct FieldErrors(Vec<FieldError>);

impl FieldErrors {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn add(&mut self, field: impl Into<String>, message: impl Into<String>) {
        self.0.push(FieldError::new(field, message));
    }

    /// Keeps the value when it parsed; records the error under `field` when it did not.
    /// A field a change may leave out but not clear: its value parsed, or its error added.
    pub fn not_null<T>(
        &mut self,
        field: &str,
        raw: Option<Option<String>>,
        parse: impl Fn(&str) -> Result<T, String>,
    ) -> Option<T> {
        match raw {
            None => None,
            Some(None) => {
                self.add(field, "cannot be null");
                None
            }
            Some(Some(s)) => self.take(field, parse(&s)),
        }
    }

    pub fn take<T>(&mut self, field: &str, parsed: Result<T, String>) -> Option<T> {
        match parsed {
            Ok(v) => Some(v),
            Err(message) => {
                self.add(field, message);
                None
            }
        }
    }

    /// `Ok(())` when nothing was recorded, else a `validation_error`.
    pub fn finish(self) -> Result<(), Invalid> {
        if self.0.is_empty() { Ok(()) } else { Err(Invalid::fields(self.0)) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_refuses_control_characters_but_keeps_line_breaks_where_asked() {
        assert_eq!(parse_text(Some("  Loan fee  "), 12, false), Ok(Some("Loan fee".into())));
        // Checked as sent, as the OpenAPI document's pattern and maxLength read it: an edge
        // that trimming would drop is no way around either rule.
        assert_eq!(parse_text(Some("  Loan fee  "), 10, false), Err("must be at most 10 characters".into()));
        for edge in ["Books\t", "\tBooks", "Books\n", "\u{2028}Books", "Books\u{85}"] {
            assert!(parse_text(Some(edge), 100, false).is_err(), "{edge:?}");
        }
        assert_eq!(parse_text(Some("\tlines\n"), 100, true), Ok(Some("lines".into())));
        assert!(parse_text(Some("lines\u{b}"), 100, true).is_err(), "vertical tab");
        assert_eq!(parse_text(Some("   "), 10, false), Ok(None));
        assert_eq!(parse_text(None, 10, false), Ok(None));
        assert_eq!(parse_text(Some("abcdefghijk"), 10, false), Err("must be at most 10 characters".into()));
        assert_eq!(parse_text(Some("line one\nline two"), 100, true), Ok(Some("line one\nline two".into())));
        let nul = parse_text(Some("ab\u{0}c"), 100, true).unwrap_err();
        assert_eq!(nul, "must not contain control or invisible formatting characters (found U+0000 at character 3)");
        for bad in ["a\nb", "a\tb", "a\u{2028}b", "\u{1b}[2J", "x\u{7f}", "\u{9b}x"] {
            assert!(parse_text(Some(bad), 100, false).is_err(), "{bad:?}");
        }
        for bad in ["\u{1b}[2J", "x\u{7f}", "\u{0}", "pay \u{202E}001", "a\u{200B}b", "\u{2066}x\u{2069}", "\u{FEFF}x"]
        {
            assert!(parse_text(Some(bad), 100, true).is_err(), "{bad:?}");
        }
        let hidden = [
            "\u{E0041}x",
            "x\u{E007F}",
            "a\u{2060}b",
            "a\u{2064}b",
            "\u{FFF9}x",
            "\u{FFFB}x",
            "a\u{180E}b",
            "a\u{00AD}b",
            "a\u{206A}b",
            "a\u{206F}b",
            "\u{115F}",
            "\u{1160}",
            "\u{3164}",
            "\u{FFA0}",
        ];
        for bad in hidden {
            assert!(parse_text(Some(bad), 100, true).is_err(), "{bad:?}");
        }
        for fine in
            ["Mèsi anpil", "\u{5E9}\u{5DC}\u{5D5}\u{5DD}\u{200F}", "👩\u{200D}👩\u{200D}👧", "a\u{2029}b", "a\u{200C}b"]
        {
            assert!(parse_text(Some(fine), 100, true).is_ok(), "{fine:?}");
        }
        assert_eq!(required_text(None, 10, false), Err("is required".into()));
        assert_eq!(required_text(Some("  "), 10, false), Err("must not be empty".into()));
        assert_eq!(required_text(Some(" Fee "), 10, false), Ok("Fee".into()));
    }
}
