import { createHash, timingSafeEqual } from "node:crypto";
import type { Request, Response } from "express";
import { ApiError, forbidden, unauthenticated } from "../errors.ts";
import type { ClaimRequest } from "../idempotency/service.ts";
import type { Metrics } from "../telemetry/metrics.ts";
import type { Tenant } from "../tenant.ts";

/** What the merchants module answers for a presented secret key (see `authenticateApiKey` in the merchants queries). */
export type ApiKeyVerdict =
  | { kind: "unknown" }
  | { kind: "revoked" }
  | { kind: "inactive"; tenant: Tenant }
  | {
      kind: "accepted";
      tenant: Tenant;
      rateLimit: RateLimitState;
      /** The Idempotency-Key given to the authenticator was claimed for this request. */
      claimed: boolean;
    }
  | { kind: "rate_limited"; tenant: Tenant; rateLimit: RateLimitState };

export type RateLimitState = { limit: number; windowMs: number; remaining: number; resetMs: number };

/**
 * Looks a secret key up and takes one request from its merchant's rate limit, in one round trip; for
 * a money POST, also claims its Idempotency-Key in that round trip when the request is accepted.
 */
export type ApiKeyAuthenticator = (secretKey: string, claim?: ClaimRequest) => Promise<ApiKeyVerdict>;

const SECRET_KEY_PATTERN = /^sk_(test|live)_[0-9A-Za-z]{32}$/;

function bearerToken(request: Request): string | undefined {
  const header = request.get("authorization");
  if (header === undefined) {
    return undefined;
  }
  const match = /^Bearer +(\S+) *$/i.exec(header);
  return match?.[1] ?? "";
}

/**
 * Authenticates a /v1 request and applies the rate limit. Sets the `RateLimit-*` headers for every
 * request of a known, active merchant (accepted or refused), and `Retry-After` on 429.
 */
export async function authenticateApiKey(
  request: Request,
  response: Response,
  options: { authenticate: ApiKeyAuthenticator; metrics: Metrics },
  claim?: ClaimRequest,
): Promise<{ tenant: Tenant; claimed: boolean }> {
  const secretKey = bearerToken(request);
  if (secretKey === undefined || secretKey === "") {
    throw unauthenticated(
      "missing_api_key",
      "No API key provided. Send it as 'Authorization: Bearer sk_test_…' or 'Bearer sk_live_…'.",
    );
  }
  // A string that cannot be a key is refused without a database query.
  const verdict = SECRET_KEY_PATTERN.test(secretKey)
    ? await options.authenticate(secretKey, claim)
    : { kind: "unknown" as const };
  switch (verdict.kind) {
    case "unknown":
      throw unauthenticated("invalid_api_key", "The API key is not valid.");
    case "revoked":
      throw unauthenticated("api_key_revoked", "The API key has been revoked.");
    case "inactive":
      throw forbidden("merchant_inactive", `The merchant account is ${verdict.tenant.merchant.status}, not active.`);
    case "accepted":
      setRateLimitHeaders(response, verdict.rateLimit);
      return { tenant: verdict.tenant, claimed: verdict.claimed };
    case "rate_limited":
      setRateLimitHeaders(response, verdict.rateLimit);
      options.metrics.rateLimitedRequestsTotal.inc();
      throw rateLimited(verdict.rateLimit);
  }
}

/** The 429 of a merchant's rate limit, whatever authenticated the request. */
export function rateLimited(state: RateLimitState): ApiError {
  const retryAfterSeconds = Math.max(1, Math.ceil(state.resetMs / 1000));
  return new ApiError({
    status: 429,
    type: "rate_limited",
    code: "rate_limited",
    message: `Too many requests: at most ${state.limit} per ${state.windowMs / 1000} seconds per merchant. Retry after ${retryAfterSeconds} s.`,
    headers: { "Retry-After": String(retryAfterSeconds) },
  });
}

export function setRateLimitHeaders(response: Response, state: RateLimitState): void {
  response.set({
    "RateLimit-Limit": String(state.limit),
    "RateLimit-Remaining": String(state.remaining),
    "RateLimit-Reset": String(Math.ceil(state.resetMs / 1000)),
    "RateLimit-Policy": `${state.limit};w=${Math.round(state.windowMs / 1000)}`,
  });
}

/** Operator API: `Authorization: Bearer <ADMIN_TOKEN>`, compared in constant time; off when unset. */
export function authenticateAdmin(request: Request, adminToken: string | undefined): void {
  if (adminToken === undefined) {
    throw forbidden("admin_api_disabled", "The operator API is disabled: ADMIN_TOKEN is not configured.");
  }
  const presented = bearerToken(request);
  if (presented === undefined || presented === "") {
    throw unauthenticated("missing_admin_token", "Send the operator token as 'Authorization: Bearer <ADMIN_TOKEN>'.");
  }
  // Hashing both sides gives equal lengths, which timingSafeEqual requires, without leaking the length.
  const digest = (value: string) => createHash("sha256").update(value).digest();
  if (!timingSafeEqual(digest(presented), digest(adminToken))) {
    throw unauthenticated("invalid_admin_token", "The operator token is not valid.");
  }
}
