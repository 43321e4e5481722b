import { signal } from "@preact/signals";
import {
  ApiError,
  createApiClient,
  pairTillDevice,
  revokeTillDeviceAsOwner,
  signInOwner,
  signOutOwner,
  startDeviceSession,
} from "../../lib/api.ts";
import { loadSession, session } from "../../lib/session.ts";
import { unsyncedSales } from "../offline/index.ts";

/**
 * Pairing: the owner signs in once at the till with the dashboard credentials and pairs it
 * (`POST /v1/till_devices` with `keep_in_cookie`). The server keeps the device token in an HttpOnly,
 * SameSite=Strict cookie sent only to `POST /v1/session/device`, so no script of the page ever reads
 * it; the till then opens its sessions with that cookie and the owner's password is not typed again.
 *
 * The browser keeps only what is not secret: which device this is (id and name), to know that a
 * device session is worth asking for (an unpaired till asks nothing) and to name its drawer.
 */
export type PairedDevice = { id: string; name: string };

const DEVICE_STORAGE_KEY = "till.device";

export const pairedDevice = signal<PairedDevice | undefined>(readDevice());

function readDevice(): PairedDevice | undefined {
  try {
    const stored = JSON.parse(localStorage.getItem(DEVICE_STORAGE_KEY) ?? "null") as PairedDevice | null;
    return stored === null || typeof stored.id !== "string" ? undefined : stored;
  } catch {
    return undefined;
  }
}

function rememberDevice(device: PairedDevice | undefined): void {
  pairedDevice.value = device;
  try {
    if (device === undefined) localStorage.removeItem(DEVICE_STORAGE_KEY);
    else localStorage.setItem(DEVICE_STORAGE_KEY, JSON.stringify({ id: device.id, name: device.name }));
  } catch {
    // Storage refused: the pairing lasts for this page; the cookie still opens the next session.
  }
}

/** True while the till asks for a device session (the sign-in screen waits for the answer). */
export const openingDeviceSession = signal(false);

/**
 * Set when a till that was paired finds its device refused (unpaired from the dashboard, or every till
 * unpaired by a password change or "sign out everywhere"): the sign-in screen says so.
 */
export const unpairedNotice = signal<string | undefined>(undefined);

/**
 * Opens a till session with the device cookie. An unknown or unpaired device (`device_invalid`) is
 * forgotten, so the till falls back to the sign-in screen and asks no more.
 */
export async function openDeviceSession(): Promise<boolean> {
  openingDeviceSession.value = true;
  try {
    await startDeviceSession();
    await loadSession();
    return session.value !== null && session.value !== undefined;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      if (pairedDevice.value !== undefined) {
        unpairedNotice.value = `This till (${pairedDevice.value.name}) is no longer paired: it was unpaired from the dashboard, or the owner changed the password or signed out everywhere. Pair it again to use it.`;
      }
      rememberDevice(undefined);
      session.value = null;
      return false;
    }
    throw error;
  } finally {
    openingDeviceSession.value = false;
  }
}

/** An owner's dashboard session just for this action, held by this function only (its CSRF token too). */
async function asOwner<T>(
  credentials: { email: string; password: string; otp?: string | undefined },
  action: OwnerAction<T>,
): Promise<T> {
  let csrf: string | undefined;
  const owner = createApiClient({ world: () => "test", csrfToken: () => csrf });
  const signedIn = await signInOwner(owner, { ...credentials, kind: "dashboard" });
  csrf = signedIn.csrf_token;
  return action(owner);
}
type OwnerAction<T> = (owner: ReturnType<typeof createApiClient>) => Promise<T>;

/**
 * Pairs this browser as a till, the only way a till is signed in: a dashboard session (a fresh
 * password: the step-up window is open), the pairing (the device cookie is set by the answer), then a
 * device session, which also ends the dashboard session (the server revokes the session the browser
 * presented). The owner's password is typed here once; the till then holds no owner's power.
 */
export async function pairThisTill(input: {
  email: string;
  password: string;
  otp?: string | undefined;
  name: string;
}): Promise<void> {
  const device = await asOwner({ email: input.email, password: input.password, otp: input.otp }, (owner) =>
    pairTillDevice(owner, { name: input.name, keep_in_cookie: true }),
  );
  rememberDevice({ id: device.id, name: device.name });
  unpairedNotice.value = undefined;
  if (!(await openDeviceSession())) {
    throw new Error("The till was paired but could not open its session. Reload the page.");
  }
}

/**
 * The owner unpairs this till (password again): its token is refused and its sessions end at once.
 * Unsynced sales must be sent or exported first (`exported`).
 */
export async function unpairThisTill(password: string, exported: boolean): Promise<void> {
  const device = pairedDevice.value;
  const email = session.value?.user.email;
  if (device === undefined || email === undefined) return;
  if (unsyncedSales.value > 0 && !exported) {
    throw new Error(`${unsyncedSales.value} sale(s) taken offline are not on the server yet: wait, or export them.`);
  }
  await asOwner({ email, password }, async (owner) => {
    await revokeTillDeviceAsOwner(owner, device.id);
    // The owner's dashboard session has done its one job.
    await signOutOwner(owner).catch(() => {});
  });
  rememberDevice(undefined);
  session.value = null;
}
