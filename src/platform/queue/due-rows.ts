import type { z } from "zod";
import type { Config } from "../config.ts";
import { type Claimed, claimDueExpiries, claimDuePolls, type DueTable, dueBacklog } from "../db/due-claims.ts";
import type { Database } from "../db/pool.ts";
import type { PumpDefinition, PumpItem } from "./due-pump.ts";
import type { TaskDependencies } from "./task.ts";

/**
 * How late a poll, an expiry or a payout's pass may be: the pumps of work that falls due by time
 * (`due-pump.ts`, with no announcement to wake them) look for it at least this often. One claim per
 * interval per pump and replica is what such a pool costs when nothing is due.
 */
export const DUE_BY_TIME_INTERVAL_MS = 1000;

/**
 * The expiry must eventually decide: a last inquiry that cannot (gateway down) is tried again after
 * this, doubled per attempt up to the maximum, for as long as it takes. The first delay is also the
 * lease of a claimed expiry: longer than a gateway inquiry with its retries.
 */
const EXPIRY_RETRY_MS = { initial: 30_000, max: 3_600_000 };

/** What a claim of due rows reads: the poll schedule and the inquiry throttle (`config.payment`). */
type DueRowsDependencies = { database: Database; config: Pick<Config, "payment"> };

/** A claimed row as its handler sees it. */
type DueRow<Row extends z.ZodRawShape> = z.infer<z.ZodObject<Row>>;

/**
 * One claim of a table's due rows, of either kind, each answered as a pump's item (`due-pump.ts`):
 * - `poll` (gateway-poller): claims up to `limit` rows whose poll is due (`claimDuePolls`, on
 *   `config.payment.pollScheduleMs`, none after a row's `expires_at`); an item hands its row to
 *   `handle` (its inquiry), unless it was asked about too recently (a client's GET took the
 *   throttle): then this poll has nothing to do;
 * - `expiry` (code-expiry): claims up to `limit` pending rows past their `expires_at`
 *   (`claimDueExpiries`); an item hands its row to `handle` (its last inquiry, then the guarded end).
 *   A row whose handling throws (the gateway cannot answer) stays pending, claimed again after its
 *   backoff: never an end by guesswork.
 * Either claim is safe with any number of pumps side by side (`src/platform/db/due-claims.ts`).
 */
export async function claimDueRows<Row extends z.ZodRawShape>(
  dependencies: DueRowsDependencies,
  due: DueTable<Row>,
  kind: "poll" | "expiry",
  limit: number,
  handle: (row: DueRow<Row>) => Promise<unknown>,
): Promise<readonly PumpItem[]> {
  const { database, config } = dependencies;
  const rows: readonly Claimed<Row>[] =
    kind === "poll"
      ? await claimDuePolls(database, due, {
          limit,
          scheduleMs: config.payment.pollScheduleMs,
          inquiryMinIntervalMs: config.payment.inquiryMinIntervalMs,
        })
      : await claimDueExpiries(database, due, {
          limit,
          retryMs: EXPIRY_RETRY_MS.initial,
          retryMaxMs: EXPIRY_RETRY_MS.max,
        });
  return rows.map((row) => ({
    id: row.id,
    attempt: 1,
    traceparent: row.traceparent,
    run: async () => (row.inquire ? handle(row) : row),
  }));
}

/**
 * The pump of a table's polls or expiries: it claims through `claim` (the module's `claimDueRows`
 * with its handler) at least every `DUE_BY_TIME_INTERVAL_MS`, and its backlog is the table's due rows
 * of that kind (`dueBacklog`).
 */
export function dueRowsPump(options: {
  name: string;
  task: string;
  table: DueTable<z.ZodRawShape>["table"];
  kind: "poll" | "expiry";
  claim: (dependencies: TaskDependencies, limit: number) => Promise<readonly PumpItem[]>;
}): PumpDefinition {
  return {
    name: options.name,
    task: options.task,
    channel: null,
    intervalMs: DUE_BY_TIME_INTERVAL_MS,
    build: (dependencies) => ({
      claim: (limit) => options.claim(dependencies, limit),
      backlog: () => dueBacklog(dependencies.database, options.table, options.kind),
    }),
  };
}
