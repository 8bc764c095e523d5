//! What an anonymous client can hold on to: made-up methods add no metric series, silent and
//! dribbling connections are closed, a body that never arrives is answered 408, and a normal
//! request is served while thousands of idle connections are open.

use lajan_testkit::{TestApp, TestConfig};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Short timeouts, so a test sees each one fire.
fn quick_timeouts() -> TestConfig {
    let mut config = lajan_testkit::test_config();
    config.api.connections.header_timeout = Duration::from_secs(1);
    config.api.connections.idle_timeout = Duration::from_secs(3);
    config.api.connections.body_timeout = Duration::from_secs(1);
    config
}

fn few_connections() -> TestConfig {
    let mut config = quick_timeouts();
    config.api.connections.max_connections = 3;
    config
}

async fn connect(app: &TestApp) -> TcpStream {
    TcpStream::connect(app.server.base.trim_start_matches("http://")).await.expect("connect")
}

/// Reads until the peer closes the connection or `within` passes; answers what was read and
/// whether the connection was closed.
async fn read_until_closed(stream: &mut TcpStream, within: Duration) -> (String, bool) {
    let mut seen = Vec::new();
    let mut buf = [0u8; 4096];
    let deadline = tokio::time::Instant::now() + within;
    loop {
        match tokio::time::timeout_at(deadline, stream.read(&mut buf)).await {
            Err(_) => return (String::from_utf8_lossy(&seen).into_owned(), false),
            Ok(Ok(0) | Err(_)) => return (String::from_utf8_lossy(&seen).into_owned(), true),
            Ok(Ok(n)) => seen.extend_from_slice(&buf[..n]),
        }
    }
}

/// One request on an open connection; answers the response's head and body as text.
async fn exchange(stream: &mut TcpStream, request: &str) -> String {
    stream.write_all(request.as_bytes()).await.expect("write");
    let mut seen = Vec::new();
    let mut buf = [0u8; 4096];
    while !String::from_utf8_lossy(&seen).contains("\r\n\r\n") || !complete(&seen) {
        let n = tokio::time::timeout(Duration::from_secs(5), stream.read(&mut buf)).await.expect("an answer").unwrap();
        assert!(n > 0, "closed before answering: {}", String::from_utf8_lossy(&seen));
        seen.extend_from_slice(&buf[..n]);
    }
    String::from_utf8_lossy(&seen).into_owned()
}

/// Whether a response with a Content-Length has all of its body.
fn complete(seen: &[u8]) -> bool {
    let text = String::from_utf8_lossy(seen);
    let Some((head, body)) = text.split_once("\r\n\r\n") else { return false };
    let length = head.lines().find_map(|l| l.to_ascii_lowercase().strip_prefix("content-length: ")?.parse().ok());
    length.is_none_or(|n: usize| body.len() >= n)
}

/// The `lajan_http_requests_total` series the process has made so far.
async fn request_series(app: &TestApp) -> Vec<String> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/metrics", listener.local_addr().unwrap());
    let services = app.workers().services().clone();
    tokio::spawn(lajan_api::metrics::serve(listener, services, std::future::pending()));
    let text = app.http.get(url).send().await.unwrap().text().await.unwrap();
    text.lines().filter(|l| l.starts_with("lajan_http_requests_total{")).map(str::to_owned).collect()
}

api_test!(made_up_methods_are_refused_and_make_no_series, |app| {
    let before = request_series(app).await;
    for i in 0..300 {
        let method = reqwest::Method::from_bytes(format!("PROBE{i}").as_bytes()).unwrap();
        let r = app.http.request(method, app.url("/v1/clients")).send().await.unwrap();
        let body = expect_error(r, 405, "method_not_allowed").await;
        assert!(body["message"].as_str().unwrap().contains("method"), "{body}");
    }
    let long = reqwest::Method::from_bytes("X".repeat(60_000).as_bytes()).unwrap();
    let r = app.http.request(long, app.url("/healthz")).send().await.unwrap();
    assert_eq!(r.status(), 405);
    let r = app.http.request(reqwest::Method::TRACE, app.url("/healthz")).send().await.unwrap();
    assert_eq!(r.status(), 405);
    let after = request_series(app).await;
    let new: Vec<_> = after.iter().filter(|s| !before.contains(s)).collect();
    assert!(new.len() <= 3, "made-up methods made series: {new:#?}");
    for series in &after {
        let method = series.split("method=\"").nth(1).and_then(|m| m.split('"').next()).unwrap();
        let known = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "other"];
        assert!(known.contains(&method), "a method outside the closed set: {series}");
    }
    let refused = "lajan_http_requests_total{method=\"other\",route=\"/v1/clients\",status=\"405\"} 300";
    assert!(after.iter().any(|s| s == refused), "{after:#?}");
});

api_test!(a_silent_new_connection_is_closed_after_the_header_timeout, quick_timeouts(), |app| {
    let mut stream = connect(app).await;
    let started = Instant::now();
    let (_, closed) = read_until_closed(&mut stream, Duration::from_secs(10)).await;
    assert!(closed, "a connection that never sent a byte was still open after 10 s");
    assert!(started.elapsed() >= Duration::from_millis(900), "closed before its time: {:?}", started.elapsed());
});

api_test!(a_request_whose_headers_dribble_in_is_cut_off, quick_timeouts(), |app| {
    let mut stream = connect(app).await;
    let started = Instant::now();
    stream.write_all(b"GET /healthz HTTP/1.1\r\nHost: lajan\r\n").await.unwrap();
    // One header every 200 ms, for ten seconds: the request never ends.
    let mut cut = false;
    for i in 0..50 {
        tokio::time::sleep(Duration::from_millis(200)).await;
        if stream.write_all(format!("X-Slow-{i}: 1\r\n").as_bytes()).await.is_err() {
            cut = true;
            break;
        }
        let mut buf = [0u8; 64];
        if let Ok(Ok(0) | Err(_)) = tokio::time::timeout(Duration::from_millis(1), stream.read(&mut buf)).await {
            cut = true;
            break;
        }
    }
    assert!(cut, "a request sending a header every 200 ms was still open after 10 s");
    assert!(started.elapsed() < Duration::from_secs(5), "cut only after {:?}", started.elapsed());
});

api_test!(an_answered_connection_waits_for_the_idle_timeout_then_closes, quick_timeouts(), |app| {
    let request = "GET /healthz HTTP/1.1\r\nHost: lajan\r\n\r\n";
    let mut stream = connect(app).await;
    assert!(exchange(&mut stream, request).await.starts_with("HTTP/1.1 200"));
    // Past the header timeout, within the idle one: a kept-alive connection is still served.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert!(exchange(&mut stream, request).await.starts_with("HTTP/1.1 200"));
    let answered = Instant::now();
    let (_, closed) = read_until_closed(&mut stream, Duration::from_secs(10)).await;
    assert!(closed, "an idle connection was still open 10 s after its last answer");
    assert!(answered.elapsed() >= Duration::from_millis(2500), "closed before the idle timeout");
});

api_test!(a_body_that_never_arrives_is_answered_408, quick_timeouts(), |app| {
    let mut stream = connect(app).await;
    let head = format!(
        "POST /v1/clients HTTP/1.1\r\nHost: lajan\r\nAuthorization: Bearer {}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{{\"firstName\":",
        app.key
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    let (answer, _) = read_until_closed(&mut stream, Duration::from_secs(10)).await;
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("\"code\":\"request_timeout\""), "{answer}");
    let clients: serde_json::Value = app.get("/v1/clients").await.json().await.unwrap();
    assert_eq!(clients["data"].as_array().unwrap().len(), 0, "a half-sent create stored something");

    // A body announced larger than any route takes is refused before it is waited for.
    let mut stream = connect(app).await;
    let started = Instant::now();
    let head = "POST /v1/clients HTTP/1.1\r\nHost: lajan\r\nContent-Type: application/json\r\nContent-Length: 1073741824\r\n\r\n";
    stream.write_all(head.as_bytes()).await.unwrap();
    let (answer, _) = read_until_closed(&mut stream, Duration::from_secs(10)).await;
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert!(started.elapsed() < Duration::from_millis(900), "413 only after {:?}", started.elapsed());
});

api_test!(a_request_is_served_while_two_thousand_idle_connections_are_held, |app| {
    let mut idle = Vec::with_capacity(2000);
    for _ in 0..2000 {
        idle.push(connect(app).await);
    }
    let started = Instant::now();
    let r = tokio::time::timeout(Duration::from_secs(10), app.get("/v1/clients")).await.expect("an answer in 10 s");
    assert_eq!(r.status(), 200);
    assert!(started.elapsed() < Duration::from_secs(5), "answered after {:?}", started.elapsed());
    // Every idle connection was accepted, not left in the listen queue: each is still open.
    let mut probe = idle.pop().unwrap();
    assert!(exchange(&mut probe, "GET /healthz HTTP/1.1\r\nHost: lajan\r\n\r\n").await.starts_with("HTTP/1.1 200"));
    drop(idle);
});

api_test!(connections_past_the_cap_wait_for_one_to_close, few_connections(), |app| {
    let mut silent = Vec::new();
    for _ in 0..3 {
        silent.push(connect(app).await);
    }
    tokio::time::sleep(Duration::from_millis(100)).await;
    // A fourth waits in the listen queue until the header timeout closes the silent ones.
    let started = Instant::now();
    let r = tokio::time::timeout(Duration::from_secs(10), app.get("/healthz")).await.expect("an answer in 10 s");
    assert_eq!(r.status(), 200);
    assert!(started.elapsed() >= Duration::from_millis(500), "served past the cap after {:?}", started.elapsed());
    drop(silent);
});

api_test!(a_page_or_callback_body_that_never_arrives_is_answered_408, quick_timeouts(), |app| {
    for (path, expect) in [
        ("/r/AAAAAAAAAAAAAAAAAAAAAA/confirm?lang=fr", "La page a mis trop de temps"),
        ("/wallet-registration/AAAAAAAAAAAAAAAAAAAAAA/confirm", "Paj la pran twòp tan"),
        ("/callbacks/sms", "\"code\":\"request_timeout\""),
    ] {
        let mut stream = connect(app).await;
        let head = format!(
            "POST {path} HTTP/1.1\r\nHost: lajan\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\ncode=12"
        );
        stream.write_all(head.as_bytes()).await.unwrap();
        let (answer, _) = read_until_closed(&mut stream, Duration::from_secs(10)).await;
        assert!(answer.starts_with("HTTP/1.1 408"), "{path}: {answer}");
        assert!(answer.contains(expect), "{path}: {answer}");
    }
});

fn three_connections_an_address() -> TestConfig {
    let mut config = quick_timeouts();
    config.api.connections.per_address = 3;
    config.api.connections.header_timeout = Duration::from_secs(5);
    config
}

api_test!(one_address_holds_a_bounded_number_of_connections, three_connections_an_address(), |app| {
    let mut held = Vec::new();
    for _ in 0..3 {
        held.push(connect(app).await);
    }
    tokio::time::sleep(Duration::from_millis(100)).await;
    // A fourth from the same address is answered at once and closed, not queued.
    let mut fourth = connect(app).await;
    let started = Instant::now();
    let (answer, closed) = read_until_closed(&mut fourth, Duration::from_secs(3)).await;
    assert!(closed && started.elapsed() < Duration::from_secs(2), "closed after {:?}", started.elapsed());
    assert!(answer.is_empty() || answer.starts_with("HTTP/1.1 429"), "{answer}");
    // The address's own connections still work; once one closes, a new one is served.
    assert!(exchange(&mut held[0], "GET /healthz HTTP/1.1\r\nHost: lajan\r\n\r\n").await.starts_with("HTTP/1.1 200"));
    drop(held.pop());
    tokio::time::sleep(Duration::from_millis(100)).await;
    let mut again = connect(app).await;
    assert!(exchange(&mut again, "GET /healthz HTTP/1.1\r\nHost: lajan\r\n\r\n").await.starts_with("HTTP/1.1 200"));
});

fn two_requests_an_address_behind_a_proxy() -> TestConfig {
    let mut config = lajan_testkit::test_config();
    config.api.connections.per_address = 2;
    config.api.trusted_proxies = lajan_api::client_address::parse_trusted_proxies("127.0.0.1").unwrap();
    config
}

api_test!(behind_a_proxy_each_forwarded_address_has_its_own_cap, two_requests_an_address_behind_a_proxy(), |app| {
    // The proxy's own connections are not capped: it carries everyone.
    let mut proxy = Vec::new();
    for _ in 0..5 {
        proxy.push(connect(app).await);
    }
    // One client behind it holds two requests open (bodies that dribble).
    for stream in proxy.iter_mut().take(2) {
        let head = format!(
            "POST /v1/clients HTTP/1.1\r\nHost: lajan\r\nX-Forwarded-For: 198.51.100.7\r\nAuthorization: Bearer {}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{{",
            app.key
        );
        stream.write_all(head.as_bytes()).await.unwrap();
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    let health = |client: &str| format!("GET /healthz HTTP/1.1\r\nHost: lajan\r\nX-Forwarded-For: {client}\r\n\r\n");
    let third = exchange(&mut proxy[2], &health("198.51.100.7")).await;
    assert!(third.starts_with("HTTP/1.1 429"), "{third}");
    assert!(third.to_ascii_lowercase().contains("retry-after: 1") && third.contains("rate_limited"), "{third}");
    let other = exchange(&mut proxy[3], &health("198.51.100.8")).await;
    assert!(other.starts_with("HTTP/1.1 200"), "another client behind the proxy: {other}");
});

/// The server's first HTTP/2 frame after the client's preface and empty SETTINGS: its SETTINGS,
/// as (identifier, value) pairs; `None` when it does not speak HTTP/2.
async fn server_settings(app: &TestApp) -> Option<Vec<(u16, u32)>> {
    let mut stream = connect(app).await;
    stream.write_all(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n\x00\x00\x00\x04\x00\x00\x00\x00\x00").await.unwrap();
    let mut head = [0u8; 9];
    tokio::time::timeout(Duration::from_secs(5), stream.read_exact(&mut head)).await.ok()?.ok()?;
    if head[3] != 4 {
        return None;
    }
    let length = usize::from(head[0]) << 16 | usize::from(head[1]) << 8 | usize::from(head[2]);
    let mut payload = vec![0u8; length];
    stream.read_exact(&mut payload).await.ok()?;
    Some(
        payload
            .chunks(6)
            .map(|e| (u16::from_be_bytes([e[0], e[1]]), u32::from_be_bytes([e[2], e[3], e[4], e[5]])))
            .collect(),
    )
}

fn http2_with_five_streams() -> TestConfig {
    let mut config = lajan_testkit::test_config();
    config.api.connections.http2 = true;
    config.api.connections.http2_max_streams = 5;
    config
}

api_test!(http2_is_served_only_when_asked_for, |app| {
    assert_eq!(server_settings(app).await, None, "HTTP/1.1 only by default");
});

api_test!(http2_when_asked_for_caps_the_streams_of_a_connection, http2_with_five_streams(), |app| {
    let settings = server_settings(app).await.expect("HTTP/2 is served");
    assert!(settings.contains(&(3, 5)), "SETTINGS_MAX_CONCURRENT_STREAMS is 5: {settings:?}");
});
