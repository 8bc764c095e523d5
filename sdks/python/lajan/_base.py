"""The transport under both clients: one call's request, its retries and what its answer becomes.

A call is built once (its Idempotency-Key included) and sent up to `max_retries + 1` times: again
after a network error, a timeout, a 429, a 5xx or a 409 `idempotency_in_progress`, waiting as
`Retry-After` says or else 0.5 s, 1 s, 2 s... (at most 8 s) less up to a quarter at random, so
many clients refused at once do not come back at once. The key is what makes the retry safe: the
server runs a POST once per key and replays its first answer.
"""

from __future__ import annotations

import asyncio
import email.utils
import platform
import random
import time
import urllib.parse
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, TypedDict, TypeVar, cast, overload

import httpx

from . import _json
from ._models import decode
from ._pagination import AsyncPage, AsyncPaginator, SyncPage
from ._version import __version__
from .errors import ApiConnectionError, ApiError, ApiTimeoutError, LajanError, RateLimitError, error_class
from .models import FieldDetail, PaginationView

T = TypeVar("T")

DEFAULT_BASE_URL = "http://127.0.0.1:8080"
DEFAULT_TIMEOUT = 30.0
DEFAULT_MAX_RETRIES = 2
FIRST_DELAY = 0.5
LONGEST_DELAY = 8.0
# A Retry-After beyond this is not waited for: the error is raised for the caller to decide.
LONGEST_RETRY_AFTER = 60.0
USER_AGENT = f"lajan-python/{__version__} (python {platform.python_version()}; httpx {httpx.__version__})"


class RequestOptions(TypedDict, total=False):
    """What one call may set for itself, as keywords of any method."""

    idempotency_key: str
    """The key that makes a POST safe to repeat; a new one per call when left out (retries reuse it)."""
    timeout: float
    """Seconds to wait for each try's answer, instead of the client's."""
    max_retries: int
    """Tries after the first, instead of the client's."""


@dataclass(frozen=True)
class Call:
    """One API call, the same on every try."""

    method: str
    path: str
    query: dict[str, str]
    content: bytes | None
    headers: dict[str, str]
    timeout: float
    max_retries: int


def _plain(value: Any) -> Any:
    """`value` with dates and times as the API writes them."""
    if isinstance(value, datetime):
        return value.isoformat().replace("+00:00", "Z")
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in cast(Mapping[str, Any], value).items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in cast(Sequence[Any], value)]
    return value


def _query_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(_plain(value))


class BaseClient:
    def __init__(self, api_key: str, base_url: str, timeout: float, max_retries: int):
        if not api_key:
            raise LajanError("no API key: pass api_key= or set LAJAN_API_KEY")
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout
        self.max_retries = max_retries
        self._headers = {
            "Authorization": f"Bearer {api_key}",
            "Accept": "application/json",
            "User-Agent": USER_AGENT,
        }

    def _call(
        self,
        method: str,
        path: str,
        *,
        query: Mapping[str, Any] | None,
        body: Any,
        csv: str | bytes | None,
        options: RequestOptions,
    ) -> Call:
        headers: dict[str, str] = {}
        content = None
        if csv is not None:
            content = csv.encode() if isinstance(csv, str) else csv
            headers["Content-Type"] = "text/csv"
        elif body is not None:
            content = _json.dumps(_plain(body)).encode()
            headers["Content-Type"] = "application/json"
        if method == "POST":
            headers["Idempotency-Key"] = options.get("idempotency_key") or str(uuid.uuid4())
        return Call(
            method=method,
            path=path,
            query={k: _query_text(v) for k, v in (query or {}).items() if v is not None},
            content=content,
            headers=headers,
            timeout=options.get("timeout", self.timeout),
            max_retries=options.get("max_retries", self.max_retries),
        )

    def _delay(self, call: Call, tries: int, response: httpx.Response | None) -> float | None:
        """How long to wait before trying `call` again after its `tries`-th try answered `response`
        (None: no answer at all), or None when it is not tried again."""
        if tries > call.max_retries:
            return None
        if response is not None:
            if not _retryable(response):
                return None
            after = retry_after(response)
            if after is not None:
                return after if after <= LONGEST_RETRY_AFTER else None
        return min(FIRST_DELAY * 2.0 ** (tries - 1), LONGEST_DELAY) * (1 - random.random() / 4)

    def _build(self, http: httpx.Client | httpx.AsyncClient, call: Call) -> httpx.Request:
        return http.build_request(
            call.method,
            self.base_url + call.path,
            params=call.query,
            content=call.content,
            headers={**self._headers, **call.headers},
            timeout=call.timeout,
        )

    def _result(self, response: httpx.Response, cast: type[T] | None) -> T | None:
        if not response.is_success:
            raise _error(response)
        if cast is None or not response.content:
            return None
        try:
            answer = _json.loads(response.content)
        except ValueError:
            text = response.content[:200].decode(errors="replace")
            raise ApiError(
                response.status_code, "unexpected_response", f"the answer is not JSON: {text}", [], None
            ) from None
        result: T = decode(cast, answer)
        return result


def _retryable(response: httpx.Response) -> bool:
    if response.status_code == 429 or response.status_code >= 500:
        return True
    if response.status_code == 409:
        try:
            return bool(_json.loads(response.content).get("code") == "idempotency_in_progress")
        except (ValueError, AttributeError):
            return False
    return False


def retry_after(response: httpx.Response) -> float | None:
    """`Retry-After` in seconds, from its number of seconds or its date."""
    value = response.headers.get("Retry-After")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def _error(response: httpx.Response) -> ApiError:
    try:
        body = _json.loads(response.content)
    except ValueError:
        body = None
    fields = cast(dict[str, Any], body) if isinstance(body, dict) else {}
    details = cast(list[Any], fields.get("details")) if isinstance(fields.get("details"), list) else []
    error = error_class(response.status_code)(
        status_code=response.status_code,
        code=str(fields.get("code", "unexpected_response")),
        message=str(fields.get("message") or response.reason_phrase),
        details=[decode(FieldDetail, d) for d in details if isinstance(d, dict)],
        request_id=response.headers.get("X-Request-Id") or fields.get("requestId"),
        body=body,
    )
    if isinstance(error, RateLimitError):
        error.retry_after = retry_after(response)
    return error


def connection_error(error: httpx.TransportError) -> ApiConnectionError:
    if isinstance(error, httpx.TimeoutException):
        return ApiTimeoutError(f"no answer in time: {error}")
    return ApiConnectionError(f"could not reach the API: {error}")


def path(segment: str) -> str:
    """An id as one path segment, whatever it holds."""
    return urllib.parse.quote(segment, safe="")


class SyncClient(BaseClient):
    def __init__(self, api_key: str, base_url: str, timeout: float, max_retries: int, http_client: httpx.Client | None):
        super().__init__(api_key, base_url, timeout, max_retries)
        self._http = http_client or httpx.Client()

    @overload
    def request(
        self,
        cast: type[T],
        method: str,
        path: str,
        *,
        query: Mapping[str, Any] | None = None,
        body: Any = None,
        csv: str | bytes | None = None,
        options: RequestOptions,
    ) -> T: ...
    @overload
    def request(
        self,
        cast: None,
        method: str,
        path: str,
        *,
        query: Mapping[str, Any] | None = None,
        body: Any = None,
        csv: str | bytes | None = None,
        options: RequestOptions,
    ) -> None: ...
    def request(
        self,
        cast: type[T] | None,
        method: str,
        path: str,
        *,
        query: Mapping[str, Any] | None = None,
        body: Any = None,
        csv: str | bytes | None = None,
        options: RequestOptions,
    ) -> T | None:
        call = self._call(method, path, query=query, body=body, csv=csv, options=options)
        tries = 0
        while True:
            tries += 1
            try:
                response = self._http.send(self._build(self._http, call))
            except httpx.TransportError as error:
                delay = self._delay(call, tries, None)
                if delay is None:
                    raise connection_error(error) from error
            else:
                delay = self._delay(call, tries, response)
                if delay is None:
                    return self._result(response, cast)
            time.sleep(delay)

    def page(self, item: type[T], path: str, query: Mapping[str, Any] | None, options: RequestOptions) -> SyncPage[T]:
        """The first page of a list of `item`s; the page fetches those after it."""

        def fetch(query: dict[str, Any]) -> SyncPage[T]:
            answer = self.request(dict[str, Any], "GET", path, query=query, options=options)
            data = [decode(item, value) for value in answer["data"]]
            return SyncPage(fetch, query, data, decode(PaginationView, answer["pagination"]))

        return fetch(dict(query or {}))

    def close(self) -> None:
        self._http.close()


class AsyncClient(BaseClient):
    def __init__(
        self, api_key: str, base_url: str, timeout: float, max_retries: int, http_client: httpx.AsyncClient | None
    ):
        super().__init__(api_key, base_url, timeout, max_retries)
        self._http = http_client or httpx.AsyncClient()

    @overload
    async def request(
        self,
        cast: type[T],
        method: str,
        path: str,
        *,
        query: Mapping[str, Any] | None = None,
        body: Any = None,
        csv: str | bytes | None = None,
        options: RequestOptions,
    ) -> T: ...
    @overload
    async def request(
        self,
        cast: None,
        method: str,
        path: str,
        *,
        query: Mapping[str, Any] | None = None,
        body: Any = None,
        csv: str | bytes | None = None,
        options: RequestOptions,
    ) -> None: ...
    async def request(
        self,
        cast: type[T] | None,
        method: str,
        path: str,
        *,
        query: Mapping[str, Any] | None = None,
        body: Any = None,
        csv: str | bytes | None = None,
        options: RequestOptions,
    ) -> T | None:
        call = self._call(method, path, query=query, body=body, csv=csv, options=options)
        tries = 0
        while True:
            tries += 1
            try:
                response = await self._http.send(self._build(self._http, call))
            except httpx.TransportError as error:
                delay = self._delay(call, tries, None)
                if delay is None:
                    raise connection_error(error) from error
            else:
                delay = self._delay(call, tries, response)
                if delay is None:
                    return self._result(response, cast)
            await asyncio.sleep(delay)

    def page(
        self, item: type[T], path: str, query: Mapping[str, Any] | None, options: RequestOptions
    ) -> AsyncPaginator[T]:
        """A list of `item`s, fetched when awaited or iterated."""

        async def fetch(query: dict[str, Any]) -> AsyncPage[T]:
            answer = await self.request(dict[str, Any], "GET", path, query=query, options=options)
            data = [decode(item, value) for value in answer["data"]]
            return AsyncPage(fetch, query, data, decode(PaginationView, answer["pagination"]))

        return AsyncPaginator(fetch, dict(query or {}))

    async def close(self) -> None:
        await self._http.aclose()


class SyncResource:
    def __init__(self, client: SyncClient):
        self._client = client


class AsyncResource:
    def __init__(self, client: AsyncClient):
        self._client = client
