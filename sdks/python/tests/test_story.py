"""The story an integrator runs, through the library against a real server: clients, an
invoice paid in the sandbox, a payout sent, a disbursement approved, errors, pages and
idempotent retries."""

import time
import uuid
from datetime import date
from decimal import Decimal

import pytest

from lajan import Lajan, LajanError
from lajan.models import (
    CreateClient,
    CreateDisbursement,
    CreateDisbursementItem,
    CreateInvoice,
    CreatePayout,
    Currency,
    LineItemBody,
    SendChannel,
    SendInvoice,
    SimulatePayment,
)

WALLET = "GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H"


@pytest.fixture
def lajan(server):
    base_url, key = server
    with Lajan(base_url, key) as client:
        yield client


def eventually(read, done, what, seconds=30):
    deadline = time.monotonic() + seconds
    while True:
        value = read()
        if done(value):
            return value
        assert time.monotonic() < deadline, f"{what}: still {value}"
        time.sleep(0.1)


def test_an_invoice_is_created_sent_and_paid_in_the_sandbox(lajan):
    client = lajan.clients.create_client(
        body=CreateClient(first_name="Marie", last_name="Jean", email="marie@example.ht", phone_number="+50937000000")
    )
    line = LineItemBody(description="Loan repayment", quantity=Decimal("1"), unit_price=Decimal("2500.10"))
    invoice = lajan.invoices.create_invoice(
        body=CreateInvoice(client_id=client.id, currency=Currency.HTG, due_date=date(2030, 3, 31), line_items=[line])
    )
    assert invoice.total == "2500.10"
    sent = lajan.invoices.send_invoice(id=invoice.id, body=SendInvoice(channels=[SendChannel.EMAIL]))
    assert sent.status == "sent"
    intent = invoice.payment_link.url.rsplit("/", 1)[-1]
    lajan.sandbox.simulate_sandbox_payment(id=intent, body=SimulatePayment())
    paid = eventually(lambda: lajan.invoices.get_invoice(id=invoice.id), lambda i: i.status == "paid", "the invoice")
    assert paid.amount_paid == "2500.10"


def test_a_payout_is_approved_and_sent(lajan):
    payout = lajan.payouts.create_payout(
        body=CreatePayout(wallet_account_id=WALLET, asset_amount=Decimal("125.50"), asset_code="USDC", memo="Loan 2231")
    )
    assert payout.asset_amount == "125.50"
    lajan.payouts.approve_payout(id=payout.id)
    sent = eventually(lambda: lajan.payouts.get_payout(id=payout.id), lambda p: p.exec_status == "sent", "the payout")
    assert sent.attempts and sent.attempts[0].tx_hash


def test_a_small_disbursement_is_submitted_and_approved(lajan):
    items = [
        CreateDisbursementItem(wallet_account_id=WALLET, asset_amount=Decimal("10.01"), external_id="row-1"),
        CreateDisbursementItem(wallet_account_id=WALLET, asset_amount=Decimal("20.02"), external_id="row-2"),
    ]
    batch = lajan.disbursements.create_disbursement(
        body=CreateDisbursement(name="March stipends", asset_code="USDC", items=items)
    )
    assert batch.total_amount == "30.03"
    lajan.disbursements.submit_disbursement(id=batch.id)
    lajan.disbursements.approve_disbursement(id=batch.id)
    done = eventually(
        lambda: lajan.disbursements.get_disbursement(id=batch.id), lambda d: d.status == "completed", "the batch"
    )
    assert done.amount_sent == "30.03"
    csv = f"walletAccountId,assetAmount\n{WALLET},5.00\n"
    from_csv = lajan.create_disbursement_from_csv(csv, name="April", asset_code="USDC")
    assert from_csv.status == "draft" and from_csv.total_amount == "5.00"


def test_a_refusal_is_one_exception_with_its_code_and_fields(lajan):
    with pytest.raises(LajanError) as refused:
        lajan.clients.create_client(body=CreateClient(first_name="Marie", last_name="Jean", email="marie@"))
    error = refused.value
    assert (error.status_code, error.code) == (400, "validation_error")
    assert error.details[0]["field"] == "email"
    assert error.message and error.request_id
    with pytest.raises(LajanError) as missing:
        lajan.clients.get_client(id="cli_" + "0" * 32)
    assert (missing.value.status_code, missing.value.code) == (404, "not_found")
    with pytest.raises(TypeError):
        lajan.payouts.create_payout(
            body=CreatePayout(wallet_account_id=WALLET, asset_amount=0.1, asset_code="USDC")  # type: ignore[arg-type]
        )


def test_every_page_of_a_list(lajan):
    family = uuid.uuid4().hex[:8]
    made = {lajan.clients.create_client(body=CreateClient(first_name="Paul", last_name=family)).id for _ in range(5)}
    seen = [c.id for c in lajan.paginate(lajan.clients.list_clients, search=family, limit=2)]
    assert sorted(seen) == sorted(made)


def test_a_replayed_post_answers_the_first_result(lajan):
    key = str(uuid.uuid4())
    body = CreateClient(first_name="Rose", last_name="Pierre")
    first = lajan.clients.create_client(body=body, idempotency_key=key)
    again = lajan.clients.create_client(body=body, idempotency_key=key)
    assert again.id == first.id
    other = lajan.clients.create_client(body=body)
    assert other.id != first.id, "without a key of the caller's, each call is a new create"


def test_a_delivery_verifies_with_the_endpoints_secret_and_a_tampered_one_does_not(lajan):
    import http.server
    import threading

    from standardwebhooks.webhooks import WebhookVerificationError

    from lajan import verify_webhook
    from lajan.models import CreateWebhookEndpoint, EventSelector

    received = []

    class Receiver(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers["Content-Length"]))
            received.append((body, {k.lower(): v for k, v in self.headers.items()}))
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args):
            pass

    receiver = http.server.HTTPServer(("127.0.0.1", 0), Receiver)
    threading.Thread(target=receiver.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{receiver.server_address[1]}/hooks"
        endpoint = lajan.webhook_endpoints.create_webhook_endpoint(
            body=CreateWebhookEndpoint(url=url, events=[EventSelector.WEBHOOK_ENDPOINT_TEST])
        )
        lajan.webhook_endpoints.send_test_webhook_event(id=endpoint.id)
        eventually(lambda: len(received), lambda n: n > 0, "the delivery")
    finally:
        receiver.shutdown()
    body, headers = received[0]
    event = verify_webhook(endpoint.secret, body, headers)
    assert event["type"] == "webhook_endpoint.test"
    with pytest.raises(WebhookVerificationError):
        verify_webhook(endpoint.secret, body.replace(b"webhook_endpoint.test", b"webhook_endpoint.tesT"), headers)


def test_numbers_in_answers_are_decimals(lajan):
    client = lajan.clients.create_client(body=CreateClient(first_name="Anne", last_name="Louis"))
    line = LineItemBody(description="Fee", quantity=Decimal("0.1"), unit_price=Decimal("0.30"), tax_rate=Decimal("10"))
    invoice = lajan.invoices.create_invoice(
        body=CreateInvoice(client_id=client.id, due_date=date(2030, 1, 31), line_items=[line])
    )
    assert invoice.line_items[0].quantity == Decimal("0.1") and isinstance(invoice.line_items[0].quantity, Decimal)
    assert invoice.line_items[0].tax_rate == Decimal("10")
    assert invoice.subtotal == "0.03"
