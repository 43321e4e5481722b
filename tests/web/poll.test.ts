/// <reference lib="dom" />
import { jest } from "@jest/globals";
import { POLL_INTERVAL_MS, pollWhileUnsettled } from "../../web/dashboard/components/polled.ts";
import { ApiError } from "../../web/lib/api.ts";

/** The dashboard's polling (payout statuses) on a fake clock: when it asks, and when it stops. */

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

/** Runs the timers due in `ms` and lets the answered promises settle. */
const pass = async (ms: number) => {
  await jest.advanceTimersByTimeAsync(ms);
};

test("asks every interval while something is unsettled, and stops once nothing is", async () => {
  const answers = ["pending", "pending", "done"];
  const fetch = jest.fn(async () => answers.shift() ?? "done");
  const seen: string[] = [];
  pollWhileUnsettled({
    first: "pending",
    fetch,
    unsettled: (value) => value === "pending",
    onValue: (v) => seen.push(v),
  });
  await pass(POLL_INTERVAL_MS - 1);
  expect(fetch).toHaveBeenCalledTimes(0);
  await pass(1);
  expect(fetch).toHaveBeenCalledTimes(1);
  await pass(POLL_INTERVAL_MS * 2);
  expect(seen).toEqual(["pending", "pending", "done"]);
  // Settled: an hour passes without another request.
  await pass(3600_000);
  expect(fetch).toHaveBeenCalledTimes(3);
});

test("never asks when nothing is unsettled to begin with, nor after it is stopped", async () => {
  const fetch = jest.fn(async () => "pending");
  pollWhileUnsettled({ first: "done", fetch, unsettled: (value) => value === "pending", onValue: () => {} });
  const stop = pollWhileUnsettled({
    first: "pending",
    fetch,
    unsettled: (value) => value === "pending",
    onValue: () => {},
  });
  await pass(POLL_INTERVAL_MS);
  expect(fetch).toHaveBeenCalledTimes(1);
  stop();
  await pass(3600_000);
  expect(fetch).toHaveBeenCalledTimes(1);
});

test("a 429 waits as long as Retry-After says; other failures retry an interval later", async () => {
  const limited = new ApiError({
    status: 429,
    type: "rate_limited",
    code: "rate_limited",
    message: "slow down",
    retryAfterSeconds: 30,
  });
  const down = new ApiError({ status: 0, type: "network_error", code: "network_error", message: "offline" });
  const failures = [limited, down];
  const fetch = jest.fn(async () => {
    const failure = failures.shift();
    if (failure !== undefined) throw failure;
    return "done";
  });
  pollWhileUnsettled({ first: "pending", fetch, unsettled: (value) => value === "pending", onValue: () => {} });
  await pass(POLL_INTERVAL_MS);
  expect(fetch).toHaveBeenCalledTimes(1);
  await pass(29_999);
  expect(fetch).toHaveBeenCalledTimes(1);
  await pass(1);
  expect(fetch).toHaveBeenCalledTimes(2);
  await pass(POLL_INTERVAL_MS);
  expect(fetch).toHaveBeenCalledTimes(3);
  await pass(3600_000);
  expect(fetch).toHaveBeenCalledTimes(3);
});
