// The story an integrator runs, through the library against a real server: an invoice paid in
// the sandbox, a payout sent, a disbursement approved, errors by kind, every page of a list,
// idempotent replays, a webhook verified into a typed event, and the README's quick start.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { test } from "node:test";
import ts from "typescript";
import { Lajan, NotFoundError, ValidationError, type Event } from "@lajan/sdk";
import { ROOT, eventually, startServer } from "./server.js";

const WALLET = "GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H";

test("the integrator's story", async (t) => {
  const server = await startServer(t);
  if (!server) return;
  const lajan = new Lajan(server);

  await t.test("an invoice is created, sent and paid in the sandbox", async () => {
    const client = await lajan.clients.create({ firstName: "Marie", lastName: "Jean", email: "marie@example.ht" });
    const invoice = await lajan.invoices.create({
      clientId: client.id,
      dueDate: "2030-03-31",
      lineItems: [{ description: "Loan repayment", quantity: "0.5", unitPrice: "5000.20", taxRate: "10" }],
    });
    assert.equal(invoice.total, "2750.11");
    assert.equal(invoice.lineItems[0]?.quantity, "0.5", "numbers in answers stay exact decimal strings");
    const sent = await lajan.invoices.send(invoice.id);
    assert.equal(sent.status, "sent");
    await lajan.sandbox.simulatePayment(invoice.paymentLink.url.split("/").pop()!);
    const paid = await eventually(() => lajan.invoices.retrieve(invoice.id), (i) => i.status === "paid", "the invoice");
    assert.equal(paid.amountPaid, "2750.11");
  });

  await t.test("a payout is approved and sent", async () => {
    const payout = await lajan.payouts.create({ walletAccountId: WALLET, assetAmount: "125.50", assetCode: "USDC", memo: "Loan 2231" });
    assert.equal(payout.assetAmount, "125.50");
    await lajan.payouts.approve(payout.id);
    const sent = await eventually(() => lajan.payouts.retrieve(payout.id), (p) => p.execStatus === "sent", "the payout");
    assert.ok(sent.attempts[0]?.txHash);
  });

  await t.test("a small disbursement is submitted and approved, and one comes from CSV", async () => {
    const batch = await lajan.disbursements.create({
      name: "March stipends",
      assetCode: "USDC",
      items: [
        { walletAccountId: WALLET, assetAmount: "10.01", externalId: "row-1" },
        { walletAccountId: WALLET, assetAmount: "20.02", externalId: "row-2" },
      ],
    });
    assert.equal(batch.totalAmount, "30.03");
    await lajan.disbursements.submit(batch.id);
    await lajan.disbursements.approve(batch.id);
    const done = await eventually(() => lajan.disbursements.retrieve(batch.id), (d) => d.status === "completed", "the batch");
    assert.equal(done.amountSent, "30.03");
    const rows = [];
    for await (const item of lajan.disbursements.listItems(batch.id)) rows.push(item.externalId);
    assert.deepEqual(rows, ["row-1", "row-2"]);
    const fromCsv = await lajan.disbursements.createFromCsv(`walletAccountId,assetAmount\n${WALLET},5.00\n`, { name: "April", assetCode: "USDC" });
    assert.equal(fromCsv.status, "draft");
    assert.equal(fromCsv.totalAmount, "5.00");
  });

  await t.test("a refusal is an error of its kind with its code and fields", async () => {
    const refused = await lajan.clients.create({ firstName: "Marie", lastName: "Jean", email: "marie@" }).catch((e: unknown) => e);
    assert.ok(refused instanceof ValidationError);
    assert.equal(refused.status, 400);
    assert.equal(refused.code, "validation_error");
    assert.equal(refused.details[0]?.field, "email");
    assert.ok(refused.message && refused.requestId);
    const missing = await lajan.clients.retrieve(`cli_${"0".repeat(32)}`).catch((e: unknown) => e);
    assert.ok(missing instanceof NotFoundError);
    assert.equal(missing.code, "not_found");
  });

  await t.test("every item of every page, once", async () => {
    const family = crypto.randomUUID().slice(0, 8);
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push((await lajan.clients.create({ firstName: "Paul", lastName: family })).id);
    const page = await lajan.clients.list({ search: family, limit: 2 });
    assert.equal(page.data.length, 2);
    assert.ok(page.hasMore);
    const seen: string[] = [];
    for await (const c of page) seen.push(c.id);
    assert.deepEqual(seen, [...made].reverse(), "newest first, each once, across three pages");
    const sizes: number[] = [];
    for await (const p of page.iterPages()) sizes.push(p.data.length);
    assert.deepEqual(sizes, [2, 2, 1]);
    const newer: string[] = [];
    for await (const c of lajan.clients.list({ search: family, limit: 2, endingBefore: made[1] })) newer.push(c.id);
    assert.deepEqual(newer.sort(), made.slice(2).sort());
  });

  await t.test("a replayed POST answers the first result", async () => {
    const idempotencyKey = crypto.randomUUID();
    const first = await lajan.clients.create({ firstName: "Rose", lastName: "Pierre" }, { idempotencyKey });
    const again = await lajan.clients.create({ firstName: "Rose", lastName: "Pierre" }, { idempotencyKey });
    assert.equal(again.id, first.id);
    const other = await lajan.clients.create({ firstName: "Rose", lastName: "Pierre" });
    assert.notEqual(other.id, first.id, "without a key of the caller's, each call is a new create");
  });

  await t.test("a delivery verifies into a typed event, and a tampered one does not", async () => {
    const received: { body: string; headers: IncomingHttpHeaders }[] = [];
    const receiver = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (c: Buffer) => chunks.push(c));
      request.on("end", () => {
        received.push({ body: Buffer.concat(chunks).toString(), headers: request.headers });
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
      const endpoint = await lajan.webhookEndpoints.create({ url, events: ["webhook_endpoint.test"] });
      await lajan.webhookEndpoints.sendTestEvent(endpoint.id);
      await eventually(() => received.length, (n) => n > 0, "the delivery");
      const { body, headers } = received[0]!;
      const event: Event = lajan.webhooks.verify(body, headers, endpoint.secret);
      assert.equal(event.type, "webhook_endpoint.test");
      if (event.type === "webhook_endpoint.test") assert.equal(event.data.object.id, endpoint.id);
      assert.throws(() => lajan.webhooks.verify(body.replace("endpoint.test", "endpoint.tesT"), headers, endpoint.secret));
    } finally {
      receiver.close();
    }
  });
});

test("the README's quick start is examples/quickstart.ts, and it runs as written, as an ES module or CommonJS", async (t) => {
  const server = await startServer(t);
  if (!server) return;
  const example = readFileSync(`${ROOT}/sdks/typescript/examples/quickstart.ts`, "utf8");
  for (const readme of [`${ROOT}/README.md`, `${ROOT}/sdks/typescript/README.md`]) {
    assert.ok(readFileSync(readme, "utf8").includes("```ts\n" + example + "```"), `${readme} shows examples/quickstart.ts as it is`);
  }
  const compiled = readFileSync(`${ROOT}/sdks/typescript/dist/examples/examples/quickstart.js`, "utf8")
    .replace('"http://127.0.0.1:8080"', JSON.stringify(server.baseUrl))
    .replace('"sk_test_..."', JSON.stringify(server.apiKey));
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", compiled], { cwd: `${ROOT}/sdks/typescript`, encoding: "utf8" });
  assert.match(out, /^INV-\d{6} 2500\.00\n$/);
  // A default `npm init` project is CommonJS: no top-level await there, and `require` for the
  // library. The same source, compiled as such a project compiles it, runs too.
  const commonjs = ts
    .transpileModule(example, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } })
    .outputText.replace('"http://127.0.0.1:8080"', JSON.stringify(server.baseUrl))
    .replace('"sk_test_..."', JSON.stringify(server.apiKey));
  assert.match(commonjs, /require\("@lajan\/sdk"\)/);
  const fromRequire = execFileSync(process.execPath, ["--input-type=commonjs", "-e", commonjs], { cwd: `${ROOT}/sdks/typescript`, encoding: "utf8" });
  assert.match(fromRequire, /^INV-\d{6} 2500\.00\n$/);
});

test("the quick start and a webhook check run on Bun and Deno too", async (t) => {
  const runtimes = `${ROOT}/sdks/typescript/runtimes/node_modules/.bin`;
  if (!existsSync(`${runtimes}/bun`) || !existsSync(`${runtimes}/deno`)) {
    if (process.env.CI) throw new Error("no Bun or Deno: .ci/run installs them (npm ci in sdks/typescript/runtimes)");
    t.skip("no Bun or Deno: run npm ci in sdks/typescript/runtimes");
    return;
  }
  const server = await startServer(t);
  if (!server) return;
  const library = `${ROOT}/sdks/typescript/dist/esm/index.js`;
  const quickstart = readFileSync(`${ROOT}/sdks/typescript/dist/examples/examples/quickstart.js`, "utf8")
    .replace('"@lajan/sdk"', JSON.stringify(library))
    .replace('"http://127.0.0.1:8080"', JSON.stringify(server.baseUrl))
    .replace('"sk_test_..."', JSON.stringify(server.apiKey));
  // A delivery signed with the official library, verified by ours: the standardwebhooks package
  // runs on each runtime too.
  const webhook = `
import { Webhook } from "standardwebhooks";
import { Lajan } from ${JSON.stringify(library)};
const secret = "whsec_" + btoa("0123456789abcdef0123456789abcdef");
const body = JSON.stringify({ id: "evt_1", type: "client.deleted", createdAt: "2030-01-01T00:00:00.000Z", livemode: false,
  actor: { type: "system", id: "worker" }, data: { object: { id: "cli_1" } } });
const at = new Date();
const headers = { "webhook-id": "evt_1", "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
  "webhook-signature": new Webhook(secret).sign("evt_1", at, body) };
const event = new Lajan({ apiKey: "sk_test_x" }).webhooks.verify(body, headers, secret);
console.log(event.type, event.data.object.id);
`;
  // Inside the package, so Deno finds its node_modules through package.json.
  const files = [`${ROOT}/sdks/typescript/quickstart.runtime.mjs`, `${ROOT}/sdks/typescript/webhook.runtime.mjs`];
  writeFileSync(files[0]!, quickstart);
  writeFileSync(files[1]!, webhook);
  t.after(() => files.forEach((f) => rmSync(f, { force: true })));
  for (const [name, command] of [
    ["bun", [`${runtimes}/bun`]],
    ["deno", [`${runtimes}/deno`, "run", "--allow-net", "--allow-read", "--allow-env"]],
  ] as const) {
    const run = (file: string) =>
      execFileSync(command[0], [...command.slice(1), file], { cwd: `${ROOT}/sdks/typescript`, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
    assert.match(run(files[0]!), /^INV-\d{6} 2500\.00\n$/, name);
    assert.equal(run(files[1]!), "client.deleted cli_1\n", name);
  }
});
