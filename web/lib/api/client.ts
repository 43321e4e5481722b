/**
 * The browser apps' one client of the /v1 API: same origin, the session cookie (sent by the browser,
 * never readable here), the session's CSRF token on every state-changing request, the world in the
 * Pos-World header, an Idempotency-Key per money action, the error envelope as a typed error, and
 * cursor pages. No key ever reaches the browser.
 */

/** A world by name, as the Pos-World header carries it (src's `World` is a merchant and its livemode). */
export type WorldName = "test" | "live";

export type ErrorType =
  | "invalid_request"
  | "auth_error"
  | "insufficient_funds"
  | "rate_limited"
  | "api_error"
  | "gateway_error"
  | "network_error";

/** An answer other than 2xx, as the API's error envelope describes it. */
export class ApiError extends Error {
  override name = "ApiError";
  readonly status: number;
  readonly type: ErrorType;
  readonly code: string;
  /** Seconds to wait, from Retry-After (429). */
  readonly retryAfterSeconds: number | undefined;

  constructor(options: { status: number; type: ErrorType; code: string; message: string; retryAfterSeconds?: number }) {
    super(options.message);
    this.status = options.status;
    this.type = options.type;
    this.code = options.code;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

export type Page<T> = { data: T[]; has_more: boolean; next_cursor: string | null };

type Query = Record<string, string | number | boolean | undefined>;

export type RequestOptions = {
  query?: Query;
  body?: unknown;
  /** A body that is not JSON (a CSV file), sent as is with its media type. */
  text?: { contentType: string; body: string };
  /** The world of this request; the client's current world when absent. */
  world?: WorldName;
  /** Sends this Idempotency-Key (make it once per user action, so a retry reuses it). */
  idempotencyKey?: string;
  /** Cancels the request (a waiting request the screen no longer needs). */
  signal?: AbortSignal;
  /** A manager's approval token for this one request (the till's `Pos-Manager-Approval`). */
  managerApproval?: string;
};

export type ApiClient = {
  request: <T>(method: "GET" | "POST" | "PATCH" | "DELETE", path: string, options?: RequestOptions) => Promise<T>;
  get: <T>(path: string, options?: RequestOptions) => Promise<T>;
  post: <T>(path: string, body?: unknown, options?: RequestOptions) => Promise<T>;
  delete: <T>(path: string, options?: RequestOptions) => Promise<T>;
  /** A GET whose answer is a file (a CSV statement): its bytes and the name the server gave it. */
  download: (path: string, options?: RequestOptions) => Promise<DownloadedFile>;
};

export type DownloadedFile = { blob: Blob; filename: string | undefined };

export type ApiClientOptions = {
  world: () => WorldName;
  csrfToken: () => string | undefined;
  /** Called when the API says the session is gone (401), so the app can show sign-in. */
  onSignedOut?: () => void;
  /** Told after every exchange whether the API answered at all (false: a network error), for offline screens. */
  onReachable?: (reachable: boolean) => void;
  fetch?: typeof fetch;
};

export function createApiClient(options: ApiClientOptions): ApiClient {
  const send = options.fetch ?? ((input, init) => fetch(input, init));
  async function exchange(
    method: "GET" | "POST" | "PATCH" | "DELETE",
    path: string,
    request: RequestOptions,
    accept: string,
  ): Promise<Response> {
    const headers = headersOf(method, request, accept, options);
    let response: Response;
    try {
      response = await send(pathWithQuery(path, request.query), {
        method,
        headers,
        credentials: "same-origin",
        signal: request.signal,
        body: request.body === undefined ? request.text?.body : JSON.stringify(request.body),
      });
    } catch {
      // A request the app cancelled says nothing about the network.
      if (request.signal?.aborted !== true) options.onReachable?.(false);
      throw new ApiError({
        status: 0,
        type: "network_error",
        code: "network_error",
        message: "The server could not be reached. Check the connection and try again.",
      });
    }
    options.onReachable?.(true);
    if (!response.ok) {
      const error = errorOf(response, await response.json().catch(() => undefined));
      // A wrong cashier PIN is a 401 of its own: the session is fine.
      if (error.status === 401 && path !== "/v1/session" && error.code !== "invalid_pin") {
        options.onSignedOut?.();
      }
      throw error;
    }
    return response;
  }
  async function request<T>(method: "GET" | "POST" | "PATCH" | "DELETE", path: string, request: RequestOptions = {}) {
    const response = await exchange(method, path, request, "application/json");
    return (await response.json().catch(() => undefined)) as T;
  }
  return {
    request,
    get: (path, options) => request("GET", path, options),
    post: (path, body, options) => request("POST", path, { ...options, body }),
    delete: (path, options) => request("DELETE", path, options),
    download: async (path, options = {}) => {
      const response = await exchange("GET", path, options, "*/*");
      return { blob: await response.blob(), filename: filenameOf(response.headers.get("Content-Disposition")) };
    },
  };
}

/** A request's headers: what it accepts, its world, the CSRF token of a write, its body's type, and its keys. */
function headersOf(
  method: "GET" | "POST" | "PATCH" | "DELETE",
  request: RequestOptions,
  accept: string,
  options: ApiClientOptions,
): Record<string, string> {
  const headers: Record<string, string> = {
    Accept: accept,
    "Pos-World": request.world ?? options.world(),
  };
  const csrf = options.csrfToken();
  if (method !== "GET" && csrf !== undefined) {
    headers["Pos-Csrf-Token"] = csrf;
  }
  if (request.body !== undefined) {
    headers["Content-Type"] = "application/json";
  } else if (request.text !== undefined) {
    headers["Content-Type"] = request.text.contentType;
  }
  if (request.idempotencyKey !== undefined) {
    headers["Idempotency-Key"] = request.idempotencyKey;
  }
  if (request.managerApproval !== undefined) {
    headers["Pos-Manager-Approval"] = request.managerApproval;
  }
  return headers;
}

/** The file name of `Content-Disposition: attachment; filename="…"`, when there is one. */
function filenameOf(disposition: string | null): string | undefined {
  return disposition?.match(/filename="([^"]+)"/)?.[1];
}

function pathWithQuery(path: string, query: Query | undefined): string {
  if (query === undefined) {
    return path;
  }
  const parameters = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== "") {
      parameters.set(name, String(value));
    }
  }
  const text = parameters.toString();
  return text === "" ? path : `${path}?${text}`;
}

function errorOf(response: Response, payload: unknown): ApiError {
  const envelope = (payload as { error?: { type?: ErrorType; code?: string; message?: string } } | undefined)?.error;
  const retryAfter = Number(response.headers.get("Retry-After"));
  return new ApiError({
    status: response.status,
    type: envelope?.type ?? "api_error",
    code: envelope?.code ?? "unexpected_response",
    message: envelope?.message ?? `The server answered ${response.status}.`,
    retryAfterSeconds: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined,
  });
}

/** An Idempotency-Key for one user action. */
export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}
