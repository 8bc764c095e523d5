//! Requests the database cut short to break a deadlock or a serialization conflict are run
//! again: a caller never sees a 500 for contention it could not cause.
//!
//! PostgreSQL aborts one of two transactions that wait on each other (`40P01`), or one whose
//! snapshot can no longer be serialized (`40001`). Nothing of it was written, and each unit of
//! work is whole (its `Idempotency-Key` claim, its change, its event), so the request as a
//! whole may run again from the start. Locks are taken in one order everywhere
//! (docs/design.md), so this is rare; the retry covers what that order cannot rule out.

use crate::error::ApiError;
use axum::body::Body;
use axum::extract::Request;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use bytes::{Bytes, BytesMut};
use http_body::{Body as HttpBody, Frame, SizeHint};
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::Duration;

/// How many times a request runs at most: the first run and three more.
const RUNS: u32 = 4;

/// Runs the request, and again (after 10, 20, then 40 ms) while the database aborted one of its
/// transactions for contention and it failed for it; still failing, it answers 503 `busy`.
/// The body is kept as the handler reads it, never read ahead of it (a body that is late or
/// too large gets the handler's own answer), and sent again only if it was read whole.
pub(crate) async fn retry_contended(request: Request, next: Next) -> Response {
    let (parts, body) = request.into_parts();
    let empty = body.is_end_stream();
    let kept = Arc::new(Mutex::new(Kept::default()));
    let mut body = Body::new(Keeping { inner: body, kept: kept.clone() });
    for run in 1..=RUNS {
        let (response, contended) =
            lajan_store::watch_contention(next.clone().run(Request::from_parts(parts.clone(), body))).await;
        if !contended || !response.status().is_server_error() {
            return response;
        }
        let replay = {
            let kept = kept.lock().unwrap_or_else(PoisonError::into_inner);
            (kept.whole || empty).then(|| kept.bytes.clone().freeze())
        };
        let Some(replay) = replay else { return response };
        tracing::warn!(run, path = %parts.uri.path(), "the database aborted a transaction for contention; running the request again");
        if run == RUNS {
            break;
        }
        tokio::time::sleep(Duration::from_millis(5 << run)).await;
        body = Body::from(replay);
    }
    ApiError::busy().into_response()
}

/// What a request's body held, as far as its handler read it.
#[derive(Default)]
struct Kept {
    bytes: BytesMut,
    /// The body was read to its end.
    whole: bool,
}

/// The request's body, keeping a copy of each chunk its reader takes.
struct Keeping {
    inner: Body,
    kept: Arc<Mutex<Kept>>,
}

impl HttpBody for Keeping {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.inner).poll_frame(cx);
        if let Poll::Ready(frame) = &polled {
            let mut kept = this.kept.lock().unwrap_or_else(PoisonError::into_inner);
            match frame {
                Some(Ok(frame)) => {
                    if let Some(data) = frame.data_ref() {
                        kept.bytes.extend_from_slice(data);
                    }
                    kept.whole = this.inner.is_end_stream();
                }
                None => kept.whole = true,
                Some(Err(_)) => {}
            }
        }
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}
