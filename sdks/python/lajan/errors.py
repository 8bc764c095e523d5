"""The one exception every failed call raises."""

from typing import Any

import httpx

from . import _json


class LajanError(Exception):
    """An answer other than 2xx, in the API's error shape.

    `status_code` (int), `code` (stable and machine-readable, e.g. "validation_error"),
    `message` (for a person), `details` (the fields at fault: a list of dicts with `field`,
    `message`, and in a batch `row` and `code`), `request_id` (X-Request-Id, for support).
    """

    def __init__(
        self, status_code: int, code: str, message: str, details: list[dict[str, Any]], request_id: str | None
    ):
        super().__init__(f"{status_code} {code}: {message}")
        self.status_code = status_code
        self.code = code
        self.message = message
        self.details = details
        self.request_id = request_id

    @classmethod
    def from_response(cls, response: httpx.Response) -> "LajanError":
        try:
            body = _json.loads(response.content)
        except ValueError:
            body = {}
        if not isinstance(body, dict):
            body = {}
        return cls(
            status_code=response.status_code,
            code=str(body.get("code", "unexpected_response")),
            message=str(body.get("message", response.text[:200] or response.reason_phrase)),
            details=list(body.get("details", [])),
            request_id=response.headers.get("X-Request-Id"),
        )
