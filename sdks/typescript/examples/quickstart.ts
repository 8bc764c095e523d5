import { Lajan, type LineItemBody } from "@lajan/sdk";

async function main(): Promise<void> {
  const lajan = new Lajan({ apiKey: "sk_test_...", baseUrl: "http://127.0.0.1:8080" });
  const client = await lajan.clients.create({ firstName: "Marie", lastName: "Jean", email: "marie@example.ht" });
  const line: LineItemBody = { description: "Loan repayment", quantity: "1", unitPrice: "2500.00" };
  const invoice = await lajan.invoices.create({ clientId: client.id, dueDate: "2030-03-31", lineItems: [line] });
  await lajan.invoices.send(invoice.id);
  await lajan.sandbox.simulatePayment(invoice.paymentLink.url.split("/").pop()!);
  for await (const listed of lajan.invoices.list({ clientId: client.id })) {
    console.log(listed.invoiceNumber, listed.total);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
