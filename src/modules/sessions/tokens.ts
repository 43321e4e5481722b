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
