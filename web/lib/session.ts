import { computed, signal } from "@preact/signals";
import { type ApiClient, ApiError, createApiClient, type WorldName } from "./api/client.ts";
import type { components } from "./api/generated.ts";

/**
 * The signed-in session of a browser app (dashboard or till), as signals: the session the API
 * answered (user, merchant, CSRF token, expiry), the chosen world, and one API client that carries
 * both. Sign-in, sign-out and the world switch live here so both apps share them.
 */
/** The session the API answers (user, merchant, CSRF token, expiry, the till's cashier and device). */
export type Session = components["schemas"]["Session"];

/** Which app a session is for: the dashboard's ends when idle, the till's lasts a shift. */
export type SessionKind = Session["kind"];

/** undefined: not known yet (the first GET /v1/session is in flight); null: signed out. */
export const session = signal<Session | null | undefined>(undefined);

const WORLD_STORAGE_KEY = "pos.world";
export const world = signal<WorldName>(readWorld());

/** LIVE is only for an active merchant (the API refuses it otherwise). */
export const liveAvailable = computed(() => session.value?.merchant.status === "active");

function readWorld(): WorldName {
  try {
    return sessionStorage.getItem(WORLD_STORAGE_KEY) === "live" ? "live" : "test";
  } catch {
    return "test";
  }
}

export function setWorld(next: WorldName): void {
  world.value = next;
  try {
    sessionStorage.setItem(WORLD_STORAGE_KEY, next);
  } catch {
    // Storage refused (private mode): the choice lasts for this page only.
  }
}

/** Whether the API answered the last request (false after a network error): a till offline shows it. */
export const apiReachable = signal(true);

export const api: ApiClient = createApiClient({
  world: () => (world.value === "live" && liveAvailable.value ? "live" : "test"),
  csrfToken: () => session.value?.csrf_token,
  onSignedOut: () => {
    session.value = null;
  },
  onReachable: (reachable) => {
    apiReachable.value = reachable;
  },
});

/** Asks the API whether the browser has a session (on start). */
export async function loadSession(): Promise<void> {
  try {
    session.value = await api.get<Session>("/v1/session", { world: "test" });
  } catch (error) {
    if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
      session.value = null;
      return;
    }
    throw error;
  }
}

export async function signIn(credentials: {
  email: string;
  password: string;
  kind: SessionKind;
  otp?: string | undefined;
}): Promise<Session> {
  const signedIn = await api.post<Session>("/v1/session", credentials, { world: "test" });
  session.value = signedIn;
  return signedIn;
}

export async function signOut(): Promise<void> {
  try {
    await api.delete("/v1/session", { world: "test" });
  } finally {
    session.value = null;
    setWorld("test");
  }
}

/**
 * Enters the password again (and the authenticator code, with two-factor sign-in on); afterwards live
 * keys can be minted for a few minutes.
 */
export async function stepUp(password: string, otp?: string): Promise<void> {
  const body = otp === undefined || otp === "" ? { password } : { password, otp };
  session.value = await api.post<Session>("/v1/session/step_up", body, { world: "test" });
}
