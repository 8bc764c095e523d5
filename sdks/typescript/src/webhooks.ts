// Verifying Lajan's webhooks with the official Standard Webhooks library, and reading the event.
import { Webhook } from "standardwebhooks";
import { parse } from "./exact-json.js";
import type { Event } from "./types.js";

/** `lajan.webhooks`: what a webhook receiver needs, no request to the API. */
export class Webhooks {
  /**
   * The event a delivery carries, once its signature verifies with the endpoint's `secret`
   * (`whsec_...`); throws standardwebhooks' `WebhookVerificationError` for a bad signature or a
   * timestamp more than five minutes off. Pass the body exactly as received (text or bytes) and the
   * request's headers. Narrow the event by its `type`: `if (event.type === "invoice.paid")` makes
   * `event.data.object` an `InvoiceView`.
   */
  verify(payload: string | Uint8Array, headers: Headers | Record<string, string | string[] | undefined>, secret: string): Event {
    const body = typeof payload === "string" ? payload : new TextDecoder().decode(payload);
    const plain: Record<string, string> = {};
    const entries: Iterable<[string, unknown]> = headers instanceof Headers ? headers.entries() : Object.entries(headers);
    for (const [name, value] of entries) {
      if (typeof value === "string") plain[name.toLowerCase()] = value;
      else if (Array.isArray(value) && typeof value[0] === "string") plain[name.toLowerCase()] = value[0];
    }
    new Webhook(secret).verify(body, plain);
    return parse(body) as Event;
  }
}
