//! The HTTP server's connections: accepted up to a cap (and a cap per client address), each
//! closed when it idles or sends a request too slowly, with a deadline on reading each request's
//! body; HTTP/1.1 only unless HTTP/2 is asked for, then with a cap on streams. axum's own `serve`
//! keeps a connection open for as long as its peer wishes, so a few thousand silent or dribbling
//! sockets (slowloris) would hold every file descriptor the process has.

use crate::address_slots::AddressSlots;
use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::Request;
use bytes::Bytes;
use http_body::{Body as HttpBody, Frame, SizeHint};
use hyper::body::Incoming;
use hyper_util::rt::{TokioExecutor, TokioIo};
use hyper_util::server::conn::auto::Builder;
use ipnet::IpNet;
use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::task::{Context, Poll, ready};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Semaphore, watch};
use tokio::time::{Instant, Sleep};
use tower::ServiceExt;

/// How long a connection may take over each part of its life, and how many may be open at once.
#[derive(Debug, Clone, Copy)]
pub struct ConnectionLimits {
    /// From a request's first byte to its last header; also how long a new connection may stay
    /// silent before its first request.
    pub header_timeout: Duration,
    /// How long a connection that has been answered may wait, silent, for its next request.
    pub idle_timeout: Duration,
    /// From a request's headers to the last byte of its body.
    pub body_timeout: Duration,
    /// Connections open at once; the next waits in the listen queue until one closes.
    pub max_connections: usize,
    /// Connections one client address may hold open at once (0: no limit); past it a new one
    /// is answered 429 and closed. A trusted proxy's connections carry many clients: they are
    /// not counted, each forwarded address's requests in flight are (`observe`).
    pub per_address: usize,
    /// Whether HTTP/2 (cleartext, prior knowledge) is served beside HTTP/1.1: off unless asked
    /// for, since each HTTP/2 connection carries many requests past the connection cap.
    pub http2: bool,
    /// Streams one HTTP/2 connection may have open at once.
    pub http2_max_streams: u32,
}

impl Default for ConnectionLimits {
    fn default() -> Self {
        ConnectionLimits {
            header_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(60),
            body_timeout: Duration::from_secs(30),
            max_connections: 4096,
            per_address: 64,
            http2: false,
            http2_max_streams: 32,
        }
    }
}

/// Serves `router` on `listener` until `shutdown` resolves, then lets every connection finish the
/// request it is answering (idle ones close at once) and returns when all have.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: ConnectionLimits,
    trusted_proxies: &[IpNet],
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let slots = Arc::new(Semaphore::new(limits.max_connections.max(1)));
    let per_address = AddressSlots::new(limits.per_address);
    // Connections hold a receiver each: closing the sender asks them to finish; once every
    // receiver is dropped, every connection has.
    let (stop, stopping) = watch::channel(());
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let slot = tokio::select! {
            slot = slots.clone().acquire_owned() => slot,
            () = &mut shutdown => break,
        };
        let Ok(slot) = slot else { break };
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = &mut shutdown => break,
        };
        match accepted {
            Ok((stream, peer)) => {
                let proxied = trusted_proxies.iter().any(|net| net.contains(&peer.ip()));
                let address_slot = if proxied { None } else { per_address.take(peer.ip()) };
                if !proxied && address_slot.is_none() {
                    refuse(stream);
                    continue;
                }
                let (router, stopping) = (router.clone(), stopping.clone());
                tokio::spawn(async move {
                    serve_connection(stream, peer, router, limits, stopping).await;
                    drop((slot, address_slot));
                });
            }
            // Out of descriptors or memory: wait for some to be freed rather than spin.
            Err(e) if !is_connection_error(&e) => {
                tracing::error!(error = %e, "accepting a connection failed");
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            Err(_) => {}
        }
    }
    drop(listener);
    drop(stopping);
    let _ = stop.send(());
    stop.closed().await;
    Ok(())
}

/// Answers a connection its address may not open with 429, if its socket takes the few bytes
/// now, and closes it: nothing is read, nothing waited for.
fn refuse(stream: TcpStream) {
    const TOO_MANY: &[u8] =
        b"HTTP/1.1 429 Too Many Requests\r\nRetry-After: 1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
    let _ = stream.try_write(TOO_MANY);
}

/// Errors of one connection (the peer gave up before it was accepted), not of the listener.
fn is_connection_error(e: &std::io::Error) -> bool {
    use std::io::ErrorKind::{ConnectionAborted, ConnectionRefused, ConnectionReset};
    matches!(e.kind(), ConnectionRefused | ConnectionAborted | ConnectionReset)
}

async fn serve_connection(
    stream: TcpStream,
    peer: SocketAddr,
    router: Router,
    limits: ConnectionLimits,
    mut stopping: watch::Receiver<()>,
) {
    let activity = Arc::new(Activity::new());
    let io = TokioIo::new(Watched { inner: stream, activity: activity.clone() });
    let answering = activity.clone();
    let service = hyper::service::service_fn(move |request: Request<Incoming>| {
        let in_flight = answering.request_started();
        let deadline = Instant::now() + limits.body_timeout;
        let mut request = request.map(|body| Body::new(Deadline { inner: body, deadline, sleep: None }));
        request.extensions_mut().insert(ConnectInfo(peer));
        let router = router.clone();
        async move {
            let response = router.oneshot(request).await;
            drop(in_flight);
            response
        }
    });
    let mut builder = Builder::new(TokioExecutor::new());
    if limits.http2 {
        builder.http2().max_concurrent_streams(limits.http2_max_streams);
    } else {
        builder = builder.http1_only();
    }
    // No route upgrades a connection; without upgrades `http1_only` holds.
    let mut connection = std::pin::pin!(builder.serve_connection(io, service));
    let mut watchdog = std::pin::pin!(activity.overdue(limits));
    let mut asked_to_stop = false;
    loop {
        tokio::select! {
            served = connection.as_mut() => {
                if let Err(e) = served {
                    tracing::trace!(error = %e, "connection ended with an error");
                }
                return;
            }
            () = &mut watchdog => {
                tracing::debug!(%peer, "connection closed: silent or too slow");
                return;
            }
            _ = stopping.changed(), if !asked_to_stop => {
                asked_to_stop = true;
                connection.as_mut().graceful_shutdown();
            }
        }
    }
}

/// What a connection is doing, for its watchdog: bytes moved, requests being answered, and
/// whether a request has begun arriving. Times are milliseconds since the connection opened.
struct Activity {
    opened: Instant,
    last_io: AtomicU64,
    /// When the first byte of a request not yet handed to the router arrived ([`NONE`]: none).
    head_since: AtomicU64,
    in_flight: AtomicUsize,
    answered: AtomicBool,
}

const NONE: u64 = u64::MAX;

impl Activity {
    fn new() -> Self {
        Activity {
            opened: Instant::now(),
            last_io: AtomicU64::new(0),
            head_since: AtomicU64::new(NONE),
            in_flight: AtomicUsize::new(0),
            answered: AtomicBool::new(false),
        }
    }

    fn now(&self) -> u64 {
        u64::try_from(self.opened.elapsed().as_millis()).unwrap_or(NONE - 1)
    }

    fn read(&self, bytes: usize) {
        if bytes == 0 {
            return;
        }
        let now = self.now();
        self.last_io.store(now, Ordering::Relaxed);
        if self.in_flight.load(Ordering::Relaxed) == 0 {
            let _ = self.head_since.compare_exchange(NONE, now, Ordering::Relaxed, Ordering::Relaxed);
        }
    }

    fn wrote(&self, bytes: usize) {
        if bytes > 0 {
            self.last_io.store(self.now(), Ordering::Relaxed);
        }
    }

    /// A request's head is complete; it is being answered until the guard drops.
    fn request_started(self: &Arc<Self>) -> InFlight {
        self.in_flight.fetch_add(1, Ordering::Relaxed);
        self.head_since.store(NONE, Ordering::Relaxed);
        InFlight(self.clone())
    }

    /// How long until this connection is overdue, or `None` when it is: a request's head past
    /// the header timeout, or no request for longer than the connection may wait for one.
    fn remaining(&self, limits: &ConnectionLimits) -> Option<Duration> {
        if self.in_flight.load(Ordering::Relaxed) > 0 {
            // The body has its own deadline; a handler's time is the handler's.
            return Some(limits.idle_timeout);
        }
        let (since, limit) = match self.head_since.load(Ordering::Relaxed) {
            NONE if self.answered.load(Ordering::Relaxed) => {
                (self.last_io.load(Ordering::Relaxed), limits.idle_timeout)
            }
            NONE => (0, limits.header_timeout),
            head => (head, limits.header_timeout),
        };
        let limit = u64::try_from(limit.as_millis()).unwrap_or(NONE);
        let left = since.saturating_add(limit).saturating_sub(self.now());
        (left > 0).then(|| Duration::from_millis(left))
    }

    /// Resolves once the connection is overdue. It looks again at least every half header
    /// timeout, so a request that begins while it sleeps through a long wait is still timed.
    async fn overdue(&self, limits: ConnectionLimits) {
        let look_again = (limits.header_timeout / 2).max(Duration::from_millis(10));
        while let Some(left) = self.remaining(&limits) {
            tokio::time::sleep(left.min(look_again)).await;
        }
    }
}

/// A request being answered; dropping it marks the answer given.
struct InFlight(Arc<Activity>);

impl Drop for InFlight {
    fn drop(&mut self) {
        let activity = &self.0;
        activity.last_io.store(activity.now(), Ordering::Relaxed);
        activity.answered.store(true, Ordering::Relaxed);
        activity.in_flight.fetch_sub(1, Ordering::Relaxed);
    }
}

/// The socket, telling its [`Activity`] of every byte read or written.
struct Watched {
    inner: TcpStream,
    activity: Arc<Activity>,
}

impl AsyncRead for Watched {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<std::io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        ready!(Pin::new(&mut this.inner).poll_read(cx, buf))?;
        this.activity.read(buf.filled().len() - before);
        Poll::Ready(Ok(()))
    }
}

impl AsyncWrite for Watched {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<std::io::Result<usize>> {
        let this = self.get_mut();
        let written = ready!(Pin::new(&mut this.inner).poll_write(cx, buf))?;
        this.activity.wrote(written);
        Poll::Ready(Ok(written))
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        let this = self.get_mut();
        let written = ready!(Pin::new(&mut this.inner).poll_write_vectored(cx, bufs))?;
        this.activity.wrote(written);
        Poll::Ready(Ok(written))
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }
}

/// A request body that fails with [`BodyTimeout`] once its deadline passes. The timer is made
/// only when the body is first waited for, so a request without a body costs none.
struct Deadline {
    inner: Incoming,
    deadline: Instant,
    sleep: Option<Pin<Box<Sleep>>>,
}

/// The request's body did not arrive within the body timeout.
#[derive(Debug)]
pub struct BodyTimeout;

impl std::fmt::Display for BodyTimeout {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the request body did not arrive in time")
    }
}

impl std::error::Error for BodyTimeout {}

impl BodyTimeout {
    /// Whether `error`, or an error it wraps, is a body that did not arrive in time.
    pub fn caused(error: &(dyn std::error::Error + 'static)) -> bool {
        let mut cause = Some(error);
        while let Some(e) = cause {
            if e.is::<BodyTimeout>() {
                return true;
            }
            cause = e.source();
        }
        false
    }
}

impl HttpBody for Deadline {
    type Data = Bytes;
    type Error = Box<dyn std::error::Error + Send + Sync>;

    fn poll_frame(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        let this = self.get_mut();
        if let Poll::Ready(frame) = Pin::new(&mut this.inner).poll_frame(cx) {
            return Poll::Ready(frame.map(|f| f.map_err(Into::into)));
        }
        let deadline = this.deadline;
        let sleep = this.sleep.get_or_insert_with(|| Box::pin(tokio::time::sleep_until(deadline)));
        ready!(sleep.as_mut().poll(cx));
        Poll::Ready(Some(Err(Box::new(BodyTimeout))))
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}
