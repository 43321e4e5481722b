import { computed, signal } from "@preact/signals";
import { apiReachable } from "../../lib/session.ts";

/**
 * Whether the till can count on the API now: the browser says it is online and the last request did
 * not fail for the network. Cash sells either way (through the outbox); a wallet payment needs it.
 */
export const browserOnline = signal(navigator.onLine);

addEventListener("online", () => {
  browserOnline.value = true;
});
addEventListener("offline", () => {
  browserOnline.value = false;
});

export const networkUp = computed(() => browserOnline.value && apiReachable.value);
