"""Retries are safe: through a proxy in front of a real server that loses answers, refuses with
503 or 429, drops connections or stalls, the library tries again with the same Idempotency-Key,
and the server makes one object."""

import asyncio
import http.server
import threading
import time
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from lajan import ApiConnectionError, ApiError, ApiTimeoutError, AsyncLajan, Lajan, RateLimitError, __version__


class Proxy:
    """Answers each request as the next step of `steps` says, then forwards: `lose` forwards and
    answers 503 instead of the server's answer; `503` and `429` answer so without forwarding
    (`429` with Retry-After: 1); `drop` closes the connection unanswered; `stall` waits 2 s
    before forwarding; `garbage` answers 200 with a page that is not JSON."""

    def __init__(self, upstream: str):
        self.upstream = upstream
        self.steps: list[str] = []
        self.seen: list[dict[str, str]] = []
        self.times: list[float] = []
        proxy = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self) -> None:
                proxy.handle(self)

            def do_POST(self) -> None:
                proxy.handle(self)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def handle(self, request: http.server.BaseHTTPRequestHandler) -> None:
        self.seen.append({k.lower(): v for k, v in request.headers.items()})
        self.times.append(time.monotonic())
        body = request.rfile.read(int(request.headers.get("Content-Length") or 0))
        step = self.steps.pop(0) if self.steps else "forward"
        if step == "drop":
            request.close_connection = True
            request.connection.shutdown(2)
            return
        if step == "stall":
            time.sleep(2)
        if step == "garbage":
            self.answer(request, 200, {}, b"<html>a captive portal</html>")
            return
        if step in ("503", "429"):
            self.answer(request, int(step), {"Retry-After": "1"} if step == "429" else {}, b'{"code":"unavailable"}')
            return
        headers = {k: v for k, v in request.headers.items() if k.lower() not in ("host", "content-length")}
        upstream = httpx.request(request.command, self.upstream + request.path, headers=headers, content=body)
        if step == "lose":
            self.answer(request, 503, {}, b'{"code":"service_unavailable","message":"lost"}')
            return
        self.answer(request, upstream.status_code, dict(upstream.headers), upstream.content)

    def answer(
        self, request: http.server.BaseHTTPRequestHandler, status: int, headers: dict[str, str], body: bytes
    ) -> None:
        request.send_response(status)
        for k, v in headers.items():
            if k.lower() not in (
                "content-length",
                "transfer-encoding",
                "content-encoding",
                "connection",
                "date",
                "server",
            ):
                request.send_header(k, v)
        request.send_header("Content-Type", "application/json")
        request.send_header("Content-Length", str(len(body)))
        request.end_headers()
        request.wfile.write(body)


@pytest.fixture
def proxy(server: tuple[str, str]) -> Iterator[Proxy]:
    p = Proxy(server[0])
    yield p
    p.server.shutdown()


def test_a_lost_answer_is_retried_with_the_same_key_and_makes_one_object(proxy: Proxy, server: tuple[str, str]) -> None:
    family = uuid.uuid4().hex[:10]
    proxy.steps = ["lose"]
    with Lajan(api_key=server[1], base_url=proxy.url) as lajan:
        client = lajan.clients.create({"firstName": "Rose", "lastName": family})
        keys = [h["idempotency-key"] for h in proxy.seen]
        assert len(keys) == 2 and keys[0] == keys[1], keys
        assert proxy.seen[0]["user-agent"].startswith(f"lajan-python/{__version__} ")
        assert [c.id for c in lajan.clients.list({"search": family})] == [client.id], "one client, not two"


def test_503_then_200_waits_and_tries_again(proxy: Proxy, server: tuple[str, str]) -> None:
    proxy.steps = ["503", "503"]
    with Lajan(api_key=server[1], base_url=proxy.url) as lajan:
        assert lajan.settings.retrieve().default_currency
    assert len(proxy.seen) == 3
    waits = [b - a for a, b in zip(proxy.times, proxy.times[1:], strict=False)]
    assert 0.3 < waits[0] < 1.0 and 0.7 < waits[1] < 2.0, f"backoff with jitter: {waits}"


def test_retry_after_is_honoured_and_the_last_refusal_raised(proxy: Proxy, server: tuple[str, str]) -> None:
    proxy.steps = ["429", "429"]
    with Lajan(api_key=server[1], base_url=proxy.url, max_retries=1) as lajan:
        with pytest.raises(RateLimitError) as refused:
            lajan.settings.retrieve()
    assert refused.value.retry_after == 1.0 and refused.value.status_code == 429
    assert len(proxy.seen) == 2 and proxy.times[1] - proxy.times[0] >= 0.95


def test_no_retry_when_asked_for_none(proxy: Proxy, server: tuple[str, str]) -> None:
    proxy.steps = ["503"]
    with Lajan(api_key=server[1], base_url=proxy.url) as lajan:
        with pytest.raises(Exception) as refused:
            lajan.settings.retrieve(max_retries=0)
    assert getattr(refused.value, "status_code", None) == 503 and len(proxy.seen) == 1


def test_a_dropped_connection_and_a_stall_are_retried(proxy: Proxy, server: tuple[str, str]) -> None:
    proxy.steps = ["drop", "stall"]
    with Lajan(api_key=server[1], base_url=proxy.url) as lajan:
        assert lajan.settings.retrieve(timeout=5).default_currency
        proxy.steps = ["stall", "stall", "stall"]
        with pytest.raises(ApiTimeoutError):
            lajan.settings.retrieve(timeout=0.5)
    with Lajan(api_key=server[1], base_url="http://127.0.0.1:9", max_retries=1) as nowhere:
        with pytest.raises(ApiConnectionError):
            nowhere.settings.retrieve()


def test_the_async_client_retries_the_same_way(proxy: Proxy, server: tuple[str, str]) -> None:
    family = uuid.uuid4().hex[:10]
    proxy.steps = ["lose"]

    async def story() -> list[str]:
        async with AsyncLajan(api_key=server[1], base_url=proxy.url) as lajan:
            await lajan.clients.create({"firstName": "Rose", "lastName": family})
            return [c.id async for c in lajan.clients.list({"search": family})]

    assert len(asyncio.run(story())) == 1
    keys = [h.get("idempotency-key") for h in proxy.seen[:2]]
    assert keys[0] is not None and keys[0] == keys[1]


def test_an_answer_that_is_not_json_is_an_error_not_a_crash(proxy: Proxy, server: tuple[str, str]) -> None:
    proxy.steps = ["garbage"]
    with Lajan(api_key=server[1], base_url=proxy.url) as lajan:
        with pytest.raises(ApiError) as refused:
            lajan.settings.retrieve()
    assert refused.value.code == "unexpected_response" and "captive portal" in refused.value.message
