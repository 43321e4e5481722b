/// <reference lib="dom" />
import { actionKey, keepsIdempotencyKey } from "../../web/lib/action-key.ts";
import { ApiError } from "../../web/lib/api/client.ts";

/** The apps' one Idempotency-Key rule (web/lib/action-key.ts), which every money form runs through useAction. */

const refusal = (status: number, code = "invalid_request") =>
  new ApiError({ status, type: status >= 500 ? "api_error" : "invalid_request", code, message: code });
const unreachable = new ApiError({ status: 0, type: "network_error", code: "network_error", message: "offline" });

/** A key maker that counts, so each new key is told from the one before. */
function counted() {
  let made = 0;
  return actionKey(() => `key-${++made}`);
}

test("one key for all the attempts of an action, however often the attempt is taken", () => {
  const key = counted();
  expect(key.take()).toBe("key-1");
  expect(key.take()).toBe("key-1");
});

test("kept across a network error and a 5xx, so the retry is the same request", () => {
  const key = counted();
  key.take();
  key.settle(unreachable);
  expect(key.take()).toBe("key-1");
  key.settle(refusal(503));
  expect(key.take()).toBe("key-1");
  key.settle(refusal(409, "idempotency_in_flight"));
  expect(key.take()).toBe("key-1");
});

test("renewed after a success and after a 4xx: the next attempt is a new action", () => {
  const key = counted();
  key.take();
  key.settle();
  expect(key.take()).toBe("key-2");
  key.settle(refusal(400));
  expect(key.take()).toBe("key-3");
  key.settle(refusal(403, "manager_required"));
  expect(key.take()).toBe("key-4");
  // A failure that is not the API's (a bug, a refusal of the form itself) is not a lost answer either.
  key.settle(new Error("blocked"));
  expect(key.take()).toBe("key-5");
});

test("which failures keep the key", () => {
  expect(
    [unreachable, refusal(500), refusal(502), refusal(409, "idempotency_in_flight")].map(keepsIdempotencyKey),
  ).toEqual([true, true, true, true]);
  expect([refusal(400), refusal(402), refusal(429), new Error("x"), undefined].map(keepsIdempotencyKey)).toEqual([
    false,
    false,
    false,
    false,
    false,
  ]);
});
