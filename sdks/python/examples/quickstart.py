from decimal import Decimal

from lajan import Lajan
from lajan.types import LineItemBody

lajan = Lajan(api_key="sk_test_...", base_url="http://127.0.0.1:8080")
client = lajan.clients.create({"firstName": "Marie", "lastName": "Jean", "email": "marie@example.ht"})
line: LineItemBody = {"description": "Loan repayment", "quantity": 1, "unitPrice": Decimal("2500.00")}
invoice = lajan.invoices.create({"clientId": client.id, "dueDate": "2030-03-31", "lineItems": [line]})
lajan.invoices.send(invoice.id)
lajan.sandbox.simulate_payment(invoice.payment_link.url.rsplit("/", 1)[-1])
for listed in lajan.invoices.list({"clientId": client.id}):
    print(listed.invoice_number, listed.total)
