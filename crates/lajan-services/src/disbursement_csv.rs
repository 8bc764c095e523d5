//! The items of a disbursement given as CSV (the API's `text/csv` create, the console's
//! spreadsheet upload), read into the same item requests a JSON create gives. The items report
//! goes the other way, in `report`.

use crate::disbursements::ItemRequest;
use lajan_domain::client::VerificationInput;
use lajan_domain::disbursement::MAX_ITEMS;
use lajan_domain::{FieldError, Invalid};
use lajan_i18n::Lang;
use lajan_i18n::typed::{TypedNumber, read_number};

/// The columns a disbursement CSV may name, in any order.
pub const COLUMNS: [&str; 10] = [
    "clientId",
    "walletAccountId",
    "assetAmount",
    "memo",
    "externalId",
    "phoneNumber",
    "email",
    "firstName",
    "lastName",
    "verification",
];

/// The columns that say whom a row pays; a header names at least one.
const RECIPIENT_COLUMNS: [&str; 4] = ["clientId", "walletAccountId", "phoneNumber", "email"];

/// Other names a header may give each column: what a French or Creole spreadsheet calls it
/// (compared without case; accents as written or left out).
const COLUMN_NAMES: [(&str, &[&str]); 10] = [
    ("clientId", &["client", "id client", "kliyan", "id kliyan"]),
    ("walletAccountId", &["portefeuille", "adresse du portefeuille", "pòtfèy", "potfey", "bous"]),
    ("assetAmount", &["montant", "montan", "kantite lajan"]),
    ("memo", &["mémo", "memo", "note", "nòt", "not"]),
    ("externalId", &["référence", "reference", "referans"]),
    (
        "phoneNumber",
        &[
            "téléphone",
            "telephone",
            "numéro de téléphone",
            "numero de telephone",
            "telefòn",
            "telefon",
            "nimewo telefòn",
            "nimewo telefon",
        ],
    ),
    ("email", &["e-mail", "courriel", "imèl", "imel", "adresse e-mail"]),
    ("firstName", &["prénom", "prenom", "prenon"]),
    // A Haitian form asks `Non` (the family name, as French `Nom`) beside `Prenon`.
    ("lastName", &["nom", "nom de famille", "non", "siyati", "non fanmi"]),
    ("verification", &["vérification", "verification", "verifikasyon"]),
];

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The cell separator of a body: `;` when its header holds semicolons and no comma (the CSV a
/// spreadsheet saves where the decimal mark is a comma, as in French), `,` otherwise.
fn separator(body: &[u8]) -> u8 {
    let header = body.split(|b| *b == b'\n').next().unwrap_or_default();
    if header.contains(&b';') && !header.contains(&b',') { b';' } else { b',' }
}

/// An amount as a `;`-separated (French) spreadsheet writes it, `1 234,50`, in the API's form
/// `1234.50`; a cell two readers would read two ways is left as written, for the amount's own
/// rule to refuse.
fn french_amount(cell: &str) -> String {
    match read_number(Lang::Fr, cell) {
        TypedNumber::Read(plain) => plain,
        TypedNumber::Ambiguous => cell.to_owned(),
    }
}

/// The items of a CSV body (a header row, then one item per row; a UTF-8 BOM and CRLF line ends
/// accepted, cells taken as written, empty cells absent; a French spreadsheet's CSV too, `;`
/// between cells, `1 234,50` amounts and French or Creole column names), and the rows refused as rows (another
/// number of cells than the header names). A body that is not such a CSV at all (not UTF-8, a
/// header it cannot read, a quote never closed) is `invalid_csv`.
pub fn read_items(body: &[u8]) -> Result<(Vec<ItemRequest>, Vec<FieldError>), Invalid> {
    let body = body.strip_prefix(BOM).unwrap_or(body);
    if let Err(e) = std::str::from_utf8(body) {
        return Err(invalid_csv(format!("The body is not UTF-8 text (at byte {})", e.valid_up_to())));
    }
    let separator = separator(body);
    if let Some(record) = unclosed_quote(body, separator) {
        let which = if record == 0 { "The header".to_owned() } else { format!("Row {record}") };
        return Err(invalid_csv(format!(
            "{which} opens a quoted cell that is never closed: close it with a \" (a quote inside a quoted cell is doubled: \"\")"
        )));
    }
    let mut reader = csv::ReaderBuilder::new().has_headers(false).flexible(true).delimiter(separator).from_reader(body);
    let mut records = reader.records();
    let Some(header) = records.next() else { return Ok((Vec::new(), Vec::new())) };
    let header = header.map_err(|e| invalid_csv(format!("The header row could not be read: {e}")))?;
    let columns = columns(&header)?;
    let (mut items, mut bad) = (Vec::new(), Vec::new());
    let mut row = 0u32;
    for record in records {
        row += 1;
        if usize::try_from(row).unwrap_or(usize::MAX) > MAX_ITEMS {
            return Err(Invalid::fields(vec![FieldError::new(
                "items",
                format!("the CSV has more than {MAX_ITEMS} rows; a disbursement holds at most {MAX_ITEMS}: split it"),
            )]));
        }
        let record = record.map_err(|e| invalid_csv(format!("Row {row} could not be read: {e}")))?;
        // Spreadsheets export blank rows as a line of commas; they still count as rows.
        if record.iter().all(str::is_empty) {
            continue;
        }
        if record.len() != columns.len() {
            let message = format!("has {} cells where the header names {} columns", record.len(), columns.len());
            bad.push(FieldError::in_row(row, "row", Invalid::new("invalid_row", message)));
            continue;
        }
        let mut item = ItemRequest { row, ..ItemRequest::default() };
        for (column, cell) in columns.iter().zip(record.iter()) {
            let value = (!cell.is_empty()).then(|| cell.to_owned());
            match *column {
                "clientId" => item.client_id = value,
                "walletAccountId" => item.wallet_account_id = value,
                "assetAmount" if separator == b';' => item.asset_amount = value.map(|v| french_amount(&v)),
                "assetAmount" => item.asset_amount = value,
                "memo" => item.memo = value,
                "phoneNumber" => item.phone_number = value,
                "email" => item.email = value,
                "firstName" => item.first_name = value,
                "lastName" => item.last_name = value,
                "verification" => item.verification = value.map(|cell| verification_cell(&cell)),
                _ => item.external_id = value,
            }
        }
        items.push(item);
    }
    Ok((items, bad))
}

/// A `verification` cell, `type:value` (`date_of_birth:1990-05-07`): the type before the first
/// colon, the answer after it (a cell without one names no answer, which its row is refused for).
fn verification_cell(cell: &str) -> VerificationInput {
    match cell.split_once(':') {
        Some((kind, value)) => VerificationInput { kind: Some(kind.trim().to_owned()), value: Some(value.to_owned()) },
        None => VerificationInput { kind: Some(cell.trim().to_owned()), value: None },
    }
}

/// The record (0 the header, then data rows from 1) whose quoted cell runs to the end of the
/// body, if any. The csv crate reads such a cell as everything up to the end, silently; RFC 4180
/// makes it an error, and a payment file cut short must not pass as one long memo.
fn unclosed_quote(body: &[u8], separator: u8) -> Option<u32> {
    #[derive(PartialEq)]
    enum At {
        CellStart,
        Unquoted,
        Quoted,
        QuoteInQuoted,
    }
    let (mut at, mut record, mut opened) = (At::CellStart, 0u32, 0u32);
    for &byte in body {
        at = match (at, byte) {
            (At::Quoted, b'"') => At::QuoteInQuoted,
            (At::Quoted, _) => At::Quoted,
            (At::CellStart, b'"') => {
                opened = record;
                At::Quoted
            }
            (At::QuoteInQuoted, b'"') => At::Quoted,
            (_, b) if b == separator => At::CellStart,
            (_, b'\n') => {
                record = record.saturating_add(1);
                At::CellStart
            }
            _ => At::Unquoted,
        };
    }
    (at == At::Quoted).then_some(opened)
}

/// The column a header cell names: one of [`COLUMNS`] or one of its other names, in any case.
fn column_named(name: &str) -> Option<&'static str> {
    let lower = name.to_lowercase();
    COLUMNS
        .iter()
        .copied()
        .find(|c| c.eq_ignore_ascii_case(name))
        .or_else(|| COLUMN_NAMES.iter().find(|(_, names)| names.contains(&lower.as_str())).map(|(column, _)| *column))
}

/// The header's columns, each one of [`COLUMNS`] (any case, or its French or Creole name) at
/// most once, with `assetAmount` and a recipient column among them.
fn columns(header: &csv::StringRecord) -> Result<Vec<&'static str>, Invalid> {
    let mut columns = Vec::with_capacity(header.len());
    for name in header.iter() {
        let Some(column) = column_named(name) else {
            return Err(invalid_csv(format!(
                "The header names an unknown column {name:?}; the columns are {} (separated by commas, or by \
                 semicolons as a French spreadsheet saves them)",
                COLUMNS.join(", ")
            )));
        };
        if columns.contains(&column) {
            return Err(invalid_csv(format!("The header names {column} twice")));
        }
        columns.push(column);
    }
    if !columns.contains(&"assetAmount") {
        return Err(invalid_csv("The header must name an assetAmount column".into()));
    }
    if !RECIPIENT_COLUMNS.iter().any(|c| columns.contains(c)) {
        return Err(invalid_csv(format!("The header must name a recipient column: {}", RECIPIENT_COLUMNS.join(", "))));
    }
    Ok(columns)
}

fn invalid_csv(message: String) -> Invalid {
    Invalid::new("invalid_csv", message)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_quoted_cells_bom_crlf_and_any_column_order() {
        let body = "\u{FEFF}assetAmount,memo,walletAccountId\r\n\"1,000.00\",\"rent, june\",GA\r\n12.5,, GB \r\n,,\r\n3,x,GC,extra\r\n4,x\r\n";
        let (items, bad) = read_items(body.as_bytes()).unwrap();
        assert_eq!(items.len(), 2);
        assert_eq!(items[0].asset_amount.as_deref(), Some("1,000.00"));
        assert_eq!(items[0].memo.as_deref(), Some("rent, june"));
        assert_eq!((items[1].row, items[1].memo.clone()), (2, None));
        assert_eq!(items[1].wallet_account_id.as_deref(), Some(" GB "), "cells are taken as written");
        let bad: Vec<(Option<u32>, Option<&str>)> = bad.iter().map(|b| (b.row, b.code)).collect();
        assert_eq!(bad, vec![(Some(4), Some("invalid_row")), (Some(5), Some("invalid_row"))], "the blank row counts");
    }

    #[test]
    fn a_quote_never_closed_is_refused() {
        assert_eq!(unclosed_quote(b"a,b\n1,\"x\"\"y\"\n\"multi\nline\",2\n", b','), None);
        assert_eq!(unclosed_quote(b"a,b\n1,2\n3,\"oops\n4,5\n", b','), Some(2));
        assert_eq!(unclosed_quote(b"\"a,b\n", b','), Some(0));
        assert_eq!(unclosed_quote(b"a,b\n1,x\"y\n", b','), None, "a quote inside an unquoted cell is a character");
        assert_eq!(unclosed_quote(b"a;b\n1;\"x;y\"\n", b';'), None);
        let e = read_items(b"assetAmount,walletAccountId\n1,\"GA\n").unwrap_err();
        assert_eq!(e.code, "invalid_csv");
        assert!(e.message.contains("Row 1"), "{}", e.message);
    }

    #[test]
    fn refuses_a_header_it_cannot_read() {
        for (body, says) in [
            ("amount,walletAccountId\n1,G", "unknown column \"amount\""),
            ("assetAmount,assetAmount,walletAccountId\n", "twice"),
            ("walletAccountId,memo\n", "assetAmount"),
            ("assetAmount,memo\n", "a recipient column: clientId, walletAccountId, phoneNumber, email"),
            ("assetAmount, walletAccountId\n", "unknown column \" walletAccountId\""),
        ] {
            let e = read_items(body.as_bytes()).unwrap_err();
            assert_eq!(e.code, "invalid_csv");
            assert!(e.message.contains(says), "{body}: {}", e.message);
        }
        assert_eq!(read_items(b"assetAmount,memo\xff").unwrap_err().code, "invalid_csv");
        assert!(read_items(b"").unwrap().0.is_empty());
    }

    #[test]
    fn reads_a_french_spreadsheets_csv() {
        let body = "\u{FEFF}Téléphone;Montant;Mémo;Prénom;Nom\r\n3710 2030;1\u{202f}234,50;\"loyer; juin\";Rose;Pyè\r\n\
                    +509 3710 2031;12;;Jan;Pòl\r\n;;;;\r\n3710 2032;12.5;;A;B\r\n";
        let (items, bad) = read_items(body.as_bytes()).unwrap();
        assert!(bad.is_empty(), "{bad:?}");
        let amounts: Vec<_> = items.iter().map(|i| i.asset_amount.as_deref()).collect();
        assert_eq!(amounts, [Some("1234.50"), Some("12"), Some("12.5")]);
        assert_eq!(items[0].phone_number.as_deref(), Some("3710 2030"), "read as written, normalized as a phone");
        assert_eq!((items[0].memo.as_deref(), items[0].first_name.as_deref()), (Some("loyer; juin"), Some("Rose")));
        let kreyol = "Telefòn;Kantite lajan;Non fanmi;Prenon\n3710 2030;500,00;Pyè;Woz\n";
        let (items, _) = read_items(kreyol.as_bytes()).unwrap();
        assert_eq!((items[0].asset_amount.as_deref(), items[0].last_name.as_deref()), (Some("500.00"), Some("Pyè")));
        let form = "Telefòn;Montan;Non;Prenon\n3710 2030;500;Pyè;Woz\n";
        let (items, _) = read_items(form.as_bytes()).unwrap();
        assert_eq!((items[0].last_name.as_deref(), items[0].first_name.as_deref()), (Some("Pyè"), Some("Woz")));
        assert_eq!(french_amount("1.234,50"), "1.234,50", "two readings: left for the amount's rule");
    }
}
