import { useEffect, useState } from "preact/hooks";
import { ApiError } from "../../lib/api.ts";
import type { Resource } from "../../lib/resource.ts";

/**
 * How often a page asks again while something on it is still on its way (a payout being paid): often
 * enough that a person sees the change without reloading, rare enough to stay far below the API's rate
 * limit (one GET per 5 s per open page).
 */
export const POLL_INTERVAL_MS = 5000;

/**
 * Asks again every POLL_INTERVAL_MS while `unsettled(value)` holds and hands each answer to `onValue`;
 * stops once nothing is unsettled, or when the returned function is called. A 429 waits as long as
 * Retry-After says; any other failure keeps the last value and tries again an interval later. Free of
 * Preact, so its timing is tested with a fake clock (tests/web).
 */
export function pollWhileUnsettled<T>(options: {
  first: T;
  fetch: () => Promise<T>;
  unsettled: (value: T) => boolean;
  onValue: (value: T) => void;
}): () => void {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const schedule = (value: T, delayMs: number) => {
    if (stopped || !options.unsettled(value)) return;
    timer = setTimeout(async () => {
      try {
        const next = await options.fetch();
        if (stopped) return;
        options.onValue(next);
        schedule(next, POLL_INTERVAL_MS);
      } catch (caught) {
        const waitMs =
          caught instanceof ApiError && caught.status === 429 ? (caught.retryAfterSeconds ?? 60) * 1000 : 0;
        schedule(value, Math.max(POLL_INTERVAL_MS, waitMs));
      }
    }, delayMs);
  };
  schedule(options.first, POLL_INTERVAL_MS);
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

/** A loaded resource kept fresh by pollWhileUnsettled, its new values shown without a "Loading…" flash. */
export function usePolled<T>(
  resource: Resource<T>,
  fetch: () => Promise<T>,
  unsettled: (value: T) => boolean,
): Resource<T> {
  const [fresh, setFresh] = useState<{ from: Resource<T>; value: T } | undefined>(undefined);
  useEffect(() => {
    if (resource.state !== "loaded") return;
    return pollWhileUnsettled({
      first: resource.value,
      fetch,
      unsettled,
      onValue: (value) => setFresh({ from: resource, value }),
    });
  }, [resource]);
  // A fresh value belongs to the load it followed; a new load (another page) starts from its own.
  return fresh !== undefined && fresh.from === resource ? { state: "loaded", value: fresh.value } : resource;
}
