// The transport under the client: one call's request, its retries and what its answer becomes.
//
// A call is built once (its Idempotency-Key included) and sent up to `maxRetries + 1` times: again
// after a network error, a timeout, a 429, a 5xx or a 409 `idempotency_in_progress`, waiting as
// `Retry-After` says or else 0.5 s, 1 s, 2 s... (at most 8 s) less up to a quarter at random, so
// many clients refused at once do not come back at once. The key is what makes the retry safe: the
// server runs a POST once per key and replays its first answer.
import { parse, stringify } from "./exact-json.js";
import { ApiConnectionError, ApiError, ApiTimeoutError, LajanError, RateLimitError, errorClass } from "./errors.js";
import { Page, PagePromise, type Query } from "./pagination.js";
import type { FieldDetail, PaginationView } from "./types.js";
import { VERSION } from "./version.js";

export const DEFAULT_BASE_URL = "http://127.0.0.1:8080";
const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_RETRIES = 2;
const FIRST_DELAY_MS = 500;
const LONGEST_DELAY_MS = 8_000;
// A Retry-After beyond this is not waited for: the error is thrown for the caller to decide.
const LONGEST_RETRY_AFTER_MS = 60_000;

export interface ClientOptions {
  /** The API key (`sk_test_...`, `sk_live_...`); else `LAJAN_API_KEY`. */
  apiKey?: string;
  /** Where the API answers; else `LAJAN_BASE_URL`, else http://127.0.0.1:8080. */
  baseUrl?: string;
  /** Milliseconds to wait for each try's answer (default 30 000). */
  timeout?: number;
  /** Tries after the first, for 429, 5xx and network errors (default 2). */
  maxRetries?: number;
  /** A `fetch` of your own (proxies, tests); else the runtime's. */
  fetch?: typeof fetch;
}

/** What one call may set for itself, as the last argument of any method. */
export interface RequestOptions {
  /** The key that makes a POST safe to repeat; a new one per call when left out (retries reuse it). */
  idempotencyKey?: string;
  /** Milliseconds to wait for each try's answer, instead of the client's. */
  timeout?: number;
  /** Tries after the first, instead of the client's. */
  maxRetries?: number;
  /** Gives up the call (and its retries) when aborted. */
  signal?: AbortSignal;
}

interface Parts {
  query?: object | undefined;
  body?: unknown;
  csv?: string;
}

const runtime = globalThis as {
  process?: { env?: Record<string, string | undefined>; version?: string };
  Deno?: { version?: { deno?: string } };
  Bun?: { version?: string };
};
const environment = runtime.process;
const RUNTIME = runtime.Bun?.version
  ? `bun ${runtime.Bun.version}`
  : runtime.Deno?.version?.deno
    ? `deno ${runtime.Deno.version.deno}`
    : environment?.version
      ? `node ${environment.version}`
      : "fetch";
const USER_AGENT = `lajan-typescript/${VERSION} (${RUNTIME})`;

/** An id as one path segment, whatever it holds. */
export function path(segment: string): string {
  return encodeURIComponent(segment);
}

async function newKey(): Promise<string> {
  const crypto = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto;
  if (crypto?.randomUUID) return crypto.randomUUID();
  // Node 18 keeps Web Crypto off the global object.
  const module = "node:crypto";
  return ((await import(module)) as { randomUUID: () => string }).randomUUID();
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `Retry-After` in milliseconds, from its number of seconds or its date. */
export function retryAfter(response: Response): number | null {
  const value = response.headers.get("retry-after");
  if (value === null) return null;
  const seconds = Number(value);
  if (value.trim() !== "" && Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const when = Date.parse(value);
  return Number.isNaN(when) ? null : Math.max(0, when - Date.now());
}

function parsed(text: string): unknown {
  try {
    return text ? parse(text) : null;
  } catch {
    return null;
  }
}

function retryable(response: Response, body: unknown): boolean {
  if (response.status === 429 || response.status >= 500) return true;
  return response.status === 409 && (body as { code?: unknown } | null)?.code === "idempotency_in_progress";
}

function errorOf(response: Response, body: unknown): ApiError {
  const fields = (body !== null && typeof body === "object" ? body : {}) as Record<string, unknown>;
  const details = Array.isArray(fields.details) ? (fields.details as FieldDetail[]) : [];
  const message = typeof fields.message === "string" ? fields.message : response.statusText || String(response.status);
  const requestId = response.headers.get("x-request-id") ?? (typeof fields.requestId === "string" ? fields.requestId : null);
  const code = typeof fields.code === "string" ? fields.code : "unexpected_response";
  const error = new (errorClass(response.status))(response.status, code, message, details, requestId, body);
  if (error instanceof RateLimitError) {
    const after = retryAfter(response);
    error.retryAfter = after === null ? null : after / 1000;
  }
  return error;
}

class Timeout extends Error {}

export class Core {
  readonly baseUrl: string;
  readonly timeout: number;
  readonly maxRetries: number;
  readonly #apiKey: string;
  readonly #fetch: typeof fetch;

  constructor(options: ClientOptions = {}) {
    const apiKey = options.apiKey ?? environment?.env?.LAJAN_API_KEY;
    if (!apiKey) throw new LajanError("no API key: pass apiKey or set LAJAN_API_KEY");
    this.#apiKey = apiKey;
    this.baseUrl = (options.baseUrl ?? environment?.env?.LAJAN_BASE_URL ?? DEFAULT_BASE_URL).replace(/\/+$/, "");
    this.timeout = options.timeout ?? DEFAULT_TIMEOUT_MS;
    this.maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
    this.#fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  }

  /** One call: its answer's JSON as `T`, or the error of its kind. */
  async request<T>(method: string, path: string, parts: Parts, options: RequestOptions = {}): Promise<T> {
    const url = new URL(this.baseUrl + path);
    for (const [name, value] of Object.entries(parts.query ?? {})) {
      if (value !== undefined && value !== null) url.searchParams.set(name, String(value));
    }
    const headers: Record<string, string> = {
      Authorization: `Bearer ${this.#apiKey}`,
      Accept: "application/json",
      "User-Agent": USER_AGENT,
    };
    let body: string | undefined;
    if (parts.csv !== undefined) {
      body = parts.csv;
      headers["Content-Type"] = "text/csv";
    } else if (parts.body !== undefined) {
      body = stringify(parts.body);
      headers["Content-Type"] = "application/json";
    }
    if (method === "POST") headers["Idempotency-Key"] = options.idempotencyKey ?? (await newKey());
    const maxRetries = options.maxRetries ?? this.maxRetries;
    const timeout = options.timeout ?? this.timeout;
    for (let tries = 1; ; tries++) {
      let response: Response;
      let text: string;
      try {
        [response, text] = await this.#send(url, { method, headers, body }, timeout, options.signal);
      } catch (error) {
        if (options.signal?.aborted) throw error;
        const delay = this.#delay(tries, maxRetries, null, null);
        if (delay === null) {
          if (error instanceof Timeout) throw new ApiTimeoutError(`no answer within ${timeout} ms`, { cause: error });
          throw new ApiConnectionError(`could not reach the API: ${String(error)}`, { cause: error });
        }
        await sleep(delay);
        continue;
      }
      const answer = parsed(text);
      const delay = this.#delay(tries, maxRetries, response, answer);
      if (delay === null) {
        if (!response.ok) throw errorOf(response, answer);
        if (answer === null && text !== "") {
          throw new ApiError(response.status, "unexpected_response", `the answer is not JSON: ${text.slice(0, 200)}`, [], null, text);
        }
        return answer as T;
      }
      await sleep(delay);
    }
  }

  /** A list of `T`s at `path`, fetched when awaited or iterated. */
  page<T>(path: string, query: object | undefined, options?: RequestOptions): PagePromise<T> {
    const fetchPage = async (q: Query): Promise<Page<T>> => {
      const answer = await this.request<{ data: T[]; pagination: PaginationView }>("GET", path, { query: q }, options);
      return new Page(fetchPage, q, answer.data, answer.pagination);
    };
    return new PagePromise(() => fetchPage({ ...query }));
  }

  async #send(url: URL, init: RequestInit, timeout: number, signal: AbortSignal | undefined): Promise<[Response, string]> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new Timeout()), timeout);
    const abort = () => controller.abort(signal?.reason);
    signal?.addEventListener("abort", abort);
    try {
      const response = await this.#fetch(url, { ...init, signal: controller.signal });
      return [response, await response.text()];
    } catch (error) {
      throw controller.signal.reason instanceof Timeout ? controller.signal.reason : error;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", abort);
    }
  }

  /** Milliseconds to wait before trying again after the `tries`-th try answered `response` (null:
   * no answer at all), or null when it is not tried again. */
  #delay(tries: number, maxRetries: number, response: Response | null, body: unknown): number | null {
    if (tries > maxRetries) return null;
    if (response !== null) {
      if (!retryable(response, body)) return null;
      const after = retryAfter(response);
      if (after !== null) return after <= LONGEST_RETRY_AFTER_MS ? after : null;
    }
    return Math.min(FIRST_DELAY_MS * 2 ** (tries - 1), LONGEST_DELAY_MS) * (1 - Math.random() / 4);
  }
}

/** What a resource's methods call. */
export class Resource {
  protected readonly client: Core;

  constructor(client: Core) {
    this.client = client;
  }
}
