import { createHash, randomBytes } from "node:crypto";

/**
 * Session tokens: 32 random bytes (256 bits), base64url, in an HttpOnly cookie. Only the SHA-256 is
 * stored, so a read of the sessions table yields nothing a browser could present.
 */
export function newSessionToken(): string {
  return randomBytes(32).toString("base64url");
}

export function hashToken(token: string): Buffer {
  return createHash("sha256").update(token).digest();
}

/**
 * The CSRF token bound to a session: derived from the session token, which only this origin's
 * scripts ever see through this value (the cookie itself is HttpOnly), so another site can neither
 * read nor compute it. Being derived, it needs no storage and is checked before any query.
 */
export function csrfTokenOf(sessionToken: string): string {
  return createHash("sha256").update("pos-csrf\0").update(sessionToken).digest("base64url");
}

/** `__Host-` pins the cookie to this exact origin, path / and Secure; browsers accept it only over https. */
export function sessionCookieName(publicBaseUrl: string): string {
  return isHttps(publicBaseUrl) ? "__Host-pos_session" : "pos_session";
}

const isHttps = (publicBaseUrl: string) => publicBaseUrl.startsWith("https:");

/** The Set-Cookie value that gives the browser a session (Max-Age: the session's absolute lifetime). */
export function sessionCookie(publicBaseUrl: string, token: string, lifetimeMs: number): string {
  const attributes = ["Path=/", "HttpOnly", "SameSite=Lax", `Max-Age=${Math.floor(lifetimeMs / 1000)}`];
  if (isHttps(publicBaseUrl)) {
    attributes.push("Secure");
  }
  return `${sessionCookieName(publicBaseUrl)}=${token}; ${attributes.join("; ")}`;
}

/** The Set-Cookie value that makes the browser forget its session. */
export function clearedSessionCookie(publicBaseUrl: string): string {
  const secure = isHttps(publicBaseUrl) ? "; Secure" : "";
  return `${sessionCookieName(publicBaseUrl)}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${secure}`;
}

/**
 * The cookie a till keeps its device token in when it pairs itself: HttpOnly (page scripts never read
 * the token), SameSite=Strict, and sent only to `POST /v1/session/device` (its Path), so no other
 * request carries it. `__Host-` needs Path=/, so over https the name is `__Secure-`.
 */
export const DEVICE_COOKIE_PATH = "/v1/session/device";
/** Browsers keep a cookie at most 400 days; a till used within that is re-paired by nobody. */
const DEVICE_COOKIE_MAX_AGE_SECONDS = 400 * 86_400;

export function deviceCookieName(publicBaseUrl: string): string {
  return isHttps(publicBaseUrl) ? "__Secure-pos_device" : "pos_device";
}

export function deviceCookie(publicBaseUrl: string, token: string): string {
  const attributes = [
    `Path=${DEVICE_COOKIE_PATH}`,
    "HttpOnly",
    "SameSite=Strict",
    `Max-Age=${DEVICE_COOKIE_MAX_AGE_SECONDS}`,
  ];
  if (isHttps(publicBaseUrl)) {
    attributes.push("Secure");
  }
  return `${deviceCookieName(publicBaseUrl)}=${token}; ${attributes.join("; ")}`;
}
