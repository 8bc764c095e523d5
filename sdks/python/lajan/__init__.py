"""Lajan's Python library: invoices and Stellar payouts through the Lajan API.

from lajan import Lajan
from lajan.models import CreateClient

lajan = Lajan("http://127.0.0.1:8080", "sk_test_...")
client = lajan.clients.create_client(body=CreateClient(first_name="Marie", last_name="Jean"))
"""

from ._client import Lajan
from .errors import LajanError
from .webhooks import verify_webhook

__all__ = ["Lajan", "LajanError", "verify_webhook"]
