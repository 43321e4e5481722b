import { Writable } from "node:stream";
import { z } from "zod";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/database.ts";
import { createLogger } from "../telemetry/logger.ts";
import { createDatabase, type Database, sql } from "./pool.ts";

/**
 * A failed query is thrown to its caller, which answers it (a debit refused by the balance check is a
 * 402, a lost race a 409) or logs it where it becomes a 500 or a failed job. The pool's own report of
 * it must not be an error-level line: every refused payout raised one, noise on the SREs' alerts.
 */

let db: TestDatabase;
let database: Database;
const lines: { level: string; msg: string }[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString("utf8")));
      done();
    },
  });
  database = await createDatabase({
    url: db.url,
    poolSize: 1,
    statementTimeoutMs: 30_000,
    logger: createLogger({ level: "debug", service: "test" }, destination),
    applicationName: "test",
  });
});
afterAll(async () => {
  await database.end();
  await db.close();
});

test("a refused statement reaches its caller, and the pool logs it below warning", async () => {
  await database.query(sql.unsafe`CREATE TEMPORARY TABLE non_negative (cents integer CHECK (cents >= 0))`);
  await expect(database.query(sql.unsafe`INSERT INTO non_negative VALUES (-1)`)).rejects.toThrow(/check/i);
  await expect(database.query(sql.unsafe`SELECT 1 / 0`)).rejects.toThrow(/division by zero/);
  expect(lines.filter((line) => line.level === "error" || line.level === "warn")).toEqual([]);
  // slonik reports the constraint violation (one of its own error types), not the division by zero.
  expect(lines.filter((line) => line.level === "debug").map((line) => line.msg)).toEqual([
    "query failed (thrown to its caller)",
  ]);
});

/**
 * Behind a transaction pooler that keeps no prepared statements, `DATABASE_PREPARED_STATEMENTS=false`
 * sends every statement unnamed: the server session keeps none of them (pg_prepared_statements lists
 * the protocol-level named statements of the session). With the default they stay named.
 */
test.each([
  { preparedStatements: true, kept: ["pool_test_named"] },
  { preparedStatements: false, kept: [] },
])("prepared statements $preparedStatements: the session keeps $kept", async ({ preparedStatements, kept }) => {
  const single = await createDatabase({
    url: db.url,
    poolSize: 1,
    statementTimeoutMs: 30_000,
    logger: createLogger({ level: "silent", service: "test" }),
    applicationName: "test",
    preparedStatements,
  });
  try {
    const answer = sql.prepared("pool_test_named", z.object({ answer: z.number() }))`SELECT ${41}::int + 1 AS answer`;
    expect(await single.oneFirst(answer)).toBe(42);
    expect(await single.oneFirst(answer)).toBe(42);
    const names = await single.anyFirst(
      sql.type(z.object({ name: z.string() }))`SELECT name FROM pg_prepared_statements`,
    );
    expect(names).toEqual(kept);
  } finally {
    await single.end();
  }
});
