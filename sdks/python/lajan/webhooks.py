"""Verifying Lajan's webhooks with the official Standard Webhooks library, and reading the event."""

from __future__ import annotations

from collections.abc import Mapping

from standardwebhooks.webhooks import Webhook

from . import _json
from ._models import decode
from .models import Event


class Webhooks:
    """`lajan.webhooks`: what a webhook receiver needs, no request to the API."""

    def verify(self, payload: str | bytes, headers: Mapping[str, str], secret: str) -> Event:
        """The event a delivery carries, once its signature verifies with the endpoint's `secret`
        (`whsec_...`); raises `standardwebhooks.WebhookVerificationError` for a bad signature or a
        timestamp more than five minutes off. Pass the body exactly as received (bytes or text) and
        the request's headers.

        The event is typed by its `type`: `isinstance(event, InvoicePaidEvent)` makes
        `event.data.object` an `InvoiceView`; a type newer than this library is an `UnknownEvent`.
        """
        body = payload.decode() if isinstance(payload, bytes) else payload
        Webhook(secret).verify(body, dict(headers), json_parse=False)
        event: Event = decode(Event, _json.loads(body))
        return event
