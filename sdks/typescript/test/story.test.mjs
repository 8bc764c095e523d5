// The story an integrator runs, through the library against a real server: an invoice paid in
// the sandbox, a payout sent, a disbursement approved, errors, pages, idempotent retries and a
// verified webhook delivery.
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { test } from "node:test";
import { createLajan, LajanError, verifyWebhook } from "../src/index.js";
import { startServer } from "./server.mjs";

const WALLET = "GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H";

async function eventually(read, done, what) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    assert.ok(Date.now() < deadline, `${what}: still ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

test("the integrator's story", async (t) => {
  const server = await startServer(t);
  if (!server) return;
  const lajan = createLajan(server);

  await t.test("an invoice is created, sent and paid in the sandbox", async () => {
    const { data: client } = await lajan.POST("/v1/clients", {
      body: { firstName: "Marie", lastName: "Jean", email: "marie@example.ht" },
    });
    const { data: invoice } = await lajan.POST("/v1/invoices", {
      body: {
        clientId: client.id,
        dueDate: "2030-03-31",
        lineItems: [{ description: "Loan repayment", quantity: "0.5", unitPrice: "5000.20", taxRate: "10" }],
      },
    });
    assert.equal(invoice.total, "2750.11");
    assert.equal(invoice.lineItems[0].quantity, "0.5", "numbers in answers stay exact decimal strings");
    const { data: sent } = await lajan.POST("/v1/invoices/{id}/send", { params: { path: { id: invoice.id } } });
    assert.equal(sent.status, "sent");
    const intent = invoice.paymentLink.url.split("/").pop();
    await lajan.POST("/v1/sandbox/payment-intents/{id}/pay", { params: { path: { id: intent } } });
    const paid = await eventually(
      async () => (await lajan.GET("/v1/invoices/{id}", { params: { path: { id: invoice.id } } })).data,
      (i) => i.status === "paid",
      "the invoice",
    );
    assert.equal(paid.amountPaid, "2750.11");
  });

  await t.test("a payout is approved and sent", async () => {
    const { data: payout } = await lajan.POST("/v1/payouts", {
      body: { walletAccountId: WALLET, assetAmount: "125.50", assetCode: "USDC", memo: "Loan 2231" },
    });
    assert.equal(payout.assetAmount, "125.50");
    await lajan.POST("/v1/payouts/{id}/approve", { params: { path: { id: payout.id } } });
    const sent = await eventually(
      async () => (await lajan.GET("/v1/payouts/{id}", { params: { path: { id: payout.id } } })).data,
      (p) => p.execStatus === "sent",
      "the payout",
    );
    assert.ok(sent.attempts[0].txHash);
  });

  await t.test("a small disbursement is submitted and approved, and one comes from CSV", async () => {
    const items = [
      { walletAccountId: WALLET, assetAmount: "10.01", externalId: "row-1" },
      { walletAccountId: WALLET, assetAmount: "20.02", externalId: "row-2" },
    ];
    const { data: batch } = await lajan.POST("/v1/disbursements", {
      body: { name: "March stipends", assetCode: "USDC", items },
    });
    assert.equal(batch.totalAmount, "30.03");
    const path = { params: { path: { id: batch.id } } };
    await lajan.POST("/v1/disbursements/{id}/submit", path);
    await lajan.POST("/v1/disbursements/{id}/approve", path);
    const done = await eventually(
      async () => (await lajan.GET("/v1/disbursements/{id}", path)).data,
      (d) => d.status === "completed",
      "the batch",
    );
    assert.equal(done.amountSent, "30.03");
    const fromCsv = await lajan.createDisbursementFromCsv(`walletAccountId,assetAmount\n${WALLET},5.00\n`, {
      name: "April",
      assetCode: "USDC",
    });
    assert.equal(fromCsv.status, "draft");
    assert.equal(fromCsv.totalAmount, "5.00");
  });

  await t.test("a refusal is one error with its code and fields", async () => {
    const refused = await lajan
      .POST("/v1/clients", { body: { firstName: "Marie", lastName: "Jean", email: "marie@" } })
      .catch((e) => e);
    assert.ok(refused instanceof LajanError);
    assert.equal(refused.statusCode, 400);
    assert.equal(refused.code, "validation_error");
    assert.equal(refused.details[0].field, "email");
    assert.ok(refused.message && refused.requestId);
    const missing = await lajan
      .GET("/v1/clients/{id}", { params: { path: { id: `cli_${"0".repeat(32)}` } } })
      .catch((e) => e);
    assert.equal(missing.code, "not_found");
  });

  await t.test("every page of a list", async () => {
    const family = crypto.randomUUID().slice(0, 8);
    const made = [];
    for (let i = 0; i < 5; i++) {
      made.push((await lajan.POST("/v1/clients", { body: { firstName: "Paul", lastName: family } })).data.id);
    }
    const seen = [];
    for await (const c of lajan.paginate("/v1/clients", { params: { query: { search: family, limit: 2 } } })) {
      seen.push(c.id);
    }
    assert.deepEqual(seen.sort(), made.sort());
  });

  await t.test("a replayed POST answers the first result", async () => {
    const init = { body: { firstName: "Rose", lastName: "Pierre" }, headers: { "Idempotency-Key": crypto.randomUUID() } };
    const first = (await lajan.POST("/v1/clients", init)).data;
    const again = (await lajan.POST("/v1/clients", init)).data;
    assert.equal(again.id, first.id);
    const other = (await lajan.POST("/v1/clients", { body: init.body })).data;
    assert.notEqual(other.id, first.id, "without a key of the caller's, each call is a new create");
  });

  await t.test("a delivery verifies with the endpoint's secret and a tampered one does not", async () => {
    const received = [];
    const receiver = createServer((request, response) => {
      const chunks = [];
      request.on("data", (c) => chunks.push(c));
      request.on("end", () => {
        received.push({ body: Buffer.concat(chunks).toString(), headers: request.headers });
        response.writeHead(204).end();
      });
    });
    await new Promise((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${receiver.address().port}/hooks`;
      const { data: endpoint } = await lajan.POST("/v1/webhook-endpoints", {
        body: { url, events: ["webhook_endpoint.test"] },
      });
      await lajan.POST("/v1/webhook-endpoints/{id}/test", { params: { path: { id: endpoint.id } } });
      await eventually(() => received.length, (n) => n > 0, "the delivery");
      const { body, headers } = received[0];
      const event = await verifyWebhook(endpoint.secret, body, headers);
      assert.equal(event.type, "webhook_endpoint.test");
      await assert.rejects(verifyWebhook(endpoint.secret, body.replace("endpoint.test", "endpoint.tesT"), headers));
    } finally {
      receiver.close();
    }
  });
});

test("the README's TypeScript snippet runs as written", async (t) => {
  const server = await startServer(t);
  if (!server) return;
  const { readFileSync, writeFileSync, mkdtempSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const readme = readFileSync(new URL("../../../README.md", import.meta.url), "utf8");
  const section = readme.split("## Client libraries")[1].split("\n## ")[0];
  const snippet = section.match(/```js\n([\s\S]*?)```/)[1];
  const code = snippet
    .replace('"@lajan/sdk"', JSON.stringify(new URL("../src/index.js", import.meta.url).href))
    .replace('"http://127.0.0.1:8080"', JSON.stringify(server.baseUrl))
    .replace('"sk_test_..."', JSON.stringify(server.apiKey));
  const file = `${mkdtempSync(`${tmpdir()}/lajan-readme-`)}/snippet.mjs`;
  writeFileSync(file, code);
  const lines = [];
  const log = t.mock.method(console, "log", (...args) => lines.push(args.join(" ")));
  await import(file);
  log.mock.restore();
  assert.equal(lines.length, 2, lines.join("\n"));
  assert.match(lines[0], /^cli_[0-9a-f]{32}$/);
  assert.equal(lines[1], "400 validation_error email");
});
