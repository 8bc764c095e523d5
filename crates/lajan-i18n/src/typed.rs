//! Numbers as a person types them in their language, read back to the plain decimal the domain
//! reads: `1 234,50` in French and Creole, `1,234.50` in English. Input that two readers would
//! read two ways (`1.000` in French: a thousand, or one?) is never guessed at.

use crate::Lang;

/// What a typed number reads as.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TypedNumber {
    /// The plain decimal (`1234.50`) for the domain to check, or the text as typed when it is not
    /// a number in any way of writing one: the domain's rule then says what is wrong.
    Read(String),
    /// Readable two ways in this language: the person is asked to write it unambiguously.
    Ambiguous,
}

/// Spaces a person or a spreadsheet puts between thousands: space, no-break space, narrow
/// no-break space (what the console writes in French) and thin space.
fn is_group_space(c: char) -> bool {
    matches!(c, ' ' | '\u{a0}' | '\u{202f}' | '\u{2009}')
}

/// Whether `whole` (digits with `separator` between thousands) is grouped as thousands are:
/// one to three digits, then groups of exactly three.
fn grouped(whole: &str, separator: char) -> bool {
    let mut groups = whole.split(separator);
    let first = groups.next().unwrap_or_default();
    let digits = |g: &str| g.bytes().all(|b| b.is_ascii_digit());
    (1..=3).contains(&first.len()) && digits(first) && groups.all(|g| g.len() == 3 && digits(g))
}

/// `raw` as `lang` writes numbers, read: the language's decimal mark (comma in French and
/// Creole, point in English), spaces between thousands in any language, and the other mark
/// between thousands where it cannot be a decimal mark (`1,234.50` in English). In French and
/// Creole a point is read as the decimal mark a numeric keypad types (`12.50`) unless three
/// digits follow it, which is how thousands are written elsewhere: that is [`TypedNumber::Ambiguous`],
/// as are a comma in an English number that is not between thousands (`1,5`) and both marks
/// at once in French (`1.000,50`).
pub fn read_number(lang: Lang, raw: &str) -> TypedNumber {
    let trimmed = raw.trim_matches(|c: char| c.is_whitespace() || is_group_space(c));
    let (sign, unsigned) = trimmed.strip_prefix('-').map_or(("", trimmed), |rest| ("-", rest));
    let as_typed = || TypedNumber::Read(trimmed.to_owned());
    if unsigned.is_empty()
        || !unsigned.chars().all(|c| c.is_ascii_digit() || matches!(c, '.' | ',') || is_group_space(c))
    {
        return as_typed();
    }
    // Spaces between thousands, in every language.
    let spaced = unsigned.contains(is_group_space);
    let unsigned: String = if spaced {
        let whole = unsigned.split([',', '.']).next().unwrap_or_default();
        let whole: String = whole.chars().map(|c| if is_group_space(c) { ' ' } else { c }).collect();
        if !grouped(&whole, ' ') || unsigned[whole.len()..].contains(is_group_space) {
            return as_typed();
        }
        unsigned.chars().filter(|c| !is_group_space(*c)).collect()
    } else {
        unsigned.to_owned()
    };
    let (points, commas) = (unsigned.matches('.').count(), unsigned.matches(',').count());
    let plain = match lang {
        Lang::En => match (points, commas) {
            (_, 0) => unsigned,
            (0 | 1, _) => {
                let whole = unsigned.split('.').next().unwrap_or_default();
                if spaced || !grouped(whole, ',') {
                    return TypedNumber::Ambiguous;
                }
                unsigned.replace(',', "")
            }
            _ => return as_typed(),
        },
        Lang::Fr | Lang::Ht => match (points, commas) {
            (0, 0) => unsigned,
            (0, 1) => unsigned.replace(',', "."),
            (1, 0) => {
                let fraction = unsigned.split('.').nth(1).unwrap_or_default();
                if fraction.len() == 3 {
                    return TypedNumber::Ambiguous;
                }
                unsigned
            }
            (0, _) => return as_typed(),
            _ => return TypedNumber::Ambiguous,
        },
    };
    TypedNumber::Read(format!("{sign}{plain}"))
}

/// A date as `lang` writes it, in the ISO form the domain reads: day first in French and Creole
/// (`07/05/1990`, also with dashes or dots: the 7th of May) to `1990-05-07`, and a month and
/// year (`05/1990`) to `1990-05`. English pages write ISO dates, and anything that is not such a
/// date is left as typed, for the domain's rule to judge.
pub fn read_date(lang: Lang, raw: &str) -> String {
    let trimmed = raw.trim();
    if lang == Lang::En {
        return trimmed.to_owned();
    }
    let parts: Vec<&str> = trimmed.split(['/', '-', '.']).collect();
    let digits =
        |s: &str, len: std::ops::RangeInclusive<usize>| len.contains(&s.len()) && s.bytes().all(|b| b.is_ascii_digit());
    match parts.as_slice() {
        [day, month, year] if digits(day, 1..=2) && digits(month, 1..=2) && digits(year, 4..=4) => {
            format!("{year}-{month:0>2}-{day:0>2}")
        }
        [month, year] if digits(month, 1..=2) && digits(year, 4..=4) => format!("{year}-{month:0>2}"),
        _ => trimmed.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(lang: Lang, raw: &str) -> TypedNumber {
        read_number(lang, raw)
    }

    fn plain(text: &str) -> TypedNumber {
        TypedNumber::Read(text.to_owned())
    }

    #[test]
    fn french_and_creole_read_the_decimal_comma_and_spaces_between_thousands() {
        for lang in [Lang::Fr, Lang::Ht] {
            assert_eq!(read(lang, "1,5"), plain("1.5"));
            assert_eq!(read(lang, "1 000 000,00"), plain("1000000.00"));
            assert_eq!(read(lang, "1\u{202f}234,56"), plain("1234.56"), "as the console writes it");
            assert_eq!(read(lang, "1\u{a0}234"), plain("1234"));
            assert_eq!(read(lang, " 125 "), plain("125"));
            assert_eq!(read(lang, "12.50"), plain("12.50"), "a keypad's point, two decimals");
            assert_eq!(read(lang, "0.5"), plain("0.5"));
            assert_eq!(read(lang, "-3,25"), plain("-3.25"));
            assert_eq!(read(lang, "1.000"), TypedNumber::Ambiguous, "a thousand, or one?");
            assert_eq!(read(lang, "12.345"), TypedNumber::Ambiguous);
            assert_eq!(read(lang, "1.000,50"), TypedNumber::Ambiguous);
            assert_eq!(read(lang, "1.000.000"), TypedNumber::Ambiguous);
            // Not numbers in any way of writing them: the domain's rule says so.
            assert_eq!(read(lang, "1,2,3"), plain("1,2,3"));
            assert_eq!(read(lang, "12 34"), plain("12 34"));
            assert_eq!(read(lang, "abc"), plain("abc"));
            assert_eq!(read(lang, "1e3"), plain("1e3"));
            assert_eq!(read(lang, ""), plain(""));
        }
    }

    #[test]
    fn english_reads_the_point_and_commas_between_thousands() {
        assert_eq!(read(Lang::En, "1,234.50"), plain("1234.50"));
        assert_eq!(read(Lang::En, "1,000,000"), plain("1000000"));
        assert_eq!(read(Lang::En, "1 000.25"), plain("1000.25"));
        assert_eq!(
            read(Lang::En, "1.000"),
            plain("1.000"),
            "one, as English writes it; the domain counts the decimals"
        );
        assert_eq!(read(Lang::En, "1,5"), TypedNumber::Ambiguous);
        assert_eq!(read(Lang::En, "12,50"), TypedNumber::Ambiguous);
        assert_eq!(read(Lang::En, "1.000.000"), plain("1.000.000"));
    }

    #[test]
    fn dates_are_read_day_first_in_french_and_creole() {
        for lang in [Lang::Fr, Lang::Ht] {
            assert_eq!(read_date(lang, " 07/05/1990 "), "1990-05-07");
            assert_eq!(read_date(lang, "7.5.1990"), "1990-05-07");
            assert_eq!(read_date(lang, "05/1990"), "1990-05");
            assert_eq!(read_date(lang, "1990-05-07"), "1990-05-07", "ISO stays ISO");
            assert_eq!(read_date(lang, "1234"), "1234", "a PIN is no date");
        }
        assert_eq!(read_date(Lang::En, "07/05/1990"), "07/05/1990", "English reads ISO only: left for the rule");
    }
}
