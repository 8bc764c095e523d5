"""Verifying Lajan's webhooks, with the official Standard Webhooks library."""

from typing import Any

from . import _json


def verify_webhook(secret: str, payload: str | bytes, headers: dict[str, str]) -> Any:
    """The event of a delivery whose signature `secret` (whsec_...) verifies, else raises
    `standardwebhooks.WebhookVerificationError` (a bad signature, or a timestamp over five
    minutes off). Pass the body exactly as received, and the request's headers.

    Needs the `webhooks` extra: `pip install "lajan[webhooks]"`.
    """
    from standardwebhooks.webhooks import Webhook

    body = payload.decode() if isinstance(payload, bytes) else payload
    Webhook(secret).verify(body, headers)
    return _json.loads(body)
