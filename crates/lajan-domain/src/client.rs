//! Clients: the people an organization invoices and pays, and the value types of their fields.

use crate::Timestamp;
use crate::phone::{PhoneCountry, PhoneNumber};
use crate::stellar_memo::StellarMemo;
use crate::validation::{FieldError, FieldErrors, Invalid};
use crate::verification::{Verification, VerificationAnswer, VerificationKind};
use std::fmt;

/// A person's first or last name: trimmed, 1 to 100 characters, no control or invisible
/// formatting characters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PersonName(String);

impl PersonName {
    pub const MAX_CHARS: usize = 100;

    pub fn parse(raw: &str) -> Result<Self, String> {
        crate::validation::check_text(raw, Self::MAX_CHARS, false)?;
        let s = raw.trim();
        if s.is_empty() {
            return Err("must not be empty".into());
        }
        Ok(PersonName(s.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// An email address in ASCII: `local@domain.tld`, at most 254 characters, no spaces. Stored as given
/// except for surrounding whitespace; deliverability is the mail server's business.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Email(String);

impl Email {
    pub fn parse(raw: &str) -> Result<Self, String> {
        let bad = || Err("must be an email address like name@example.com".to_owned());
        // Length and control characters count as sent (as the OpenAPI pattern reads them);
        // only spaces around the address are dropped.
        if raw.chars().count() > 254 || raw.chars().any(char::is_control) {
            return bad();
        }
        let s = raw.trim();
        if s.chars().any(char::is_whitespace) {
            return bad();
        }
        let Some((local, domain)) = s.rsplit_once('@') else { return bad() };
        let domain_ok = domain.split('.').count() >= 2
            && domain.split('.').all(|label| {
                !label.is_empty()
                    && label.len() <= 63
                    && !label.starts_with('-')
                    && !label.ends_with('-')
                    && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
            });
        // One address, as a dot-atom (RFC 5322): no comma, semicolon, quote or angle bracket
        // that would let a mail header read it as a list of addresses.
        let atom = |c: char| c.is_ascii_alphanumeric() || "!#$%&'*+/=?^_`{|}~-".contains(c);
        let local_ok = local.split('.').all(|part| !part.is_empty() && part.chars().all(atom));
        if local.is_empty() || local.len() > 64 || !local_ok || !domain_ok {
            return bad();
        }
        Ok(Email(s.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A Stellar account address (StrKey `G...`, 56 characters) whose version byte and CRC16
/// checksum verify.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WalletAddress(String);

impl WalletAddress {
    pub fn parse(raw: &str) -> Result<Self, String> {
        if raw.len() != 56 || !raw.starts_with('G') {
            return Err("must be a Stellar account address: 56 characters starting with G".into());
        }
        stellar_strkey::ed25519::PublicKey::from_string(raw)
            .map_err(|_| "is not a valid Stellar account address (bad encoding or checksum)".to_owned())?;
        Ok(WalletAddress(raw.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for WalletAddress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The language Lajan speaks to a client in (invitations, messages, the pages they open):
/// Haitian Creole, French or English.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Language {
    Ht,
    Fr,
    En,
}

str_enum!(Language { Ht => "ht", Fr => "fr", En => "en" });

impl Language {
    /// A client created without one: most people an organization in Haiti pays read Creole.
    pub const DEFAULT: Language = Language::Ht;
}

/// A client as stored. Archived clients are hidden from the clients area but stay readable
/// through the invoices and payouts that reference them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Client {
    pub id: String,
    pub first_name: String,
    pub last_name: String,
    pub email: Option<String>,
    pub phone_number: Option<String>,
    pub wallet_account_id: Option<String>,
    /// The memo the wallet at `wallet_account_id` needs to credit the client (a custodial wallet
    /// or an exchange), carried by every payout to it.
    pub wallet_memo: Option<StellarMemo>,
    pub language: Language,
    /// Whether the organization's payment reminders go to them (receipts and invoices do).
    pub reminders_enabled: bool,
    /// What the receiver must answer before registering a wallet, if the organization asks.
    pub verification: Option<Verification>,
    pub created_at: Timestamp,
    pub updated_at: Timestamp,
    pub archived_at: Option<Timestamp>,
}

/// The raw, untrusted fields of a create request.
#[derive(Debug, Default, Clone)]
pub struct ClientInput {
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub email: Option<String>,
    pub phone_number: Option<String>,
    pub wallet_account_id: Option<String>,
    pub wallet_memo: Option<String>,
    /// `text`, `id` or `hash`; read from the memo when left out.
    pub wallet_memo_type: Option<String>,
    pub language: Option<String>,
    /// Left out: reminded.
    pub reminders_enabled: Option<bool>,
    pub verification: Option<VerificationInput>,
}

/// A verification as a request gives it: `{type, value}`.
#[derive(Debug, Default, Clone)]
pub struct VerificationInput {
    pub kind: Option<String>,
    pub value: Option<String>,
}

impl VerificationInput {
    /// Both fields read at once, their errors under `verification.type` and `verification.value`.
    fn parse(&self, errors: &mut FieldErrors, now: Timestamp) -> Option<VerificationAnswer> {
        let kind = match self.kind.as_deref() {
            Some(raw) => errors.take("verification.type", raw.parse::<VerificationKind>()),
            None => {
                errors.add("verification.type", "is required");
                None
            }
        };
        match (kind, self.value.as_deref()) {
            (_, None) => {
                errors.add("verification.value", "is required");
                None
            }
            (Some(kind), Some(raw)) => errors.take("verification.value", VerificationAnswer::parse(kind, raw, now)),
            (None, Some(_)) => None,
        }
    }
}

const MEMO_NEEDS_WALLET: &str = "needs a walletAccountId: a memo names the receiver at a wallet's address";

/// Parsed values of one optional field.
fn optional<T>(
    errors: &mut FieldErrors,
    field: &str,
    raw: Option<&str>,
    parse: impl Fn(&str) -> Result<T, String>,
) -> Option<T> {
    raw.and_then(|r| errors.take(field, parse(r)))
}

impl ClientInput {
    /// Validates every field at once and builds a new client with the given id and time, and
    /// the verification's answer for the caller to seal ([`Client::verification`] is `None`
    /// until it does).
    /// A phone number written without its country code is read in `country`.
    pub fn into_client(
        self,
        id: String,
        now: Timestamp,
        country: PhoneCountry,
    ) -> Result<(Client, Option<VerificationAnswer>), Invalid> {
        let mut errors = FieldErrors::new();
        let first = match self.first_name.as_deref() {
            Some(raw) => errors.take("firstName", PersonName::parse(raw)),
            None => {
                errors.add("firstName", "is required");
                None
            }
        };
        let last = match self.last_name.as_deref() {
            Some(raw) => errors.take("lastName", PersonName::parse(raw)),
            None => {
                errors.add("lastName", "is required");
                None
            }
        };
        let email = optional(&mut errors, "email", self.email.as_deref(), Email::parse);
        let phone = optional(&mut errors, "phoneNumber", self.phone_number.as_deref(), |raw| {
            PhoneNumber::parse_in(raw, country)
        });
        let wallet = optional(&mut errors, "walletAccountId", self.wallet_account_id.as_deref(), WalletAddress::parse);
        let language = optional(&mut errors, "language", self.language.as_deref(), str::parse::<Language>);
        let wallet_memo =
            StellarMemo::from_fields(&mut errors, self.wallet_memo.as_deref(), self.wallet_memo_type.as_deref());
        if wallet_memo.is_some() && self.wallet_account_id.is_none() {
            errors.add("walletMemo", MEMO_NEEDS_WALLET);
        }
        let answer = self.verification.as_ref().and_then(|v| v.parse(&mut errors, now));
        errors.finish()?;
        let (Some(first), Some(last)) = (first, last) else {
            return Err(Invalid::new("validation_error", "firstName and lastName are required"));
        };
        let client = Client {
            id,
            first_name: first.0,
            last_name: last.0,
            email: email.map(|e| e.0),
            phone_number: phone.map(PhoneNumber::into_string),
            wallet_account_id: wallet.map(|w| w.0),
            wallet_memo,
            language: language.unwrap_or(Language::DEFAULT),
            reminders_enabled: self.reminders_enabled.unwrap_or(true),
            verification: None,
            created_at: now,
            updated_at: now,
            archived_at: None,
        };
        Ok((client, answer))
    }
}

/// A change to some fields of a client: `None` leaves a field alone, `Some(None)` clears an
/// optional field.
#[derive(Debug, Default, Clone)]
pub struct ClientPatchInput {
    pub first_name: Option<Option<String>>,
    pub last_name: Option<Option<String>>,
    pub email: Option<Option<String>>,
    pub phone_number: Option<Option<String>>,
    pub wallet_account_id: Option<Option<String>>,
    /// `Some(None)` removes the memo; a new `wallet_account_id` without one removes it too.
    pub wallet_memo: Option<Option<String>>,
    pub wallet_memo_type: Option<String>,
    pub language: Option<Option<String>>,
    pub reminders_enabled: Option<bool>,
    /// `Some(None)` removes the question.
    pub verification: Option<Option<VerificationInput>>,
}

/// A validated change, ready to apply.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct ClientPatch {
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub email: Option<Option<String>>,
    pub phone_number: Option<Option<String>>,
    pub wallet_account_id: Option<Option<String>>,
    pub wallet_memo: Option<Option<StellarMemo>>,
    pub language: Option<Language>,
    pub reminders_enabled: Option<bool>,
    /// Set by whoever seals the answer [`ClientPatchInput::parse`] gives: `Some(None)` removes
    /// the question.
    pub verification: Option<Option<Verification>>,
}

impl ClientPatchInput {
    /// Validates every field at once: the change, and the new verification's answer for the
    /// caller to seal into [`ClientPatch::verification`] (`Some(None)`: remove it).
    /// A phone number written without its country code is read in `country`.
    pub fn parse(
        self,
        now: Timestamp,
        country: PhoneCountry,
    ) -> Result<(ClientPatch, Option<Option<VerificationAnswer>>), Invalid> {
        let mut errors = FieldErrors::new();
        let name = |s: &str| PersonName::parse(s).map(|n| n.0);
        let first_name = errors.not_null("firstName", self.first_name, name);
        let last_name = errors.not_null("lastName", self.last_name, name);
        let language = errors.not_null("language", self.language, str::parse::<Language>);
        let mut clearable =
            |field: &str, raw: Option<Option<String>>, parse: &dyn Fn(&str) -> Result<String, String>| match raw {
                None => None,
                Some(None) => Some(None),
                Some(Some(s)) => errors.take(field, parse(&s)).map(Some),
            };
        let email = clearable("email", self.email, &|s| Email::parse(s).map(|v| v.0));
        let phone_number = clearable("phoneNumber", self.phone_number, &|s| {
            PhoneNumber::parse_in(s, country).map(PhoneNumber::into_string)
        });
        let wallet_account_id =
            clearable("walletAccountId", self.wallet_account_id, &|s| WalletAddress::parse(s).map(|v| v.0));
        let kind = self.wallet_memo_type.as_deref();
        let wallet_memo = match self.wallet_memo {
            Some(None) if kind.is_none() => Some(None),
            raw => StellarMemo::from_fields(&mut errors, raw.flatten().as_deref(), kind).map(Some),
        };
        let answer = match &self.verification {
            None => None,
            Some(None) => Some(None),
            Some(Some(v)) => v.parse(&mut errors, now).map(Some),
        };
        errors.finish()?;
        let patch = ClientPatch {
            first_name,
            last_name,
            email,
            phone_number,
            wallet_account_id,
            wallet_memo,
            language,
            reminders_enabled: self.reminders_enabled,
            verification: None,
        };
        Ok((patch, answer))
    }
}

impl Client {
    /// Lajan can reach them (invite them to register a wallet, send them an invoice): they have a
    /// phone number or an email.
    pub fn reachable(&self) -> bool {
        self.phone_number.is_some() || self.email.is_some()
    }

    /// Applies a patch; returns whether anything changed. Refused when it would leave a memo
    /// without the wallet it belongs to.
    pub fn apply(&mut self, patch: &ClientPatch, now: Timestamp) -> Result<bool, Invalid> {
        let before = self.clone();
        if let Some(v) = &patch.first_name {
            self.first_name.clone_from(v);
        }
        if let Some(v) = &patch.last_name {
            self.last_name.clone_from(v);
        }
        if let Some(v) = &patch.email {
            self.email.clone_from(v);
        }
        if let Some(v) = &patch.phone_number {
            self.phone_number.clone_from(v);
        }
        if let Some(v) = &patch.wallet_account_id {
            // A memo says who a payment is for at one address: it does not follow a new one.
            if *v != self.wallet_account_id {
                self.wallet_memo = None;
            }
            self.wallet_account_id.clone_from(v);
        }
        if let Some(v) = &patch.wallet_memo {
            self.wallet_memo.clone_from(v);
        }
        if self.wallet_memo.is_some() && self.wallet_account_id.is_none() {
            *self = before;
            return Err(Invalid::fields(vec![FieldError::new("walletMemo", MEMO_NEEDS_WALLET)]));
        }
        if let Some(v) = patch.reminders_enabled {
            self.reminders_enabled = v;
        }
        if let Some(v) = patch.language {
            self.language = v;
        }
        if let Some(v) = &patch.verification {
            self.verification.clone_from(v);
        }
        let changed = *self != before;
        if changed {
            self.updated_at = now;
        }
        Ok(changed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // A real account StrKey (the Stellar docs' example) and the same with its last character changed.
    const GOOD: &str = "GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H";
    const BAD_CRC: &str = "GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2A";
    const NOW: Timestamp = Timestamp::from_millis(1_795_867_200_000);

    #[test]
    fn wallet_checks_the_checksum() {
        assert!(WalletAddress::parse(GOOD).is_ok());
        assert!(WalletAddress::parse(BAD_CRC).is_err());
        assert!(WalletAddress::parse("GABC").is_err());
        let secret_seed = "SBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H";
        assert!(WalletAddress::parse(secret_seed).is_err());
    }

    #[test]
    fn email_shapes() {
        assert!(Email::parse("marie@example.ht").is_ok());
        assert!(Email::parse("a.b+c@sub.example.com").is_ok());
        assert!(Email::parse("o'neil.x@example.ht").is_ok());
        assert_eq!(Email::parse(" marie@example.ht\u{3000}").unwrap().as_str(), "marie@example.ht");
        for bad in ["marie@example.ht\t", "\nmarie@example.ht", "marie@example.ht\u{85}", "marie@example.ht\u{FEFF}"] {
            assert!(Email::parse(bad).is_err(), "control or invisible characters around it: {bad:?}");
        }
        for bad in [
            "",
            "marie",
            "marie@",
            "@example.com",
            "ma rie@example.com",
            "marie@example",
            "m@-x.com",
            "a,evil@evil.example",
            "a;b@example.com",
            "\"a\"@example.com",
            "<a>@example.com",
            "a..b@example.com",
            ".a@example.com",
            "a@b@example.com",
        ] {
            assert!(Email::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn create_reports_every_bad_field() {
        let input = ClientInput {
            first_name: None,
            last_name: Some("  ".into()),
            email: Some("nope".into()),
            phone_number: Some("123".into()),
            wallet_account_id: Some(BAD_CRC.into()),
            wallet_memo: Some("x".repeat(29)),
            wallet_memo_type: None,
            language: Some("creole".into()),
            reminders_enabled: None,
            verification: Some(VerificationInput { kind: Some("pin".into()), value: None }),
        };
        let err = input.into_client("cli_x".into(), Timestamp::from_millis(0), PhoneCountry::HAITI).unwrap_err();
        assert_eq!(err.code, "validation_error");
        let fields: Vec<_> = err.details.iter().map(|d| d.field.as_str()).collect();
        assert_eq!(
            fields,
            [
                "firstName",
                "lastName",
                "email",
                "phoneNumber",
                "walletAccountId",
                "language",
                "walletMemo",
                "verification.value"
            ]
        );
    }

    #[test]
    fn patch_clears_and_sets() {
        let mut c = ClientInput {
            first_name: Some(" Marie ".into()),
            last_name: Some("Jean".into()),
            email: Some("m@example.ht".into()),
            ..Default::default()
        }
        .into_client("cli_x".into(), Timestamp::from_millis(1), PhoneCountry::HAITI)
        .unwrap()
        .0;
        assert_eq!(c.first_name, "Marie");
        let patch = ClientPatchInput { email: Some(None), last_name: Some(Some("Paul".into())), ..Default::default() }
            .parse(Timestamp::from_millis(2), PhoneCountry::HAITI)
            .unwrap()
            .0;
        assert_eq!(c.apply(&patch, Timestamp::from_millis(2)), Ok(true));
        assert_eq!(c.email, None);
        assert_eq!(c.last_name, "Paul");
        assert_eq!(c.updated_at, Timestamp::from_millis(2));
        assert_eq!(c.apply(&patch, Timestamp::from_millis(3)), Ok(false), "same patch twice changes nothing");
        let err = ClientPatchInput { first_name: Some(None), ..Default::default() }
            .parse(NOW, PhoneCountry::HAITI)
            .unwrap_err();
        assert_eq!(err.details[0].field, "firstName");
    }

    #[test]
    fn a_wallet_memo_belongs_to_its_wallet() {
        let named = || ClientInput { first_name: Some("M".into()), last_name: Some("J".into()), ..Default::default() };
        let alone = ClientInput { wallet_memo: Some("42".into()), ..named() };
        let err = alone.into_client("cli_x".into(), NOW, PhoneCountry::HAITI).unwrap_err();
        assert_eq!((err.details[0].field.as_str(), err.details.len()), ("walletMemo", 1));
        let typed = ClientInput { wallet_memo_type: Some("id".into()), ..named() };
        assert_eq!(
            typed.into_client("cli_x".into(), NOW, PhoneCountry::HAITI).unwrap_err().details[0].field,
            "walletMemoType"
        );
        let wallet = || Some(GOOD.to_owned());
        let input = ClientInput { wallet_account_id: wallet(), wallet_memo: Some("42".into()), ..named() };
        let (mut c, _) = input.into_client("cli_x".into(), NOW, PhoneCountry::HAITI).unwrap();
        assert_eq!(c.wallet_memo, Some(StellarMemo::Id(42)));
        let patch = |p: ClientPatchInput| p.parse(NOW, PhoneCountry::HAITI).unwrap().0;
        // The same address again keeps the memo; a new one without a memo drops it.
        assert_eq!(
            c.apply(&patch(ClientPatchInput { wallet_account_id: Some(wallet()), ..Default::default() }), NOW),
            Ok(false)
        );
        let text = ClientPatchInput {
            wallet_memo: Some(Some("42".into())),
            wallet_memo_type: Some("text".into()),
            ..Default::default()
        };
        assert_eq!(c.apply(&patch(text), NOW), Ok(true));
        assert_eq!(c.wallet_memo, Some(StellarMemo::Text("42".into())));
        let cleared = ClientPatchInput { wallet_account_id: Some(None), ..Default::default() };
        assert_eq!(c.apply(&patch(cleared), NOW), Ok(true));
        assert_eq!((c.wallet_account_id.as_deref(), c.wallet_memo.as_ref()), (None, None));
        let orphan = ClientPatchInput { wallet_memo: Some(Some("7".into())), ..Default::default() };
        let before = c.clone();
        assert_eq!(c.apply(&patch(orphan), NOW).unwrap_err().details[0].field, "walletMemo");
        assert_eq!(c, before, "a refused patch changes nothing");
    }

    #[test]
    fn a_client_speaks_creole_unless_told_otherwise() {
        let named =
            || ClientInput { first_name: Some("Marie".into()), last_name: Some("Jean".into()), ..Default::default() };
        let (c, _) = named().into_client("cli_x".into(), Timestamp::from_millis(1), PhoneCountry::HAITI).unwrap();
        assert_eq!(c.language, Language::Ht);
        let fr = ClientInput { language: Some("fr".into()), ..named() };
        assert_eq!(
            fr.into_client("cli_y".into(), Timestamp::from_millis(1), PhoneCountry::HAITI).unwrap().0.language,
            Language::Fr
        );
        for bad in ["FR", "de", "", "fr-HT"] {
            let input = ClientInput { language: Some(bad.into()), ..named() };
            let err = input.into_client("cli_z".into(), Timestamp::from_millis(1), PhoneCountry::HAITI).unwrap_err();
            assert_eq!(err.details[0].field, "language", "{bad}");
        }
        let to_en = ClientPatchInput { language: Some(Some("en".into())), ..Default::default() }
            .parse(NOW, PhoneCountry::HAITI)
            .unwrap();
        assert_eq!(to_en.0.language, Some(Language::En));
        let cleared = ClientPatchInput { language: Some(None), ..Default::default() }
            .parse(NOW, PhoneCountry::HAITI)
            .unwrap_err();
        assert_eq!(cleared.details[0].field, "language", "a client always has a language");
    }

    #[test]
    fn a_verification_is_read_with_the_client_and_every_bad_part_named() {
        let named =
            || ClientInput { first_name: Some("Marie".into()), last_name: Some("Jean".into()), ..Default::default() };
        let asked = |kind: &str, value: &str| VerificationInput { kind: Some(kind.into()), value: Some(value.into()) };
        let input = ClientInput { verification: Some(asked("date_of_birth", "1990-5-7")), ..named() };
        let (client, answer) = input.into_client("cli_x".into(), NOW, PhoneCountry::HAITI).unwrap();
        assert_eq!(client.verification, None, "sealed by the caller");
        let answer = answer.unwrap();
        assert_eq!((answer.kind, answer.secret()), (VerificationKind::DateOfBirth, "1990-05-07"));
        let fields = |input: ClientInput| -> Vec<String> {
            input
                .into_client("cli_x".into(), NOW, PhoneCountry::HAITI)
                .unwrap_err()
                .details
                .into_iter()
                .map(|d| d.field)
                .collect()
        };
        assert_eq!(
            fields(ClientInput { verification: Some(asked("passport", "X")), ..named() }),
            ["verification.type"]
        );
        assert_eq!(fields(ClientInput { verification: Some(asked("pin", "12")), ..named() }), ["verification.value"]);
        let empty = ClientInput { verification: Some(VerificationInput::default()), ..named() };
        assert_eq!(fields(empty), ["verification.type", "verification.value"]);
        let (patch, answer) = ClientPatchInput { verification: Some(None), ..Default::default() }
            .parse(NOW, PhoneCountry::HAITI)
            .unwrap();
        assert_eq!((patch.verification, answer), (None, Some(None)), "removing it is an answer of none");
        let (_, answer) = ClientPatchInput { verification: Some(Some(asked("pin", "0042"))), ..Default::default() }
            .parse(NOW, PhoneCountry::HAITI)
            .unwrap();
        assert_eq!(answer.flatten().map(|a| a.secret().to_owned()), Some("0042".into()));
    }
}
