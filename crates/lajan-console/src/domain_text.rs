//! The domain's refusals in the page's language. The domain words its rules in English for the
//! API (`dueDate: must be in the future`); the console shows the field by its label and the rule
//! by the catalogue's `rule-*` text, carrying over the values the message names. A message no
//! rule matches is shown as it came (a test keeps the table in step with the domain).

use lajan_domain::{FieldError, Invalid};
use lajan_i18n::{answering_in, say_known, say_with};

/// Each rule as the domain words it, `{}` standing for a value it carries (`$v1`, `$v2` in the
/// catalogue), and its key. The first that matches wins: the specific before the general.
const RULES: &[(&str, &str)] = &[
    (
        "must be at most {} bytes of UTF-8, the most a Stellar text memo carries (letters such as é take 2 bytes); \
         this one is {} bytes in {} characters",
        "rule-memo-bytes",
    ),
    ("is required", "rule-required"),
    ("is required, or lines", "rule-amount-or-lines"),
    ("must hold 1 to {} lines", "rule-lines-count"),
    ("nothing is left to credit on this line", "rule-line-credited"),
    ("must be at most {}: what is left to credit on this line", "rule-line-left"),
    ("must be at most {}: what the invoice's credit notes leave of its total", "rule-credit-left"),
    ("the instalments sum to {}; the invoice's total is {}", "rule-installments-sum"),
    ("would take what the invoice received past the largest amount", "rule-received-max"),
    ("would take the {} balance past {}, the most a Stellar account can hold", "rule-balance-max"),
    ("cannot be null", "rule-required"),
    ("must not be empty", "rule-not-empty"),
    ("must not be only spaces", "rule-not-empty"),
    ("must be in the future", "rule-future"),
    ("must not be in the future", "rule-not-future"),
    (
        "must be cash, moncash, natcash or bank_transfer: stellar payments are counted from the ledger",
        "rule-outside-method",
    ),
    (
        "must be cash, moncash, natcash or bank_transfer: the client's credit balance pays an invoice through \
         applyCreditBalance",
        "rule-outside-method-balance",
    ),
    ("must be within the last 14 days", "rule-last-14-days"),
    ("must be after since", "rule-after-since"),
    ("must be before {}", "rule-before"),
    ("must be an RFC 3339 timestamp with an offset, like {}", "rule-timestamp"),
    ("must be an RFC 3339{}", "rule-timestamp"),
    ("must have at most {} decimal places", "rule-decimal-places"),
    ("must be a plain decimal number such as 125.50, not {}", "rule-decimal"),
    ("is too large", "rule-too-large"),
    ("must be greater than 0", "rule-positive"),
    ("must be positive", "rule-positive"),
    ("must not be negative", "rule-not-negative"),
    ("must be between 0 and 100", "rule-percent"),
    ("must be at most {} characters", "rule-max-chars"),
    ("must be at least {} characters", "rule-min-chars"),
    ("must be a time of day as HH:MM (24-hour), e.g. 09:00, not {}", "rule-time-of-day"),
    ("must be between {} and {} days", "rule-days-range"),
    ("must hold at most {} days", "rule-days-count"),
    ("must be email or sms", "rule-email-or-sms"),
    ("must name email, sms or both: to send none, leave offsetDays empty", "rule-channels-needed"),
    ("must be at most {}", "rule-at-most"),
    ("must be a whole number from 1 to {}", "rule-whole-number"),
    ("must be an integer from 1 to {}", "rule-whole-number"),
    ("must be a whole number from {} to {}", "rule-whole-number-range"),
    ("must be the id of an item in the list", "rule-list-item-id"),
    ("cannot be combined with {}", "rule-not-combined"),
    ("must be 1 to 12 letters or digits", "rule-asset-code"),
    ("must be one of {}", "rule-one-of"),
    ("must not contain control or invisible formatting characters (found {} at character {})", "rule-control"),
    ("must be an email address {}", "rule-email"),
    ("must be a phone number, such as {} or {}", "rule-phone"),
    ("must be a two-letter country code (ISO 3166-1), such as {}", "rule-country"),
    ("must be a date of birth in the form YYYY-MM-DD", "rule-date-of-birth"),
    ("must be a date between {}-01-01 and today", "rule-date-from"),
    ("must be a year and month in the form YYYY-MM", "rule-year-month"),
    ("must be a month between {}-01 and this month", "rule-month-from"),
    ("must be 4 to 8 digits", "rule-pin"),
    ("must be 4 to 32 letters and digits (spaces, dashes and dots are ignored)", "rule-national-id"),
    ("must be a Stellar account address: 56 characters starting with G", "rule-stellar-address"),
    ("is not a valid Stellar account address (bad encoding or checksum)", "rule-stellar-checksum"),
    ("must be an absolute URL{}", "rule-url"),
    ("must start with https:// or http://", "rule-url-scheme"),
    ("must be an https:// link or the wallet app's own scheme, like wallet://register", "rule-deep-link"),
    ("must be an https:// link", "rule-https-link"),
    ("must be a domain (a host, with a port at most) of at most {} characters, like pay.example.org", "rule-domain"),
    (
        "must be a public domain name, like pay.example.org, not an address or a name of this machine",
        "rule-public-domain",
    ),
    ("must use https for a live endpoint", "rule-https-live"),
    ("must name a host", "rule-url-host"),
    ("must name its host with letters, digits, hyphens and dots, or an IP address", "rule-url-host"),
    ("must reach a public address: {}", "rule-public-address"),
    ("must name at least one event, or \"*\" for all", "rule-one-event"),
    ("must have at most {} entries", "rule-max-entries"),
    ("must hold at least one item", "rule-one-item"),
    ("at least one line item is required", "rule-one-line"),
    ("at most {} line items", "rule-max-lines"),
    ("at most {} instalments", "rule-max-installments"),
    ("must come after the instalment before it ({})", "rule-after-installment"),
    ("must be the last instalment's due date ({}) or left out", "rule-last-installment-date"),
    ("the total must be greater than 0.00", "rule-total-positive"),
    ("the total exceeds the maximum of {}", "rule-total-max"),
    ("is in use already", "rule-in-use"),
    ("must not be one character repeated", "rule-password-repeated"),
    ("is too easy to guess{}", "rule-password-guessable"),
    ("must be the same password again", "rule-password-repeat"),
    ("must differ from the password you were given", "rule-password-new"),
    ("a key needs at least one scope", "rule-one-scope"),
    ("has {} cells where the header names {} columns", "rule-cells"),
    ("the CSV has more than {} rows; a disbursement holds at most {}: split it", "rule-max-rows"),
    ("unknown column {}", "rule-unknown-column"),
    ("unknown currency {}: expected {}", "rule-unknown-currency"),
    ("unknown timezone {}: expected an IANA name like America/Port-au-Prince", "rule-unknown-timezone"),
    ("unknown scope {}: expected {}", "rule-unknown-scope"),
    ("unknown value {}: expected one of {}", "rule-unknown-value"),
    ("No client with id {}", "rule-no-client"),
    ("Give a clientId or a walletAccountId", "rule-missing-recipient"),
    (
        "This client has no walletAccountId, phoneNumber or email to be invited at; add one or give a wallet",
        "rule-no-wallet",
    ),
    ("differs from the client's wallet (the client's wallet is {}): {}", "rule-wallet-differs"),
    ("differs from the client's wallet (the client has none): {}", "rule-wallet-none"),
    ("{} is already on row {}; each item needs its own", "rule-duplicate-external-id"),
    ("The body is not UTF-8 text (at byte {})", "rule-not-utf8"),
    ("The header opens a quoted cell that is never closed: {}", "rule-unclosed-quote-header"),
    ("Row {} opens a quoted cell that is never closed: {}", "rule-unclosed-quote-row"),
    ("{} opens a quoted cell that is never closed: {}", "rule-unclosed-quote"),
    ("The header row could not be read: {}", "rule-header-unreadable"),
    ("Row {} could not be read: {}", "rule-row-unreadable"),
    ("The header names {} twice", "rule-header-twice"),
    (
        "The header names an unknown column {}; the columns are {} (separated by commas, or by semicolons as a \
         French spreadsheet saves them)",
        "rule-header-unknown-column",
    ),
    ("The header must name an assetAmount column", "rule-header-amount"),
    ("The header must name a recipient column: {}", "rule-header-recipient"),
    ("{} must be a calendar date in the form YYYY-MM-DD", "rule-calendar-date"),
    ("{} must be between {}-01-01 and {}-12-31", "rule-date-between"),
    ("XLM is the native asset and has no issuer", "rule-native-no-issuer"),
    ("No issuer is configured for {}: give assetIssuer", "rule-no-issuer"),
    ("sendImmediately needs a client with an email or phone number", "rule-send-needs-contact"),
    ("The client has no contact for {}: add an email or phone number to the client", "rule-no-contact"),
    ("the lines come to 0.00: there is nothing to credit", "rule-nothing-to-credit"),
    ("amount {} is not what the lines take back: {}", "rule-credit-lines-differ"),
    ("amount or lines, and reason, are required", "rule-credit-needs"),
    ("firstName and lastName are required", "rule-names-required"),
    ("amount and description are required", "rule-link-needs"),
    ("must be an id memo: a whole number up to {}", "rule-id-memo"),
];

/// The values `message` carries where `pattern` has `{}`, when it is worded so.
fn matches(pattern: &str, message: &str) -> Option<Vec<String>> {
    let mut pieces = pattern.split("{}");
    let mut rest = message.strip_prefix(pieces.next()?)?;
    let mut values = Vec::new();
    let pieces: Vec<&str> = pieces.collect();
    for (i, piece) in pieces.iter().enumerate() {
        let end = if i + 1 == pieces.len() {
            rest.strip_suffix(piece).map(str::len)?
        } else {
            rest.find(piece).filter(|_| !piece.is_empty())?
        };
        values.push(rest[..end].to_owned());
        rest = &rest[end + piece.len()..];
    }
    rest.is_empty().then_some(values)
}

/// A value a rule carries as the page writes it: an amount (`3651.50`) in the page's number
/// format (`3 651,50` in French and Creole); anything else as it came (`formats::amount` leaves
/// what is not a plain decimal alone; whole numbers, counts and limits, keep their digits).
fn in_page_format(value: String) -> String {
    if value.contains('.') { lajan_i18n::formats::amount(answering_in(), &value) } else { value }
}

/// A rule's message in the request's language, when a rule words it; a message that opens with
/// the field it is about (`walletAccountId must be ...`) is told with the field's label.
fn worded(message: &str) -> Option<String> {
    for (pattern, key) in RULES {
        if let Some(values) = matches(pattern, message) {
            let values = values.into_iter().map(in_page_format);
            let args: Vec<(&str, String)> = ["v1", "v2", "v3"].into_iter().zip(values).collect();
            return Some(say_with(key, &args));
        }
    }
    let (name, rest) = message.split_once(' ')?;
    let name = name.strip_suffix(':').unwrap_or(name);
    // A camelCase word is a field; so is a plain word the catalogue labels (`memo`, `amount`).
    let a_field = name.chars().all(|c| c.is_ascii_alphanumeric())
        && (name.chars().any(|c| c.is_ascii_uppercase()) || say_known(&format!("field-{name}")).is_some());
    let rest = worded(rest).filter(|_| a_field)?;
    Some(say_with("field-line", &[("field", field(name)), ("rule", rest)]))
}

/// A rule's message in the request's language; the message itself when no rule words it.
pub(crate) fn rule(message: &str) -> String {
    worded(message).unwrap_or_else(|| message.to_owned())
}

/// A row's problem where the table names its field already: the rule alone.
pub(crate) fn row_rule(row_field: &str, message: &str) -> String {
    let rest = message.strip_prefix(row_field).and_then(|m| m.strip_prefix(": ").or_else(|| m.strip_prefix(' ')));
    rest.and_then(worded).unwrap_or_else(|| rule(message))
}

/// A field as the page labels it: `lineItems[2].unitPrice` is the third line's unit price.
pub(crate) fn field(name: &str) -> String {
    // A field of a row: `lineItems[1].unitPrice` is "line 2, unit price".
    for (rows, key) in [("lineItems[", "field-of-line"), ("installments[", "field-of-installment")] {
        let row_field = name.strip_prefix(rows).and_then(|rest| rest.split_once("]."));
        if let Some((index, inner)) = row_field.and_then(|(i, inner)| Some((i.parse::<u32>().ok()?, inner))) {
            return say_with(key, &[("line", (index + 1).to_string()), ("field", field(inner))]);
        }
    }
    // Catalogue keys cannot hold a dot: `verification.type` is `field-verification-type`.
    say_known(&format!("field-{}", name.replace('.', "-"))).unwrap_or_else(|| name.to_owned())
}

/// One bad field as a line: its label, then what is wrong.
pub(crate) fn field_line(error: &FieldError) -> String {
    say_with("field-line", &[("field", field(&error.field)), ("rule", rule(&error.message))])
}

/// What a refused form is told, a line per field.
pub(crate) fn field_lines(invalid: &Invalid) -> Vec<String> {
    invalid.details.iter().map(field_line).collect()
}

/// A refusal in words: the catalogue's text for its code (`refusal-cannot_send`), else a line per
/// field, else its message.
pub(crate) fn refusal(invalid: &Invalid) -> String {
    refusal_lines(invalid).join(" ")
}

/// [`refusal`] as lines, for a form's list of errors.
pub(crate) fn refusal_lines(invalid: &Invalid) -> Vec<String> {
    if let Some(said) = say_known(&format!("refusal-{}", invalid.code)) {
        vec![said]
    } else if !invalid.details.is_empty() {
        field_lines(invalid)
    } else {
        vec![rule(&invalid.message)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The string literals of a line of Rust (escaped quotes kept as quotes; `'"'` skipped).
    fn literals(line: &str) -> Vec<String> {
        let line = line.replace("'\"'", "");
        let mut found = Vec::new();
        let mut current: Option<String> = None;
        let mut chars = line.chars();
        while let Some(c) = chars.next() {
            match (&mut current, c) {
                (None, '"') => current = Some(String::new()),
                (Some(text), '\\') => text.extend(chars.next()),
                (Some(_), '"') => found.extend(current.take()),
                (Some(text), c) => text.push(c),
                (None, _) => {}
            }
        }
        found
    }

    /// What a message's rule would carry over as a value into the page's words although it is
    /// the domain's own English (a rule `must be at most {}` matching `must be at most 7: what is
    /// left...`): a value the catalogue's text shows must be one the domain filled in, never words.
    fn english_carried(message: &str) -> Option<String> {
        // A message may open with the field it is about (`amount must be ...`).
        let after_field = message.split_once(' ').map(|(_, rest)| rest).unwrap_or_default();
        let (text, (pattern, key)) = [message, after_field]
            .into_iter()
            .find_map(|m| RULES.iter().find(|(p, _)| matches(p, m).is_some()).map(|rule| (m, rule)))?;
        let shown = say_with(key, &[("v1", "§1".into()), ("v2", "§2".into()), ("v3", "§3".into())]);
        // Prose is lower-case words; codes (`HTG or USD`) and filled values are not.
        let words = |v: &str| v.split(' ').filter(|w| w.len() > 2 && w.chars().all(|c| c.is_ascii_lowercase())).count();
        matches(pattern, text)?
            .into_iter()
            .enumerate()
            .find(|(i, v)| shown.contains(&format!("§{}", i + 1)) && words(v) > 1)
            .map(|(_, v)| v)
    }

    /// A message as it reads once its `{...}` placeholders are filled.
    fn filled(template: &str) -> String {
        let mut out = String::new();
        let mut rest = template;
        while let Some(start) = rest.find('{') {
            out.push_str(&rest[..start]);
            let end = rest[start..].find('}').map_or(rest.len(), |e| start + e + 1);
            out.push('7');
            rest = &rest[end..];
        }
        out + rest
    }

    #[test]
    fn every_rule_the_domain_words_has_a_text() {
        const SHAPES: &[&str] = &[
            "No client",
            "Give a",
            "This client has",
            "differs from",
            "is already on row",
            "{which} opens",
            "The body",
            "The header ",
            "Row {row} could",
            "must ",
            "is required",
            "is too",
            "is in use",
            "is not a valid",
            "cannot be null",
            "at least one",
            "at most ",
            "a key needs",
            "the total",
            "has {",
            "the CSV has",
            "unknown column",
            "unknown currency",
            "unknown timezone",
            "unknown scope",
            "unknown value",
            "memo ",
            "amount ",
            "dueDate ",
            "XLM ",
            "No issuer",
            "sendImmediately",
            "The client has no contact",
            "the lines",
            "firstName and",
            "the instalments",
        ];
        let crates = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut files = Vec::new();
        for dir in ["lajan-domain/src", "lajan-services/src", "lajan-store/src"] {
            let mut pending = vec![crates.join(dir)];
            while let Some(dir) = pending.pop() {
                for entry in std::fs::read_dir(dir).unwrap() {
                    let path = entry.unwrap().path();
                    if path.is_dir() {
                        pending.push(path)
                    } else if path.extension().is_some_and(|e| e == "rs") {
                        files.push(path)
                    }
                }
            }
        }
        let mut seen = 0;
        let mut unworded = Vec::new();
        for file in files {
            for line in std::fs::read_to_string(&file).unwrap().lines() {
                for literal in literals(line).into_iter().filter(|l| SHAPES.iter().any(|s| l.starts_with(s))) {
                    // A field alone, or with a rule worded elsewhere (`memo {problem}`).
                    let (_, rest) = literal.split_once(' ').unwrap_or_default();
                    if rest.is_empty() || (rest.starts_with('{') && rest.ends_with('}') && !rest.contains(' ')) {
                        continue;
                    }
                    seen += 1;
                    let message = filled(&literal);
                    if !RULES.iter().any(|(pattern, _)| matches(pattern, &message).is_some())
                        && worded(&message).is_none()
                    {
                        unworded.push(format!("{}: {literal}", file.display()));
                    }
                    if let Some(prose) = english_carried(&message) {
                        unworded.push(format!("{}: {literal} (carries {prose:?} over in English)", file.display()));
                    }
                }
            }
        }
        assert!(seen > 50, "the scan read only {seen} messages");
        assert!(unworded.is_empty(), "domain messages without a rule in domain_text::RULES:\n{}", unworded.join("\n"));
        for (_, key) in RULES {
            assert!(say_known(key).is_some(), "{key} is missing from the catalogues");
        }
    }

    #[test]
    fn rules_carry_their_values_over() {
        assert_eq!(matches("must be at most {} characters", "must be at most 28 characters"), Some(vec!["28".into()]));
        assert_eq!(
            matches("has {} cells where the header names {} columns", "has 3 cells where the header names 4 columns"),
            Some(vec!["3".into(), "4".into()])
        );
        assert_eq!(matches("is required", "is required"), Some(vec![]));
        assert_eq!(matches("is required", "is required here"), None);
        assert_eq!(rule("must be at most 28 characters"), "must be at most 28 characters");
        assert_eq!(rule("something new"), "something new");
        assert_eq!(field("lineItems[1].unitPrice"), "line 2, unit price");
        assert_eq!(field("installments[0].dueDate"), "instalment 1, Due date");
        assert_eq!(field("somethingElse"), "somethingElse");
        assert_eq!(rule("walletAccountId must be positive"), "Wallet: must be greater than 0");
        assert_eq!(rule("walletAccountId frobnicates"), "walletAccountId frobnicates");
        assert_eq!(row_rule("assetAmount", "assetAmount must be greater than 0"), "must be greater than 0");
        assert_eq!(
            row_rule("externalId", "externalId \"a\" is already on row 2; each item needs its own"),
            "\"a\" is also on row 2: each item needs its own"
        );
    }
}
