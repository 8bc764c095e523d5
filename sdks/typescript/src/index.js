// The Lajan client: openapi-fetch over the generated types, with an Idempotency-Key on every
// POST, one error class for every refusal, exact decimals, pages, the CSV create and webhook
// verification.
import createClient from "openapi-fetch";
import { parse, stringify } from "./exact-json.js";

export class LajanError extends Error {
  constructor(statusCode, body, requestId) {
    super(`${statusCode} ${body.code}: ${body.message}`);
    this.name = "LajanError";
    this.statusCode = statusCode;
    this.code = body.code ?? "unexpected_response";
    this.details = body.details ?? [];
    this.requestId = requestId;
    this.message = body.message ?? String(statusCode);
  }
}

async function errorOf(response) {
  const text = await response.text();
  let body;
  try {
    body = parse(text);
  } catch {
    body = { message: text.slice(0, 200) || response.statusText };
  }
  return new LajanError(response.status, body, response.headers.get("x-request-id"));
}

/** Answers whose JSON numbers are kept as exact text (see exact-json.js). */
async function exactFetch(request, baseFetch) {
  const response = await baseFetch(request);
  if (!(response.headers.get("content-type") ?? "").startsWith("application/json")) return response;
  const text = await response.text();
  const body = text ? JSON.stringify(parse(text)) : text;
  // The body is rewritten and already decoded: its length and encoding are no longer the wire's.
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  headers.delete("content-encoding");
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}

export function createLajan({ baseUrl, apiKey, fetch: baseFetch = globalThis.fetch }) {
  const client = createClient({
    baseUrl: baseUrl.replace(/\/+$/, ""),
    headers: { Authorization: `Bearer ${apiKey}` },
    bodySerializer: (body) => stringify(body),
    fetch: (request) => exactFetch(request, baseFetch),
  });
  client.use({
    onRequest({ request }) {
      if (request.method === "POST" && !request.headers.has("Idempotency-Key")) {
        request.headers.set("Idempotency-Key", crypto.randomUUID());
      }
      return request;
    },
    async onResponse({ response }) {
      if (!response.ok) throw await errorOf(response);
      return response;
    },
  });

  // Each page is asked after the last item of the one before (`startingAfter`), so the walk
  // costs the same per page however long the list is.
  async function* paginate(path, options = {}) {
    const params = options.params ?? {};
    for (let after = undefined; ; ) {
      const cursor = after === undefined ? {} : { startingAfter: after };
      const { data } = await client.GET(path, { ...options, params: { ...params, query: { ...params.query, ...cursor } } });
      yield* data.data;
      if (!data.pagination.hasMore || data.data.length === 0) return;
      after = data.data[data.data.length - 1].id;
    }
  }

  // Through the client, so the key, the Idempotency-Key and the error handling are the same as
  // every other call's; only the body is sent as it is.
  async function createDisbursementFromCsv(csv, { name, assetCode, assetIssuer, idempotencyKey } = {}) {
    const { data } = await client.POST("/v1/disbursements", {
      params: { query: { name, assetCode, ...(assetIssuer ? { assetIssuer } : {}) } },
      body: csv,
      bodySerializer: (text) => text,
      headers: { "Content-Type": "text/csv", ...(idempotencyKey ? { "Idempotency-Key": idempotencyKey } : {}) },
    });
    return data;
  }

  return Object.assign(client, { paginate, createDisbursementFromCsv });
}

/**
 * The event of a delivery whose signature `secret` (whsec_...) verifies, with the official
 * `standardwebhooks` package (install it beside this one); throws on a bad signature or a
 * timestamp over five minutes off. Pass the body exactly as received.
 */
export async function verifyWebhook(secret, payload, headers) {
  const { Webhook } = await import("standardwebhooks");
  const flat = headers instanceof Headers ? Object.fromEntries(headers) : headers;
  new Webhook(secret).verify(payload, flat);
  return parse(typeof payload === "string" ? payload : new TextDecoder().decode(payload));
}
