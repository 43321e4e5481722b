/**
 * The one error type of the API. Modules throw `ApiError`s built by the helpers below; the HTTP
 * error handler turns them into the specification's envelope `{error: {type, code, message}}`.
 * Anything else that escapes a handler is a bug, answered as a generic 500 `api_error`.
 */

export type ErrorType =
  | "invalid_request"
  | "auth_error"
  | "insufficient_funds"
  | "rate_limited"
  | "api_error"
  | "gateway_error";

export type ErrorEnvelope = { error: { type: ErrorType; code: string; message: string } };

export class ApiError extends Error {
  override name = "ApiError";
  readonly status: number;
  readonly type: ErrorType;
  readonly code: string;
  /** Extra response headers, such as `Retry-After` for 429. */
  readonly headers: Readonly<Record<string, string>>;
  /**
   * The same request, sent again with the same Idempotency-Key, may succeed: it is not a new request
   * (a manager's approval comes with the till's retry; a request in flight finishes). An idempotent
   * route then releases the key instead of storing this answer, as after a 5xx.
   */
  readonly retryWithSameKey: boolean;

  constructor(options: {
    status: number;
    type: ErrorType;
    code: string;
    message: string;
    headers?: Record<string, string>;
    retryWithSameKey?: boolean;
  }) {
    super(options.message);
    this.status = options.status;
    this.type = options.type;
    this.code = options.code;
    this.headers = options.headers ?? {};
    this.retryWithSameKey = options.retryWithSameKey ?? false;
  }

  toEnvelope(): ErrorEnvelope {
    return { error: { type: this.type, code: this.code, message: this.message } };
  }
}

export const invalidRequest = (code: string, message: string) =>
  new ApiError({ status: 400, type: "invalid_request", code, message });

export const notFound = (message = "No such object in this mode.") =>
  new ApiError({ status: 404, type: "invalid_request", code: "resource_missing", message });

export const conflict = (code: string, message: string) =>
  new ApiError({ status: 409, type: "invalid_request", code, message });

export const unauthenticated = (code: string, message: string) =>
  new ApiError({ status: 401, type: "auth_error", code, message });

export const forbidden = (code: string, message: string) =>
  new ApiError({ status: 403, type: "auth_error", code, message });

/** A till's cashier may not do this alone: the retry with a manager's approval is the same request (`retryWithSameKey`). */
export const managerRequired = (message: string) =>
  new ApiError({ status: 403, type: "auth_error", code: "manager_required", message, retryWithSameKey: true });

export const insufficientFunds = (message = "The amount exceeds the available balance; nothing was debited.") =>
  new ApiError({ status: 402, type: "insufficient_funds", code: "insufficient_funds", message });

export const gatewayError = (code: string, message: string) =>
  new ApiError({ status: 502, type: "gateway_error", code, message });

export const internalError = () =>
  new ApiError({
    status: 500,
    type: "api_error",
    code: "internal_error",
    message: "An unexpected error occurred. Retry the request with the same Idempotency-Key.",
  });
