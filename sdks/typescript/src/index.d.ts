// The types of the Lajan client (src/index.js).
import type { Client, FetchOptions } from "openapi-fetch";
import type { components, paths } from "./schema.js";

export type { components, paths };
export type Schemas = components["schemas"];

/** Every answer other than 2xx, in the API's error shape. */
export declare class LajanError extends Error {
  /** The HTTP status. */
  readonly statusCode: number;
  /** Stable and machine-readable, e.g. `validation_error`. */
  readonly code: string;
  readonly message: string;
  /** The fields at fault. */
  readonly details: Schemas["FieldDetail"][];
  /** X-Request-Id, for support. */
  readonly requestId: string | null;
}

type ListPath = {
  [P in keyof paths]: paths[P] extends {
    get: { responses: { 200: { content: { "application/json": { data: unknown[]; pagination: unknown } } } } };
  }
    ? P
    : never;
}[keyof paths];
type ListOperation<P extends ListPath> = paths[P]["get"];
type ItemOf<P extends ListPath> = ListOperation<P>["responses"][200]["content"]["application/json"]["data"][number];

export interface LajanClient extends Client<paths> {
  /** Every item of a list, page after page (`params.query.limit` up to 100 per request). */
  paginate<P extends ListPath>(path: P, options?: FetchOptions<ListOperation<P>>): AsyncGenerator<ItemOf<P>>;
  /** A draft disbursement from a CSV file (header row naming any of clientId, walletAccountId,
   * assetAmount, memo, externalId). */
  createDisbursementFromCsv(
    csv: string,
    options: { name: string; assetCode: string; assetIssuer?: string; idempotencyKey?: string },
  ): Promise<Schemas["DisbursementView"]>;
}

/** A client of the Lajan API; every method throws `LajanError` on a refusal, and every POST
 * carries an Idempotency-Key (yours in `headers`, else a new UUID). */
export declare function createLajan(options: {
  baseUrl: string;
  apiKey: string;
  /** Another fetch (a proxy, a test double); answers are still read exactly. */
  fetch?: (request: Request) => Promise<Response>;
}): LajanClient;

/** The event of a delivery whose signature the secret verifies (official `standardwebhooks`). */
export declare function verifyWebhook(
  secret: string,
  payload: string | Uint8Array,
  headers: Headers | Record<string, string>,
): Promise<Schemas["EventView"]>;
