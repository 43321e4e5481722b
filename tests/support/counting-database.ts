import type { Queryable } from "../../src/platform/db/pool.ts";

/** The pool, counting the statements that go through it (for tests of batching). */
export function countingDatabase(database: Queryable): { database: Queryable; statements: () => number } {
  let statements = 0;
  const counted = new Proxy(database, {
    get: (target, property, receiver) => {
      const value = Reflect.get(target, property, receiver);
      return typeof value === "function"
        ? (...args: unknown[]) => {
            statements += 1;
            return value.apply(target, args);
          }
        : value;
    },
  });
  return { database: counted, statements: () => statements };
}
