//! The disbursement items report as CSV, as an accountant opens it in a spreadsheet: the API's
//! `Accept: text/csv` answer and the console's download.

use crate::views::disbursements::{DisbursementItemView, REPORT_COLUMNS};

/// The items report: a header of [`REPORT_COLUMNS`] and one row per item, CRLF line ends,
/// quoted where a cell needs it, and every cell a spreadsheet would run as a formula defused.
pub fn items_csv(items: &[DisbursementItemView]) -> std::io::Result<Vec<u8>> {
    let mut writer = csv::WriterBuilder::new().terminator(csv::Terminator::CRLF).from_writer(Vec::new());
    writer.write_record(REPORT_COLUMNS)?;
    for item in items {
        writer.write_record(item.report_row().map(defuse_formula))?;
    }
    writer.into_inner().map_err(|e| std::io::Error::other(e.to_string()))
}

/// OWASP's rule against CSV injection: a cell that begins with `=`, `+`, `-`, `@`, a tab or a
/// carriage return is written with a leading `'`, so a spreadsheet shows it as text instead of
/// running it. Applied to every cell: the ones Lajan writes (ids, positive amounts, statuses)
/// never begin so, and the ones a user typed (memo, externalId) are the point.
fn defuse_formula(cell: String) -> String {
    if cell.starts_with(['=', '+', '-', '@', '\t', '\r']) { format!("'{cell}") } else { cell }
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
