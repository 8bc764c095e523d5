"""The story an integrator runs, through the library against a real server: clients, an invoice
paid in the sandbox, a payout sent, a disbursement approved, errors by kind, every page of a list,
idempotent replays, and a webhook verified into a typed event."""

import http.server
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from datetime import date, datetime
from decimal import Decimal
from typing import Any, TypeVar

import pytest
from standardwebhooks.webhooks import WebhookVerificationError

from lajan import Lajan, NotFoundError, ValidationError
from lajan.models import InvoicePaidEvent, PayoutView, UnknownEvent, WebhookEndpointTestEvent, WebhookEndpointView

WALLET = "GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H"
T = TypeVar("T")


@pytest.fixture
def lajan(server: tuple[str, str]) -> Iterator[Lajan]:
    base_url, key = server
    with Lajan(api_key=key, base_url=base_url) as client:
        yield client


def eventually(read: Callable[[], T], done: Callable[[T], bool], what: str, seconds: float = 30) -> T:
    deadline = time.monotonic() + seconds
    while True:
        value = read()
        if done(value):
            return value
        assert time.monotonic() < deadline, f"{what}: still {value}"
        time.sleep(0.1)


def test_an_invoice_is_created_sent_and_paid_in_the_sandbox(lajan: Lajan) -> None:
    client = lajan.clients.create(
        {"firstName": "Marie", "lastName": "Jean", "email": "marie@example.ht", "phoneNumber": "+50937000000"}
    )
    invoice = lajan.invoices.create(
        {
            "clientId": client.id,
            "currency": "HTG",
            "dueDate": date(2030, 3, 31),
            "lineItems": [{"description": "Loan repayment", "quantity": 1, "unitPrice": Decimal("2500.10")}],
        }
    )
    assert invoice.total == Decimal("2500.10") and isinstance(invoice.total, Decimal)
    assert invoice.due_date == date(2030, 3, 31) and isinstance(invoice.created_at, datetime)
    sent = lajan.invoices.send(invoice.id, {"channels": ["email"]})
    assert sent.status == "sent"
    lajan.sandbox.simulate_payment(invoice.payment_link.url.rsplit("/", 1)[-1])
    paid = eventually(lambda: lajan.invoices.retrieve(invoice.id), lambda i: i.status == "paid", "the invoice")
    assert paid.amount_paid == Decimal("2500.10")
    assert [i.id for i in lajan.invoices.list({"clientId": client.id})] == [invoice.id]


def test_a_payout_is_approved_and_sent(lajan: Lajan) -> None:
    payout = lajan.payouts.create(
        {"walletAccountId": WALLET, "assetAmount": Decimal("125.50"), "assetCode": "USDC", "memo": "Loan 2231"}
    )
    assert payout.asset_amount == Decimal("125.50")
    lajan.payouts.approve(payout.id)
    sent = eventually(lambda: lajan.payouts.retrieve(payout.id), lambda p: p.exec_status == "sent", "the payout")
    assert isinstance(sent, PayoutView) and sent.attempts and sent.attempts[0].tx_hash


def test_a_small_disbursement_is_submitted_and_approved(lajan: Lajan) -> None:
    batch = lajan.disbursements.create(
        {
            "name": "March stipends",
            "assetCode": "USDC",
            "items": [
                {"walletAccountId": WALLET, "assetAmount": Decimal("10.01"), "externalId": "row-1"},
                {"walletAccountId": WALLET, "assetAmount": Decimal("20.02"), "externalId": "row-2"},
            ],
        }
    )
    assert batch.total_amount == Decimal("30.03")
    lajan.disbursements.submit(batch.id)
    lajan.disbursements.approve(batch.id)
    done = eventually(lambda: lajan.disbursements.retrieve(batch.id), lambda d: d.status == "completed", "the batch")
    assert done.amount_sent == Decimal("30.03")
    assert [i.external_id for i in lajan.disbursements.list_items(batch.id)] == ["row-1", "row-2"]
    csv = f"walletAccountId,assetAmount\n{WALLET},5.00\n"
    from_csv = lajan.disbursements.create_from_csv(csv, {"name": "April", "assetCode": "USDC"})
    assert from_csv.status == "draft" and from_csv.total_amount == Decimal("5.00")


def test_a_refusal_is_an_error_of_its_kind_with_its_code_and_fields(lajan: Lajan) -> None:
    with pytest.raises(ValidationError) as refused:
        lajan.clients.create({"firstName": "Marie", "lastName": "Jean", "email": "marie@"})
    error = refused.value
    assert (error.status_code, error.code) == (400, "validation_error")
    assert error.details[0].field == "email" and error.details[0].message
    assert error.message and error.request_id
    with pytest.raises(NotFoundError) as missing:
        lajan.clients.retrieve("cli_" + "0" * 32)
    assert (missing.value.status_code, missing.value.code) == (404, "not_found")
    with pytest.raises(TypeError, match="float"):
        lajan.payouts.create(
            {"walletAccountId": WALLET, "assetAmount": 0.1, "assetCode": "USDC"}  # type: ignore[typeddict-item]
        )


def test_every_item_of_every_page_once(lajan: Lajan) -> None:
    family = uuid.uuid4().hex[:8]
    made = [lajan.clients.create({"firstName": "Paul", "lastName": family}).id for _ in range(5)]
    page = lajan.clients.list({"search": family, "limit": 2})
    assert len(page.data) == 2 and page.has_more
    assert [c.id for c in page] == made[::-1], "newest first, each once, across three pages"
    assert [len(p.data) for p in page.iter_pages()] == [2, 2, 1]
    older = lajan.clients.list({"search": family, "limit": 2, "startingAfter": made[3]})
    assert [c.id for c in older] == [made[2], made[1], made[0]]
    newer = lajan.clients.list({"search": family, "limit": 2, "endingBefore": made[1]})
    assert sorted(c.id for c in newer) == sorted(made[2:])


def test_a_replayed_post_answers_the_first_result(lajan: Lajan) -> None:
    key = str(uuid.uuid4())
    first = lajan.clients.create({"firstName": "Rose", "lastName": "Pierre"}, idempotency_key=key)
    again = lajan.clients.create({"firstName": "Rose", "lastName": "Pierre"}, idempotency_key=key)
    assert again.id == first.id
    other = lajan.clients.create({"firstName": "Rose", "lastName": "Pierre"})
    assert other.id != first.id, "without a key of the caller's, each call is a new create"


def receive_webhooks() -> tuple[http.server.HTTPServer, list[tuple[bytes, dict[str, str]]]]:
    received: list[tuple[bytes, dict[str, str]]] = []

    class Receiver(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers["Content-Length"]))
            received.append((body, {k.lower(): v for k, v in self.headers.items()}))
            self.send_response(204)
            self.end_headers()

        def log_message(self, format: str, *args: Any) -> None:
            pass

    receiver = http.server.HTTPServer(("127.0.0.1", 0), Receiver)
    threading.Thread(target=receiver.serve_forever, daemon=True).start()
    return receiver, received


def test_a_delivery_verifies_into_a_typed_event_and_a_tampered_one_does_not(lajan: Lajan) -> None:
    receiver, received = receive_webhooks()
    try:
        url = f"http://127.0.0.1:{receiver.server_address[1]}/hooks"
        endpoint = lajan.webhook_endpoints.create({"url": url, "events": ["webhook_endpoint.test"]})
        lajan.webhook_endpoints.send_test_event(endpoint.id)
        eventually(lambda: len(received), lambda n: n > 0, "the delivery")
    finally:
        receiver.shutdown()
    body, headers = received[0]
    event = lajan.webhooks.verify(body, headers, endpoint.secret)
    assert isinstance(event, WebhookEndpointTestEvent)
    assert event.type == "webhook_endpoint.test" and isinstance(event.data.object, WebhookEndpointView)
    assert event.data.object.id == endpoint.id
    with pytest.raises(WebhookVerificationError):
        lajan.webhooks.verify(
            body.replace(b"webhook_endpoint.test", b"webhook_endpoint.tesT"), headers, endpoint.secret
        )
    assert not isinstance(event, InvoicePaidEvent | UnknownEvent)


def test_events_are_typed_by_their_type_and_unknown_ones_are_kept(lajan: Lajan) -> None:
    client = lajan.clients.create({"firstName": "Eva", "lastName": "Noel"})
    event = next(iter(lajan.events.list({"type": "client.created", "limit": 1})))
    assert type(event).__name__ == "ClientCreatedEvent" and event.data.object.id == client.id
    from lajan._models import decode
    from lajan.models import Event

    newer = decode(Event, {**_as_json(event), "type": "client.teleported", "data": {"object": {"id": "x"}}})
    assert isinstance(newer, UnknownEvent) and newer.data == {"object": {"id": "x"}}


def _as_json(event: Any) -> dict[str, Any]:
    return {
        "id": event.id,
        "type": event.type,
        "createdAt": event.created_at.isoformat(),
        "livemode": event.livemode,
        "actor": {"type": event.actor.type, "id": event.actor.id},
    }


def test_numbers_in_answers_are_decimals(lajan: Lajan) -> None:
    client = lajan.clients.create({"firstName": "Anne", "lastName": "Louis"})
    invoice = lajan.invoices.create(
        {
            "clientId": client.id,
            "dueDate": "2030-01-31",
            "lineItems": [
                {"description": "Fee", "quantity": Decimal("0.1"), "unitPrice": Decimal("0.30"), "taxRate": 10}
            ],
        }
    )
    line = invoice.line_items[0]
    assert line.quantity == Decimal("0.1") and isinstance(line.quantity, Decimal)
    assert line.tax_rate == Decimal("10")
    assert invoice.subtotal == Decimal("0.03") and invoice.tax == Decimal("0.00")


def test_the_async_client_tells_the_same_story(server: tuple[str, str]) -> None:
    import asyncio

    from lajan import AsyncLajan

    family = uuid.uuid4().hex[:8]

    async def story() -> None:
        async with AsyncLajan(api_key=server[1], base_url=server[0]) as lajan:
            made = [(await lajan.clients.create({"firstName": "Jo", "lastName": family})).id for _ in range(3)]
            assert (await lajan.clients.retrieve(made[0])).last_name == family
            first = await lajan.clients.list({"search": family, "limit": 2})
            assert [c.id for c in first.data] == made[:0:-1] and first.has_more
            assert [c.id async for c in lajan.clients.list({"search": family, "limit": 2})] == made[::-1]
            with pytest.raises(NotFoundError):
                await lajan.clients.retrieve("cli_" + "0" * 32)

    asyncio.run(story())
