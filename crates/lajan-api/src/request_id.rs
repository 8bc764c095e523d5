//! The id of the request being answered: which caller ids are kept, and where the answering
//! task keeps its own so an error body can carry it.

use axum::http::HeaderName;
use std::future::Future;

pub(crate) const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

tokio::task_local! {
    static ANSWERING: String;
}

/// Runs `answer` as the answer to the request `id`.
pub(crate) async fn answering<T>(id: String, answer: impl Future<Output = T>) -> T {
    ANSWERING.scope(id, answer).await
}

/// The id of the request this task answers, when it answers one.
pub(crate) fn current() -> Option<String> {
    ANSWERING.try_with(Clone::clone).ok()
}

/// A caller's id is kept when it is 1 to 128 visible ASCII characters; others are replaced, so
/// what reaches the logs is bounded and printable.
pub(crate) fn usable(id: &str) -> bool {
    (1..=128).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_graphic())
}

#[cfg(test)]
mod tests {
    #[test]
    fn usable_ids_are_short_and_visible() {
        assert!(super::usable("req-abc_123:4/5"));
        for refused in ["", "two words", "é", &"x".repeat(129)] {
            assert!(!super::usable(refused), "{refused:?}");
        }
    }
}
