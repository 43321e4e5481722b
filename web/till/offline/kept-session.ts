import { effect, signal } from "@preact/signals";
import { ApiError } from "../../lib/api.ts";
import { loadSession, type Session, session } from "../../lib/session.ts";

/**
 * A till reloaded while the network is down cannot ask the API who is signed in, yet must keep selling
 * for cash. So the browser keeps a copy of the signed-in session's public part (user, merchant, expiry;
 * never the CSRF token) and the till starts from it when the API is unreachable. Nothing is sent with
 * the copy: before the first request the outbox asks the API for the real session (`refreshSession`),
 * and a session that ended meanwhile shows the sign-in screen, the queue kept in the browser.
 */

const STORAGE_KEY = "till.session";

/** True while the session shown is the browser's copy (the API has not confirmed it since the start). */
export const sessionIsKept = signal(false);

effect(() => {
  const current = session.value;
  try {
    if (current === null) {
      localStorage.removeItem(STORAGE_KEY);
    } else if (current !== undefined) {
      localStorage.setItem(STORAGE_KEY, JSON.stringify({ ...current, csrf_token: "" }));
    }
  } catch {
    // Storage refused (private mode): a reload while offline shows the sign-in screen.
  }
});

function keptSession(): Session | undefined {
  try {
    const kept = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? "null") as Session | null;
    return kept !== null && Date.parse(kept.expires_at) > Date.now() ? kept : undefined;
  } catch {
    return undefined;
  }
}

/** Asks the API for the session; confirmed, the browser's copy is no longer what the till runs on. */
export async function refreshSession(): Promise<void> {
  await loadSession();
  sessionIsKept.value = false;
}

/** At start: the API's session, or (the API unreachable) the browser's copy of it, until it expires. */
export async function openSession(): Promise<void> {
  try {
    await refreshSession();
  } catch (error) {
    const offline = error instanceof ApiError && error.type === "network_error";
    const kept = offline ? keptSession() : undefined;
    if (kept === undefined) {
      // Nothing to start from (never signed in here, or the sign-in ended): ask again once online.
      if (offline) addEventListener("online", () => void openSession().catch(() => {}), { once: true });
      throw error;
    }
    sessionIsKept.value = true;
    session.value = kept;
  }
}
