// What a failed call throws: one class per kind of refusal, all `LajanError`s.
import type { FieldDetail } from "./types.js";

/** Every error this library throws. */
export class LajanError extends Error {
  override name = "LajanError";
}

/** The API could not be reached, or did not answer in time, on every try. */
export class ApiConnectionError extends LajanError {
  override name = "ApiConnectionError";
}

/** The API did not answer within the timeout, on every try. */
export class ApiTimeoutError extends ApiConnectionError {
  override name = "ApiTimeoutError";
}

/**
 * An answer other than 2xx, in the API's error shape: `status`; `code`, stable and
 * machine-readable (`validation_error`); `message`, for a person; `details`, the fields at fault;
 * `requestId`, the `X-Request-Id` to quote when asking for help; `body`, the answer as it came.
 */
export class ApiError extends LajanError {
  override name = "ApiError";
  readonly status: number;
  readonly code: string;
  readonly details: FieldDetail[];
  readonly requestId: string | null;
  readonly body: unknown;

  constructor(status: number, code: string, message: string, details: FieldDetail[], requestId: string | null, body: unknown) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details;
    this.requestId = requestId;
    this.body = body;
  }
}

/** 400 or 422: the request was refused as written; nothing changed. `details` names each field. */
export class ValidationError extends ApiError {
  override name = "ValidationError";
}

/** 401: the key is missing, unknown or revoked. */
export class AuthenticationError extends ApiError {
  override name = "AuthenticationError";
}

/** 403: the key lacks the scope, or the environment, this operation needs. */
export class PermissionError extends ApiError {
  override name = "PermissionError";
}

/** 404: no such object in this key's organization and environment. */
export class NotFoundError extends ApiError {
  override name = "NotFoundError";
}

/** 409: the object's state does not allow this now (an invoice already paid, say). */
export class ConflictError extends ApiError {
  override name = "ConflictError";
}

/** 429: over the rate limit, on every try; `retryAfter` says how many seconds to wait. */
export class RateLimitError extends ApiError {
  override name = "RateLimitError";
  retryAfter: number | null = null;
}

const BY_STATUS: Record<number, typeof ApiError> = {
  400: ValidationError,
  401: AuthenticationError,
  403: PermissionError,
  404: NotFoundError,
  409: ConflictError,
  422: ValidationError,
  429: RateLimitError,
};

export function errorClass(status: number): typeof ApiError {
  return BY_STATUS[status] ?? ApiError;
}
