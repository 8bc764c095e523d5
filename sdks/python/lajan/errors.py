"""The one exception every failed call raises."""

from http import HTTPStatus
from typing import Any

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
    def from_response(cls, response: Any) -> "LajanError":
        """From an answer with `status_code`, `headers` and `content`: httpx's, or the one the
        generated functions return."""
        try:
            body = _json.loads(response.content)
        except ValueError:
            body = {}
        if not isinstance(body, dict):
            body = {}
        status_code = int(response.status_code)
        fallback = response.content[:200].decode(errors="replace") or HTTPStatus(status_code).phrase
        return cls(
            status_code=status_code,
            code=str(body.get("code", "unexpected_response")),
            message=str(body.get("message", fallback)),
            details=list(body.get("details", [])),
            request_id=response.headers.get("X-Request-Id"),
        )
