// Retries are safe: through a proxy in front of a real server that loses answers, refuses with 503
// or 429, drops connections or stalls, the library tries again with the same Idempotency-Key, and
// the server makes one object.
import assert from "node:assert/strict";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { test } from "node:test";
import { ApiConnectionError, ApiError, ApiTimeoutError, Lajan, RateLimitError, VERSION } from "@lajan/sdk";
import { startServer, type Server } from "./server.js";

/** Answers each request as the next step says, then forwards: `lose` forwards and answers 503
 * instead; `503` and `429` (Retry-After: 1) answer so without forwarding; `drop` closes the
 * connection unanswered; `stall` waits 2 s before forwarding; `garbage` answers 200 with a page
 * that is not JSON. */
class Proxy {
  steps: string[] = [];
  readonly seen: IncomingMessage["headers"][] = [];
  readonly times: number[] = [];
  // A stalled request may outlive its test (and the server): its failure ends its connection only.
  readonly #server = createServer((request, response) => void this.#handle(request, response).catch(() => response.destroy()));

  constructor(readonly upstream: string) {}

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.#server.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  close(): void {
    this.#server.closeAllConnections();
    this.#server.close();
  }

  async #handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    this.seen.push(request.headers);
    this.times.push(Date.now());
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const step = this.steps.shift() ?? "forward";
    if (step === "drop") return void request.socket.destroy();
    if (step === "stall") await new Promise((resolve) => setTimeout(resolve, 2000));
    if (step === "garbage") {
      response.writeHead(200, { "Content-Type": "text/html" });
      return void response.end("<html>a captive portal</html>");
    }
    if (step === "503" || step === "429") {
      response.writeHead(Number(step), { "Content-Type": "application/json", ...(step === "429" ? { "Retry-After": "1" } : {}) });
      return void response.end('{"code":"unavailable","message":"try later"}');
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) {
      if (typeof value === "string" && !["host", "content-length", "connection"].includes(name)) headers[name] = value;
    }
    const body = chunks.length ? Buffer.concat(chunks) : undefined;
    const upstream = await fetch(this.upstream + request.url, { method: request.method, headers, body });
    const text = await upstream.text();
    if (step === "lose") {
      response.writeHead(503, { "Content-Type": "application/json" });
      return void response.end('{"code":"service_unavailable","message":"lost"}');
    }
    const requestId = upstream.headers.get("x-request-id");
    response.writeHead(upstream.status, { "Content-Type": "application/json", ...(requestId ? { "X-Request-Id": requestId } : {}) });
    response.end(text);
  }
}

test("retries", async (t) => {
  const server = (await startServer(t)) as Server | null;
  if (!server) return;
  const proxy = new Proxy(server.baseUrl);
  const baseUrl = await proxy.start();
  t.after(() => proxy.close());
  const lajan = new Lajan({ apiKey: server.apiKey, baseUrl });

  await t.test("a lost answer is retried with the same key and makes one object", async () => {
    const family = crypto.randomUUID().slice(0, 10);
    proxy.seen.length = 0;
    proxy.steps = ["lose"];
    const client = await lajan.clients.create({ firstName: "Rose", lastName: family });
    const keys = proxy.seen.map((h) => h["idempotency-key"]);
    assert.equal(keys.length, 2);
    assert.ok(keys[0] && keys[0] === keys[1]);
    assert.ok(String(proxy.seen[0]?.["user-agent"]).startsWith(`lajan-typescript/${VERSION} `));
    const listed: string[] = [];
    for await (const c of lajan.clients.list({ search: family })) listed.push(c.id);
    assert.deepEqual(listed, [client.id], "one client, not two");
  });

  await t.test("503 then 200 waits and tries again", async () => {
    proxy.seen.length = 0;
    proxy.times.length = 0;
    proxy.steps = ["503", "503"];
    assert.ok((await lajan.settings.retrieve()).defaultCurrency);
    assert.equal(proxy.seen.length, 3);
    const [a, b, c] = proxy.times as [number, number, number];
    assert.ok(b - a > 300 && b - a < 1000 && c - b > 700 && c - b < 2000, `backoff with jitter: ${b - a}, ${c - b}`);
  });

  await t.test("Retry-After is honoured, and the last refusal thrown", async () => {
    proxy.seen.length = 0;
    proxy.times.length = 0;
    proxy.steps = ["429", "429"];
    const refused = await lajan.settings.retrieve({ maxRetries: 1 }).catch((e: unknown) => e);
    assert.ok(refused instanceof RateLimitError);
    assert.equal(refused.retryAfter, 1);
    assert.equal(proxy.seen.length, 2);
    assert.ok(proxy.times[1]! - proxy.times[0]! >= 950);
  });

  await t.test("no retry when asked for none", async () => {
    proxy.seen.length = 0;
    proxy.steps = ["503"];
    const refused = await lajan.settings.retrieve({ maxRetries: 0 }).catch((e: unknown) => e);
    assert.ok(refused instanceof ApiError);
    assert.equal(refused.status, 503);
    assert.equal(proxy.seen.length, 1);
  });

  await t.test("an answer that is not JSON is an error, not a crash", async () => {
    proxy.steps = ["garbage"];
    const refused = await lajan.settings.retrieve().catch((e: unknown) => e);
    assert.ok(refused instanceof ApiError);
    assert.equal(refused.code, "unexpected_response");
    assert.match(refused.message, /captive portal/);
  });

  await t.test("a dropped connection and a stall are retried; a timeout on every try is thrown", async () => {
    proxy.steps = ["drop", "stall"];
    assert.ok((await lajan.settings.retrieve({ timeout: 5000 })).defaultCurrency);
    proxy.steps = ["stall", "stall", "stall"];
    await assert.rejects(lajan.settings.retrieve({ timeout: 500 }), ApiTimeoutError);
    const nowhere = new Lajan({ apiKey: server.apiKey, baseUrl: "http://127.0.0.1:9", maxRetries: 1 });
    await assert.rejects(nowhere.settings.retrieve(), ApiConnectionError);
  });
});
