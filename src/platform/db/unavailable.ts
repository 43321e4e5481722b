import { BackendTerminatedError, BackendTerminatedUnexpectedlyError, ConnectionError } from "slonik";
import { ApiError } from "../errors.ts";

/**
 * Recognises the errors that mean "the database cannot be reached right now" (it is down, restarting,
 * shutting down, or it cut the connection), as opposed to a fault of the query or the code. The API
 * answers them 503 so that clients retry, and the worker pools retry their start-up on them.
 */

// SQLSTATEs: class 08 (connection exception), the server shutting down or not yet up (57P01–57P03),
// and a server out of connection slots (53300), which clears by itself like the others.
const UNAVAILABLE_SQLSTATES = new Set([
  "08000",
  "08001",
  "08003",
  "08004",
  "08006",
  "57P01",
  "57P02",
  "57P03",
  "53300",
]);

// Socket-level failures of node-postgres' connection.
const UNAVAILABLE_SOCKET_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
]);

// node-postgres reports a closed or timed-out connection by message only.
const UNAVAILABLE_MESSAGES = [
  "Connection terminated",
  "timeout exceeded when trying to connect",
  "Client has encountered a connection error and is not queryable",
  "Client was closed and is not queryable",
];

/** How many `cause` links to follow: slonik wraps pg's error, which may wrap a socket error. */
const MAX_CAUSE_DEPTH = 5;

export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  // Duck-typed rather than `instanceof Error`: errors of Node's own sockets may come from another realm.
  for (let depth = 0; depth < MAX_CAUSE_DEPTH && typeof current === "object" && current !== null; depth += 1) {
    if (
      current instanceof ConnectionError ||
      current instanceof BackendTerminatedError ||
      current instanceof BackendTerminatedUnexpectedlyError
    ) {
      return true;
    }
    const { code, message, errors, cause } = current as {
      code?: unknown;
      message?: unknown;
      errors?: unknown;
      cause?: unknown;
    };
    if (typeof code === "string" && (UNAVAILABLE_SQLSTATES.has(code) || UNAVAILABLE_SOCKET_CODES.has(code))) {
      return true;
    }
    if (typeof message === "string" && UNAVAILABLE_MESSAGES.some((fragment) => message.includes(fragment))) {
      return true;
    }
    // An AggregateError (several failures at once) is unavailability when any of them is.
    if (Array.isArray(errors) && errors.some((inner) => isDatabaseUnavailable(inner))) {
      return true;
    }
    current = cause;
  }
  return false;
}

/** Seconds a client is asked to wait before retrying: a restart or fail-over takes a few seconds. */
const RETRY_AFTER_SECONDS = 2;

/**
 * The API's answer to a database that cannot be reached: 503 `service_unavailable` with `Retry-After`
 * (the client retries with the same Idempotency-Key), or `undefined` for any other error.
 */
export function databaseUnavailableError(error: unknown): ApiError | undefined {
  if (!isDatabaseUnavailable(error)) {
    return undefined;
  }
  return new ApiError({
    status: 503,
    type: "api_error",
    code: "service_unavailable",
    message: "The service is temporarily unavailable. Retry the request with the same Idempotency-Key.",
    headers: { "Retry-After": String(RETRY_AFTER_SECONDS) },
  });
}
