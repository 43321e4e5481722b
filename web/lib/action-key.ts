import { ApiError, newIdempotencyKey } from "./api/client.ts";

/**
 * The one Idempotency-Key rule of the apps' money actions (a sale, a return, a drawer move, a stock
 * change, a payout): a key is made once per user action and KEPT while the API may have done it without
 * the answer arriving (a network error, a 5xx, a request with the same key still in flight), so the
 * retry is the same request and happens once; it is RENEWED after a success or any other refusal (a 4xx
 * is stored against its key: the corrected form is a new action).
 */
export function keepsIdempotencyKey(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    (error.type === "network_error" || error.status >= 500 || error.code === "idempotency_in_flight")
  );
}

/** One action's key: `take()` for each attempt, `settle(error)` after it (undefined: it succeeded). */
export function actionKey(make: () => string = newIdempotencyKey): {
  take: () => string;
  settle: (error?: unknown) => void;
} {
  let key: string | undefined;
  return {
    take: () => {
      key ??= make();
      return key;
    },
    settle: (error) => {
      if (!keepsIdempotencyKey(error)) key = undefined;
    },
  };
}
