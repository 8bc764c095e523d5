//! The email and SMS shapes the notification sender hands to its transports, and the rule that
//! keeps customer-entered text on one line.

/// An email ready to send: the sender address comes from the transport's configuration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutgoingEmail {
    pub to: String,
    pub subject: String,
    /// The text/plain alternative.
    pub text: String,
    /// The text/html alternative.
    pub html: String,
}

/// A text message ready to send: the sender number comes from the provider's configuration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutgoingSms {
    /// E.164, e.g. `+50937000000`.
    pub to: String,
    pub body: String,
    /// Where the provider reports the message's delivery (`StatusCallback`), when Lajan wants
    /// to hear.
    pub status_callback: Option<String>,
}

/// Folds line breaks and other control characters into single spaces: header values (and SMS
/// text) built from customer-entered names must not be able to start a new header line.
pub fn one_line(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for word in s.split(|c: char| c.is_whitespace() || c.is_control()).filter(|w| !w.is_empty()) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}
