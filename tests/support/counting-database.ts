import type { Queryable } from "../../src/platform/db/pool.ts";

/**
 * The pool, counting the calls that go through it (for tests of batching): `statements`, every call;
 * `callsOf(method)`, the calls of one method (`transaction`: the transaction blocks begun on it).
 */
export function countingDatabase<Pool extends Queryable>(
  database: Pool,
): { database: Pool; statements: () => number; callsOf: (method: string) => number } {
  const calls = new Map<string, number>();
  const counted = new Proxy(database, {
    get: (target, property, receiver) => {
      const value = Reflect.get(target, property, receiver);
      return typeof value === "function"
        ? (...args: unknown[]) => {
            calls.set(String(property), (calls.get(String(property)) ?? 0) + 1);
            return value.apply(target, args);
          }
        : value;
    },
  });
  return {
    database: counted,
    statements: () => [...calls.values()].reduce((sum, count) => sum + count, 0),
    callsOf: (method) => calls.get(method) ?? 0,
  };
}
