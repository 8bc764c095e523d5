// The Lajan API's TypeScript library: `new Lajan({ apiKey })`, then `lajan.invoices.create({...})`.
export { Lajan } from "./lajan.js";
export { DEFAULT_BASE_URL, type ClientOptions, type RequestOptions } from "./core.js";
export {
  ApiConnectionError,
  ApiError,
  ApiTimeoutError,
  AuthenticationError,
  ConflictError,
  LajanError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  ValidationError,
} from "./errors.js";
export { Page, PagePromise } from "./pagination.js";
export * from "./resources.js";
export type * from "./types.js";
export { VERSION } from "./version.js";
export { Webhooks } from "./webhooks.js";
