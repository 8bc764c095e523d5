"""What a failed call raises: one class per kind of refusal, all `LajanError`s.

try:
    lajan.invoices.create({...})
except lajan.ValidationError as e:    # 400 and 422: e.details names each field at fault
except lajan.NotFoundError:           # 404
except lajan.ApiError as e:           # any other answer: e.status_code, e.code, e.message
except lajan.ApiConnectionError:      # no answer at all (after the retries)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .models import FieldDetail


class LajanError(Exception):
    """Every error this library raises."""


class ApiConnectionError(LajanError):
    """The API could not be reached, or did not answer in time, on every try."""


class ApiTimeoutError(ApiConnectionError):
    """The API did not answer within the timeout, on every try."""


class ApiError(LajanError):
    """An answer other than 2xx, in the API's error shape.

    `status_code`; `code`, stable and machine-readable (`validation_error`); `message`, for a
    person; `details`, the fields at fault; `request_id`, the `X-Request-Id` to quote when asking
    for help; `body`, the answer as it came.
    """

    def __init__(
        self,
        status_code: int,
        code: str,
        message: str,
        details: list[FieldDetail],
        request_id: str | None,
        body: Any = None,
    ):
        super().__init__(f"{status_code} {code}: {message}")
        self.status_code = status_code
        self.code = code
        self.message = message
        self.details = details
        self.request_id = request_id
        self.body = body


class ValidationError(ApiError):
    """400 or 422: the request was refused as written; nothing changed. `details` names each field."""


class AuthenticationError(ApiError):
    """401: the key is missing, unknown or revoked."""


class PermissionError(ApiError):  # noqa: A001 - the name every Lajan library gives it
    """403: the key lacks the scope, or the environment, this operation needs."""


class NotFoundError(ApiError):
    """404: no such object in this key's organization and environment."""


class ConflictError(ApiError):
    """409: the object's state does not allow this now (an invoice already paid, say)."""


class RateLimitError(ApiError):
    """429: over the rate limit, on every try; `retry_after` says how many seconds to wait."""

    retry_after: float | None = None


_BY_STATUS: dict[int, type[ApiError]] = {
    400: ValidationError,
    401: AuthenticationError,
    403: PermissionError,
    404: NotFoundError,
    409: ConflictError,
    422: ValidationError,
    429: RateLimitError,
}


def error_class(status_code: int) -> type[ApiError]:
    return _BY_STATUS.get(status_code, ApiError)
