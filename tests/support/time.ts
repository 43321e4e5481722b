/**
 * Time in tests without depending on how fast the machine is: a clock the test moves by hand (for
 * the parts that take one, such as the sandbox gateway), and waiting for a condition that is certain
 * to come true, with a deadline far beyond what it needs.
 */

import { isDeepStrictEqual } from "node:util";

export type ManualClock = { now: () => number; set: (epochMs: number) => void; advance: (ms: number) => void };

/** A clock that stands still at `startEpochMs` until the test sets or advances it. */
export function manualClock(startEpochMs = Date.now()): ManualClock {
  let epochMs = startEpochMs;
  return {
    now: () => epochMs,
    set: (to) => {
      epochMs = to;
    },
    advance: (ms) => {
      epochMs += ms;
    },
  };
}

/** Resolves once `check` returns true; rejects, naming `what`, after `timeoutMs` (30 s unless told). */
export async function waitUntil(
  what: string,
  check: () => boolean | Promise<boolean>,
  options: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<void> {
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  while (!(await check())) {
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting until ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 50));
  }
}

/**
 * What `read` returns once it deep-equals `expected`, or what it returned last when the deadline
 * passes (30 s unless told), for the caller's assertion to show the difference. For a screen whose
 * content can still change after what a test waited for appeared (a second request, a reload, one
 * stale frame): read until it is what the test expects, then assert on what was read.
 */
export async function readUntil<T>(
  read: () => Promise<T>,
  expected: T,
  options: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  for (;;) {
    const value = await read();
    if (isDeepStrictEqual(value, expected) || Date.now() > deadline) {
      return value;
    }
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 50));
  }
}
