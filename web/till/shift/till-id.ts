import { session } from "../../lib/session.ts";

/**
 * The till's name for its cash drawer: the paired device's id when the till is paired; otherwise an
 * id made once on this browser and kept in localStorage, so the drawer stays the same through reloads.
 */
const TILL_ID_STORAGE_KEY = "till.id";

let unpairedTillId: string | undefined;

export function tillId(): string {
  const deviceId = session.value?.device_id;
  if (deviceId !== null && deviceId !== undefined) return deviceId;
  unpairedTillId ??= storedTillId();
  return unpairedTillId;
}

function storedTillId(): string {
  try {
    const stored = localStorage.getItem(TILL_ID_STORAGE_KEY);
    if (stored !== null && /^till_[A-Za-z0-9-]{8,64}$/.test(stored)) return stored;
    const made = `till_${crypto.randomUUID()}`;
    localStorage.setItem(TILL_ID_STORAGE_KEY, made);
    return made;
  } catch {
    // Storage refused (private mode): one id for this page's life.
    return `till_${crypto.randomUUID()}`;
  }
}

/** A cash sale's or a return's body, naming this till's drawer: the one place the sell and return screens add it. */
export function withTillId<T extends object>(body: T): T & { till_id: string } {
  return { ...body, till_id: tillId() };
}
