//! Reports as CSV, as an accountant opens them in a spreadsheet: the disbursement items report
//! (the API's `Accept: text/csv` answer and the console's download), an invoice's statement and
//! a client's.

use crate::views::client_statement::{CLIENT_STATEMENT_COLUMNS, ClientStatementView};
use crate::views::disbursements::{DisbursementItemView, REPORT_COLUMNS};
use crate::views::invoice_statement::{STATEMENT_COLUMNS, StatementLineView};

/// The items report: a header of [`REPORT_COLUMNS`] and one row per item, CRLF line ends,
/// quoted where a cell needs it, and every cell a spreadsheet would run as a formula defused.
pub fn items_csv(items: &[DisbursementItemView]) -> std::io::Result<Vec<u8>> {
    spreadsheet(&REPORT_COLUMNS, items.iter().map(DisbursementItemView::report_row))
}

/// An invoice's statement: a header of [`STATEMENT_COLUMNS`] and one row per movement, as
/// safe to open as the items report.
pub fn statement_csv(lines: &[StatementLineView]) -> std::io::Result<Vec<u8>> {
    spreadsheet(&STATEMENT_COLUMNS, lines.iter().map(StatementLineView::report_row))
}

/// A client's statement: a header of [`CLIENT_STATEMENT_COLUMNS`], a row per invoice, then a
/// row per currency the organization holds credit in.
pub fn client_statement_csv(statement: &ClientStatementView) -> std::io::Result<Vec<u8>> {
    spreadsheet(&CLIENT_STATEMENT_COLUMNS, statement.report_rows().into_iter())
}

fn spreadsheet<const N: usize>(
    header: &[&str; N],
    rows: impl Iterator<Item = [String; N]>,
) -> std::io::Result<Vec<u8>> {
    let mut writer = csv::WriterBuilder::new().terminator(csv::Terminator::CRLF).from_writer(Vec::new());
    writer.write_record(header)?;
    for row in rows {
        writer.write_record(row.map(defuse_formula))?;
    }
    writer.into_inner().map_err(|e| std::io::Error::other(e.to_string()))
}

/// OWASP's rule against CSV injection: a cell that begins with `=`, `+`, `-`, `@`, a tab or a
/// carriage return is written with a leading `'`, so a spreadsheet shows it as text instead of
/// running it. Applied to every cell: the ones a user typed (memo, externalId, a reversal's
/// reason) are the point. A plain signed amount (`-30.00`, a statement's payment) is a number
/// to the spreadsheet, not a formula, and stays one.
fn defuse_formula(cell: String) -> String {
    if is_plain_amount(&cell) || !cell.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        cell
    } else {
        format!("'{cell}")
    }
}

/// `-` and digits with at most one `.` between digits: what Lajan writes for an amount.
fn is_plain_amount(cell: &str) -> bool {
    let digits = cell.strip_prefix('-').unwrap_or(cell);
    let (whole, fraction) = digits.split_once('.').unwrap_or((digits, "0"));
    let all_digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    all_digits(whole) && all_digits(fraction)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formula_cells_are_defused_and_others_kept() {
        for (cell, written) in [
            ("=HYPERLINK(\"http://x\")", "'=HYPERLINK(\"http://x\")"),
            ("+cmd|' /C calc'!A0", "'+cmd|' /C calc'!A0"),
            ("-2+3", "'-2+3"),
            ("-30.00", "-30.00"),
            ("-30.", "'-30."),
            ("-.5", "'-.5"),
            ("@SUM(A1)", "'@SUM(A1)"),
            ("\tx", "'\tx"),
            ("\rx", "'\rx"),
            (" =1+1", " =1+1"),
            ("June = stipend", "June = stipend"),
            ("", ""),
        ] {
            assert_eq!(defuse_formula(cell.to_owned()), written, "{cell:?}");
        }
    }
}
