//! Pagination: `page` (default 1, at least 1) and `limit` (default 20, 1..=100), never clamped.

use crate::{FieldError, Invalid};

pub const DEFAULT_LIMIT: u32 = 20;
pub const MAX_LIMIT: u32 = 100;
/// The longest `search` a list takes, in characters.
pub const MAX_SEARCH_CHARS: usize = 200;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageRequest {
    pub page: u32,
    pub limit: u32,
}

impl Default for PageRequest {
    fn default() -> Self {
        PageRequest { page: 1, limit: DEFAULT_LIMIT }
    }
}

impl PageRequest {
    /// Parses the raw query values. Anything but an integer in range is `invalid_pagination`.
    pub fn parse(page: Option<&str>, limit: Option<&str>) -> Result<Self, Invalid> {
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
        if details.is_empty() {
            Ok(PageRequest { page, limit })
        } else {
            let message = details.iter().map(|d| format!("{} {}", d.field, d.message)).collect::<Vec<_>>().join("; ");
            Err(Invalid { code: "invalid_pagination", message, details })
        }
    }

    pub fn offset(self) -> u64 {
        u64::from(self.page - 1) * u64::from(self.limit)
    }
}

/// One page of results and the total across all pages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Page<T> {
    pub items: Vec<T>,
    pub total: u64,
    pub request: PageRequest,
}

impl<T> Page<T> {
    pub fn total_pages(&self) -> u64 {
        self.total.div_ceil(u64::from(self.request.limit))
    }

    pub fn map<U>(self, f: impl FnMut(T) -> U) -> Page<U> {
        Page { items: self.items.into_iter().map(f).collect(), total: self.total, request: self.request }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_and_bounds() {
        assert_eq!(PageRequest::parse(None, None).unwrap(), PageRequest { page: 1, limit: 20 });
        assert_eq!(PageRequest::parse(Some("3"), Some("100")).unwrap(), PageRequest { page: 3, limit: 100 });
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
    fn offsets_and_total_pages() {
        let r = PageRequest { page: 3, limit: 20 };
        assert_eq!(r.offset(), 40);
        let page: Page<()> = Page { items: vec![], total: 41, request: r };
        assert_eq!(page.total_pages(), 3);
        let empty: Page<()> = Page { items: vec![], total: 0, request: r };
        assert_eq!(empty.total_pages(), 0);
    }
}
