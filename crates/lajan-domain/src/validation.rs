//! Validation failures: a stable machine code, a human message, and per-field details.

use serde::Serialize;
use std::fmt;

/// One field's problem, e.g. `{ field: "lineItems[0].quantity", message: "must be positive" }`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FieldError {
    pub field: String,
    pub message: String,
}

impl FieldError {
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        FieldError { field: field.into(), message: message.into() }
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
