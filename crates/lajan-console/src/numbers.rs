//! The number fields of a form as the clerk types them in their language (`1 234,50` in French
//! and Creole), read to the plain decimals the API's service methods take; a number that reads
//! two ways is named as such beside every other bad field, never guessed at.

use crate::domain_text;
use lajan_domain::Invalid;
use lajan_i18n::typed::{TypedNumber, read_number};
use lajan_i18n::{answering_in, say_with};

/// What an ambiguous number is sent to the service as: a text no number field accepts.
const NOT_A_NUMBER: &str = "?";

/// The number fields of one posted form, read in the request's language.
#[derive(Default)]
pub(crate) struct TypedNumbers {
    /// The fields (as the API names them) typed ambiguously, with what was typed.
    ambiguous: Vec<(String, String)>,
}

impl TypedNumbers {
    /// `raw` as the plain decimal the domain reads, unless empty. An ambiguous number is
    /// remembered, so the form says why in the clerk's words, and goes on as [`NOT_A_NUMBER`]:
    /// read as typed it could pass (`1.500` is a unit price of 1.50) and be the guess this
    /// refuses to make; the domain refuses that one, and the form checks every other field.
    pub(crate) fn read(&mut self, field: &str, raw: &str) -> Option<String> {
        let raw = raw.trim();
        if raw.is_empty() {
            return None;
        }
        match read_number(answering_in(), raw) {
            TypedNumber::Read(plain) => Some(plain),
            TypedNumber::Ambiguous => {
                self.ambiguous.push((field.to_owned(), raw.to_owned()));
                Some(NOT_A_NUMBER.to_owned())
            }
        }
    }

    /// What the refused form is told, a line per bad field; a field typed ambiguously is told
    /// how to write it instead of the domain's rule.
    pub(crate) fn lines(&self, refusal: &Invalid) -> Vec<String> {
        let ambiguous = |field: &str| self.ambiguous.iter().find(|(f, _)| f == field);
        let told = |field: &str, value: &str| {
            let rule = say_with("number-ambiguous", &[("value", value.to_owned())]);
            say_with("field-line", &[("field", domain_text::field(field)), ("rule", rule)])
        };
        let mut lines: Vec<String> = if refusal.details.is_empty() {
            let named = self.ambiguous.iter().find(|(f, _)| refusal.message.starts_with(f.as_str()));
            match named {
                Some((field, value)) => vec![told(field, value)],
                None => domain_text::refusal_lines(refusal),
            }
        } else {
            let line = |d: &lajan_domain::FieldError| match ambiguous(&d.field) {
                Some((field, value)) => told(field, value),
                None => domain_text::field_line(d),
            };
            refusal.details.iter().map(line).collect()
        };
        // An ambiguous field the refusal did not name (it stopped at another) is named too.
        for (field, value) in &self.ambiguous {
            let line = told(field, value);
            if !lines.contains(&line) {
                lines.push(line);
            }
        }
        lines
    }
}
