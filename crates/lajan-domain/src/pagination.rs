//! Pagination: `page` (default 1, at least 1) and `limit` (default 20, 1..=100), never clamped,
//! or a keyset cursor (`startingAfter` / `endingBefore`, an id in the list).

use crate::{FieldError, Invalid};

pub const DEFAULT_LIMIT: u32 = 20;
pub const MAX_LIMIT: u32 = 100;
/// The longest `search` a list takes, in characters.
pub const MAX_SEARCH_CHARS: usize = 200;
/// How far a total that no count table keeps is counted (a search, a second filter): past it,
/// the page says `totalIsEstimate` and the total is this bound, so a count costs at most this
/// many index entries, whatever the table holds.
pub const COUNT_BOUND: u64 = 10_000;

/// Where a keyset page starts: the items listed after the one with this id (older, as lists are
/// newest first), or those before it (newer).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cursor {
    After(String),
    Before(String),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageRequest {
    pub page: u32,
    pub limit: u32,
    pub cursor: Option<Cursor>,
}

impl Default for PageRequest {
    fn default() -> Self {
        PageRequest { page: 1, limit: DEFAULT_LIMIT, cursor: None }
    }
}

/// The raw pagination values of a query string, as given.
#[derive(Debug, Clone, Copy, Default)]
pub struct RawPage<'a> {
    pub page: Option<&'a str>,
    pub limit: Option<&'a str>,
    pub starting_after: Option<&'a str>,
    pub ending_before: Option<&'a str>,
}

impl PageRequest {
    /// A page by number.
    pub fn numbered(page: u32, limit: u32) -> Self {
        PageRequest { page, limit, cursor: None }
    }

    /// Parses the raw query values. Anything but an integer in range is `invalid_pagination`.
    pub fn parse(page: Option<&str>, limit: Option<&str>) -> Result<Self, Invalid> {
        Self::parse_raw(RawPage { page, limit, ..RawPage::default() })
    }

    /// Parses the raw query values: integers in range, at most one cursor (an id, 1 to 255
    /// visible characters), and no page past the first beside it; anything else is `invalid_pagination`.
    pub fn parse_raw(raw: RawPage<'_>) -> Result<Self, Invalid> {
        let RawPage { page, limit, starting_after, ending_before } = raw;
        let mut details = Vec::new();
        let page = match page {
            None => 1,
            Some(raw) => match raw.parse::<u32>() {
                Ok(p) if p >= 1 => p,
                _ => {
                    details.push(FieldError::new("page", format!("must be a whole number from 1 to {}", u32::MAX)));
                    1
                }
            },
        };
        let limit = match limit {
            None => DEFAULT_LIMIT,
            Some(raw) => match raw.parse::<u32>() {
                Ok(l) if (1..=MAX_LIMIT).contains(&l) => l,
                _ => {
                    details.push(FieldError::new("limit", format!("must be an integer from 1 to {MAX_LIMIT}")));
                    DEFAULT_LIMIT
                }
            },
        };
        let mut cursor_of = |field: &str, raw: Option<&str>| {
            let id = raw?;
            if id.is_empty() || id.len() > 255 || !id.bytes().all(|b| b.is_ascii_graphic()) {
                details.push(FieldError::new(field, "must be the id of an item in the list"));
                return None;
            }
            Some(id.to_owned())
        };
        let after = cursor_of("startingAfter", starting_after);
        let before = cursor_of("endingBefore", ending_before);
        let cursor = match (after, before) {
            (Some(_), Some(_)) => {
                details.push(FieldError::new("endingBefore", "cannot be combined with startingAfter"));
                None
            }
            (Some(id), None) => Some(Cursor::After(id)),
            (None, Some(id)) => Some(Cursor::Before(id)),
            (None, None) => None,
        };
        if let (Some(cursor), true) = (&cursor, page > 1) {
            let field = match cursor {
                Cursor::After(_) => "startingAfter",
                Cursor::Before(_) => "endingBefore",
            };
            details.push(FieldError::new("page", format!("cannot be combined with {field}")));
        }
        if details.is_empty() {
            Ok(PageRequest { page, limit, cursor })
        } else {
            let message = details.iter().map(|d| format!("{} {}", d.field, d.message)).collect::<Vec<_>>().join("; ");
            Err(Invalid { code: "invalid_pagination", message, details })
        }
    }

    pub fn offset(&self) -> u64 {
        u64::from(self.page - 1) * u64::from(self.limit)
    }
}

/// One page of results and the total across all pages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Page<T> {
    pub items: Vec<T>,
    pub total: u64,
    /// The total was counted only to [`COUNT_BOUND`] and more match: `total` is that bound.
    pub total_is_estimate: bool,
    /// Another page follows in the direction of travel (older items; newer for `endingBefore`).
    pub has_more: bool,
    pub request: PageRequest,
}

impl<T> Page<T> {
    pub fn total_pages(&self) -> u64 {
        self.total.div_ceil(u64::from(self.request.limit))
    }

    pub fn map<U>(self, f: impl FnMut(T) -> U) -> Page<U> {
        Page {
            items: self.items.into_iter().map(f).collect(),
            total: self.total,
            total_is_estimate: self.total_is_estimate,
            has_more: self.has_more,
            request: self.request,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_and_bounds() {
        assert_eq!(PageRequest::parse(None, None).unwrap(), PageRequest::numbered(1, 20));
        assert_eq!(PageRequest::parse(Some("3"), Some("100")).unwrap(), PageRequest::numbered(3, 100));
        for (p, l) in [
            (Some("0"), None),
            (Some("-1"), None),
            (Some("1.5"), None),
            (Some("x"), None),
            (None, Some("0")),
            (None, Some("101")),
            (None, Some("")),
            (None, Some("20.0")),
        ] {
            let err = PageRequest::parse(p, l).unwrap_err();
            assert_eq!(err.code, "invalid_pagination", "{p:?} {l:?}");
        }
        assert_eq!(PageRequest::parse(Some("0"), Some("0")).unwrap_err().details.len(), 2);
        let beyond = PageRequest::parse(Some("4294967296"), None).unwrap_err();
        assert_eq!(beyond.details[0].message, "must be a whole number from 1 to 4294967295");
        assert_eq!(PageRequest::parse(Some("4294967295"), None).unwrap().page, u32::MAX);
    }

    #[test]
    fn cursors_one_at_a_time_and_never_beside_a_page() {
        let raw = |page, starting_after, ending_before| RawPage { page, limit: None, starting_after, ending_before };
        let after = PageRequest::parse_raw(raw(None, Some("cli_1"), None)).unwrap();
        assert_eq!(after.cursor, Some(Cursor::After("cli_1".into())));
        let before = PageRequest::parse_raw(raw(None, None, Some("evt_9"))).unwrap();
        assert_eq!(before.cursor, Some(Cursor::Before("evt_9".into())));
        let both = PageRequest::parse_raw(raw(None, Some("a"), Some("b"))).unwrap_err();
        assert_eq!((both.code, both.details[0].field.as_str()), ("invalid_pagination", "endingBefore"));
        let paged = PageRequest::parse_raw(raw(Some("2"), Some("a"), None)).unwrap_err();
        assert_eq!(paged.details[0].message, "cannot be combined with startingAfter");
        for bad in ["", "a b", "é", &"x".repeat(256)] {
            let err = PageRequest::parse_raw(raw(None, Some(bad), None)).unwrap_err();
            assert_eq!(err.details[0].field, "startingAfter", "{bad:?}");
        }
    }

    #[test]
    fn offsets_and_total_pages() {
        let r = PageRequest::numbered(3, 20);
        assert_eq!(r.offset(), 40);
        let page =
            |total| Page::<()> { items: vec![], total, total_is_estimate: false, has_more: false, request: r.clone() };
        assert_eq!(page(41).total_pages(), 3);
        assert_eq!(page(0).total_pages(), 0);
    }
}
