"""Lajan's Python library: invoices and Stellar payouts through the Lajan API, typed, sync and async.

from lajan import Lajan

lajan = Lajan(api_key="sk_test_...", base_url="http://127.0.0.1:8080")
client = lajan.clients.create({"firstName": "Marie", "lastName": "Jean"})
for invoice in lajan.invoices.list({"status": "overdue"}):
    print(invoice.invoice_number, invoice.total)
"""

from ._base import RequestOptions
from ._client import AsyncLajan, Lajan
from ._pagination import AsyncPage, AsyncPaginator, SyncPage
from ._version import __version__
from .errors import (
    ApiConnectionError,
    ApiError,
    ApiTimeoutError,
    AuthenticationError,
    ConflictError,
    LajanError,
    NotFoundError,
    PermissionError,
    RateLimitError,
    ValidationError,
)

__all__ = [
    "ApiConnectionError",
    "ApiError",
    "ApiTimeoutError",
    "AsyncLajan",
    "AsyncPage",
    "AsyncPaginator",
    "AuthenticationError",
    "ConflictError",
    "Lajan",
    "LajanError",
    "NotFoundError",
    "PermissionError",
    "RateLimitError",
    "RequestOptions",
    "SyncPage",
    "ValidationError",
    "__version__",
]
