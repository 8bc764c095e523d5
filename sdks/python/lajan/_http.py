"""The httpx client under the generated functions: exact JSON both ways (see _json)."""

from typing import Any

import httpx

from . import _json


class _ExactResponse(httpx.Response):
    def json(self, **kwargs: Any) -> Any:
        return _json.loads(self.content)


class ExactJsonClient(httpx.Client):
    def build_request(self, method: str, url: Any, *, json: Any = None, **kwargs: Any) -> httpx.Request:
        if json is not None:
            headers = httpx.Headers(kwargs.pop("headers", None))
            headers["Content-Type"] = "application/json"
            kwargs["headers"] = headers
            kwargs["content"] = _json.dumps(json).encode()
        return super().build_request(method, url, **kwargs)

    def send(self, request: httpx.Request, **kwargs: Any) -> httpx.Response:
        response = super().send(request, **kwargs)
        # Same object, with json() reading numbers as Decimals.
        response.__class__ = _ExactResponse
        return response
