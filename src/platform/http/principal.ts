import { createHash, timingSafeEqual } from "node:crypto";
import type { Request, Response } from "express";
import type { Config } from "../config.ts";
import { forbidden, unauthenticated } from "../errors.ts";
import type { ClaimRequest } from "../idempotency/service.ts";
import type { Metrics } from "../telemetry/metrics.ts";
import type { Tenant } from "../tenant.ts";
import { acceptsSessions, authorize } from "./access.ts";
import {
  type ApiKeyAuthenticator,
  authenticateAdmin,
  authenticateApiKey,
  type RateLimitState,
  rateLimited,
  setRateLimitHeaders,
} from "./authentication.ts";
import type { RequestClient, RouteAuth } from "./route.ts";

/** What the sessions module answers for a presented session token and the world the request chose. */
export type SessionVerdict =
  | { kind: "unknown" }
  | { kind: "inactive"; tenant: Tenant }
  | { kind: "accepted"; tenant: Tenant; rateLimit: RateLimitState }
  | { kind: "rate_limited"; tenant: Tenant; rateLimit: RateLimitState };

/**
 * Browser sessions, as the HTTP platform sees them. The sessions module owns the tokens; the platform
 * only finds the cookie, checks the request's origin and CSRF token before anything runs, and reads
 * the world the request asks for.
 */
export type SessionAuthenticator = {
  /** `__Host-pos_session` when the public base URL is https, `pos_session` otherwise. */
  cookieName: string;
  /** The CSRF token bound to a session token (sent back in the `Pos-Csrf-Token` header). */
  csrfTokenOf: (sessionToken: string) => string;
  /**
   * Looks the session up (refusing expired and revoked ones) and takes one request of the merchant's
   * rate limit; `managerApproval` is the request's `Pos-Manager-Approval` header, when sent.
   */
  authenticate: (
    sessionToken: string,
    request: { livemode: boolean; managerApproval: string | undefined },
  ) => Promise<SessionVerdict>;
};

export const CSRF_HEADER = "pos-csrf-token";
export const WORLD_HEADER = "pos-world";
export const MANAGER_APPROVAL_HEADER = "pos-manager-approval";

export type PrincipalDependencies = {
  authenticate: ApiKeyAuthenticator;
  sessions?: SessionAuthenticator;
  metrics: Metrics;
  config: Pick<Config, "adminToken" | "publicBaseUrl">;
};

/** The merchant request's principal (undefined on `admin` and `none` routes), and whether its Idempotency-Key was claimed. */
export type ResolvedPrincipal = { tenant: Tenant | undefined; claimed: boolean };

/**
 * Resolves who is calling, once per request, by what the route accepts, then refuses a principal its
 * declared access does not name. A route that takes both keys and sessions takes a Bearer key when the
 * request carries an Authorization header and the session cookie otherwise, so API clients see exactly
 * the key behaviour they always had.
 */
export async function resolvePrincipal(
  auth: RouteAuth,
  request: Request,
  response: Response,
  dependencies: PrincipalDependencies,
  claim: ClaimRequest | undefined,
): Promise<ResolvedPrincipal> {
  if (auth === "none") {
    return { tenant: undefined, claimed: false };
  }
  if (auth === "admin") {
    authenticateAdmin(request, dependencies.config.adminToken);
    return { tenant: undefined, claimed: false };
  }
  const takesKey =
    auth.keys !== undefined &&
    (!acceptsSessions(auth) ||
      request.get("authorization") !== undefined ||
      sessionTokenOf(request, dependencies.sessions) === undefined);
  if (takesKey) {
    // A test-only route claims no key in authentication: a live key is refused after it, and must not
    // leave a claim behind.
    const resolved = await authenticateApiKey(
      request,
      response,
      dependencies,
      auth.keys === "both" ? claim : undefined,
    );
    authorize(auth, resolved.tenant);
    return resolved;
  }
  const tenant = await authenticateSession(request, response, dependencies);
  authorize(auth, tenant);
  return { tenant, claimed: false };
}

const STATE_CHANGING_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

async function authenticateSession(
  request: Request,
  response: Response,
  dependencies: PrincipalDependencies,
): Promise<Tenant> {
  const sessions = dependencies.sessions;
  const token = sessionTokenOf(request, sessions);
  if (sessions === undefined || token === undefined) {
    throw unauthenticated("missing_session", "Sign in first: this request needs a dashboard session.");
  }
  if (STATE_CHANGING_METHODS.has(request.method)) {
    checkOrigin(request, dependencies.config.publicBaseUrl);
    if (!sameSecret(request.get(CSRF_HEADER) ?? "", sessions.csrfTokenOf(token))) {
      throw forbidden("csrf_token_invalid", "Send the session's CSRF token in the Pos-Csrf-Token header.");
    }
  }
  const verdict = await sessions.authenticate(token, {
    livemode: worldOf(request),
    managerApproval: request.get(MANAGER_APPROVAL_HEADER),
  });
  switch (verdict.kind) {
    case "unknown":
      throw unauthenticated("session_expired", "The session has ended or is not valid: sign in again.");
    case "inactive":
      throw forbidden("merchant_inactive", `The merchant account is ${verdict.tenant.merchant.status}, not active.`);
    case "accepted":
      setRateLimitHeaders(response, verdict.rateLimit);
      return verdict.tenant;
    case "rate_limited":
      setRateLimitHeaders(response, verdict.rateLimit);
      dependencies.metrics.rateLimitedRequestsTotal.inc();
      throw rateLimited(verdict.rateLimit);
  }
}

/** The world a session request chose with `Pos-World: test|live`; test when absent. */
function worldOf(request: Request): boolean {
  const world = request.get(WORLD_HEADER);
  if (world === undefined || world === "test") {
    return false;
  }
  if (world === "live") {
    return true;
  }
  throw forbidden("world_invalid", "The Pos-World header must be 'test' or 'live'.");
}

/**
 * A state-changing session request must come from the API's own origin: the configured public one, or
 * in development (an http base URL) the one the request was addressed to (a browser cannot forge Host
 * for another site's page).
 */
function checkOrigin(request: Request, publicBaseUrl: string): void {
  if (!isSameOrigin(request, publicBaseUrl)) {
    throw forbidden("origin_invalid", "This request must come from the dashboard's own origin.");
  }
}

function isSameOrigin(request: Request, publicBaseUrl: string): boolean {
  const origin = request.get("origin");
  if (origin === undefined) {
    return false;
  }
  try {
    // Scheme, host and port. Served over https, only the configured origin is ours: an http page of
    // the same host is another origin (anyone on the network path can write it), and behind a proxy
    // that ends TLS the request itself says http. Over http (development), the address the request
    // was sent to is ours too (localhost and 127.0.0.1 alike).
    const url = new URL(origin);
    const configured = new URL(publicBaseUrl);
    if (url.origin === configured.origin) {
      return true;
    }
    return configured.protocol === "http:" && url.origin === `http://${request.get("host")}`;
  } catch {
    // An Origin that is not a URL ("null") is not ours.
    return false;
  }
}

/** The request's sender, for the handler context. */
export function clientOf(request: Request, publicBaseUrl: string): RequestClient {
  return {
    address: request.ip,
    userAgent: request.get("user-agent"),
    origin: request.get("origin"),
    get sameOrigin() {
      return isSameOrigin(request, publicBaseUrl);
    },
    cookie: (name) => cookieValue(request.get("cookie"), name),
  };
}

function sessionTokenOf(request: Request, sessions: SessionAuthenticator | undefined): string | undefined {
  if (sessions === undefined) {
    return undefined;
  }
  return cookieValue(request.get("cookie"), sessions.cookieName);
}

/** The value of one cookie in a Cookie header (no dependency: the header's grammar is `name=value; …`). */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (header === undefined) {
    return undefined;
  }
  for (const pair of header.split(";")) {
    const separator = pair.indexOf("=");
    if (separator > 0 && pair.slice(0, separator).trim() === name) {
      const value = pair.slice(separator + 1).trim();
      return value === "" ? undefined : value;
    }
  }
  return undefined;
}

/** Constant-time comparison; hashing both sides gives the equal lengths timingSafeEqual needs. */
function sameSecret(presented: string, expected: string): boolean {
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(presented), digest(expected));
}
