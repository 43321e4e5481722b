import type { z } from "zod";
import type { Config } from "../config.ts";
import { type Claimed, claimDueExpiries, claimDuePolls, type DueTable, nextDueAt } from "../db/due-claims.ts";
import type { Queryable } from "../db/pool.ts";
import type { Logger } from "../telemetry/logger.ts";
import { inJobSpan } from "../telemetry/trace-context.ts";
import { recurringTask } from "./recurring-task.ts";
import type { TaskDefinition, TaskDependencies } from "./task.ts";

/** Rows one claim statement of a batch job takes. */
const BATCH_SIZE = 200;
/** Gateway inquiries of one batch in flight at once (each settlement then takes a connection). */
const BATCH_CONCURRENCY = 8;
/**
 * The expiry must eventually decide: a last inquiry that cannot (gateway down) is tried again after
 * this, doubled per attempt up to the maximum, for as long as it takes. The first delay is also the
 * lease of a claimed expiry: longer than a gateway inquiry with its retries.
 */
const EXPIRY_RETRY_MS = { initial: 30_000, max: 3_600_000 };

/**
 * What one run of a batch job did: rows claimed, those whose handling failed, whether it stopped
 * with a full batch (more may be due), and when the next one falls due (null: none is waiting).
 */
export type BatchRun = { claimed: number; failed: number; workLeft: boolean; nextDueAt: Date | null };

/** Claim statements per run of a batch task: a backlog is worked through over several runs, each due at once. */
const BATCHES_PER_RUN = 10;

/**
 * A recurring task (`recurring-task.ts`) whose runs are batch runs (`runDueRows`):
 * it runs again when the next row falls due, at least every 0.2 s and at most 1 s apart (a poll or
 * an expiry is at most that late), each run claiming up to `BATCHES_PER_RUN` batches. `chainsMax`
 * bounds its chains below `WORKER_BATCH_JOBS` (each idle chain costs its runs).
 */
export function batchTask(
  identifier: string,
  run: (dependencies: TaskDependencies, options: { batchesMax: number }) => Promise<BatchRun>,
  options: { chainsMax?: number } = {},
): TaskDefinition {
  return recurringTask({
    identifier,
    intervalMs: { min: 200, max: 1000 },
    run: (dependencies) => run(dependencies, { batchesMax: BATCHES_PER_RUN }),
    ...options,
  });
}

/**
 * A table polled and expired in batches (`DueTable`), and how its rows are named: the id field of
 * their log lines, the noun of the failure's message, and the per-row jobs (gateway-poller's and
 * code-expiry's) the batches replaced, whose names their spans keep.
 */
export type DueRows<Row extends z.ZodRawShape> = DueTable<Row> & {
  idField: string;
  noun: string;
  tasks: { poll: string; expiry: string };
};

/** What a batch run reads: the poll schedule and the inquiry throttle (`config.payment`), and where it logs. */
export type DueRunDependencies = { database: Queryable; config: Pick<Config, "payment">; logger: Logger };

/** A claimed row as its handler sees it. */
export type DueRow<Row extends z.ZodRawShape> = z.infer<z.ZodObject<Row>>;

/**
 * One run of a batch job over a table's due rows, of either kind:
 * - `poll` (gateway-poller): claims the rows whose poll is due (`claimDuePolls`, on
 *   `config.payment.pollScheduleMs`, none after a row's `expires_at`) and hands each to `handle` (its
 *   inquiry), unless it was asked about too recently (a client's GET took the throttle): then this
 *   poll has nothing to do;
 * - `expiry` (code-expiry): claims the pending rows past their `expires_at` (`claimDueExpiries`) and
 *   hands each to `handle` (its last inquiry, then the guarded end). A row whose handling throws (the
 *   gateway cannot answer) stays pending, claimed again after its backoff: never an end by guesswork.
 * Either claim is safe with any number of replicas. Rows are handled a few at a time, batch after
 * batch until fewer than a full batch are due, at most `batchesMax`.
 */
export async function runDueRows<Row extends z.ZodRawShape>(
  dependencies: DueRunDependencies,
  due: DueRows<Row>,
  kind: "poll" | "expiry",
  options: { batchesMax: number },
  handle: (row: DueRow<Row>) => Promise<unknown>,
): Promise<BatchRun> {
  const { database, config, logger } = dependencies;
  return runBatches({
    batchesMax: options.batchesMax,
    claim:
      kind === "poll"
        ? (limit) =>
            claimDuePolls(database, due, {
              limit,
              scheduleMs: config.payment.pollScheduleMs,
              inquiryMinIntervalMs: config.payment.inquiryMinIntervalMs,
            })
        : (limit) =>
            claimDueExpiries(database, due, {
              limit,
              retryMs: EXPIRY_RETRY_MS.initial,
              retryMaxMs: EXPIRY_RETRY_MS.max,
            }),
    handle: async (row: Claimed<Row>) => (row.inquire ? handle(row) : row),
    span:
      kind === "poll"
        ? { pool: "gateway-poller", task: due.tasks.poll }
        : { pool: "code-expiry", task: due.tasks.expiry },
    onFailure: (row, error) =>
      logger.warn({ [due.idField]: row.id, err: error }, `${due.noun} ${kind} failed; tried again later`),
    nextDueAt: () => nextDueAt(database, due.table, kind),
  });
}

/**
 * One run of a batch job (a recurring task's `run`, `recurring-task.ts`): claims a batch (the claim
 * is safe with any number of replicas: `src/platform/db/due-claims.ts`), handles its rows
 * `BATCH_CONCURRENCY` at a time, and claims again until fewer than `BATCH_SIZE` came back, at most
 * `batchesMax` times. Each row's turn is a span of its creating request's trace, named as the job per
 * row it replaces (`span.task`), so a trace still reads "POST … → job <task> → …". A row whose
 * handling fails is reported to `onFailure` and left to its next claim. `claim` takes at most `limit`
 * rows, safely beside any number of replicas claiming the same table.
 */
export async function runBatches<Row extends { id: string; traceparent: string | null }>(options: {
  batchesMax: number;
  claim: (limit: number) => Promise<readonly Row[]>;
  handle: (row: Row) => Promise<unknown>;
  span: { pool: string; task: string };
  onFailure: (row: Row, error: unknown) => void;
  nextDueAt: () => Promise<Date | null>;
}): Promise<BatchRun> {
  let claimed = 0;
  let failed = 0;
  let workLeft = false;
  for (let batch = 0; batch < options.batchesMax; batch += 1) {
    const rows = await options.claim(BATCH_SIZE);
    claimed += rows.length;
    failed += await forEachAtMost(BATCH_CONCURRENCY, rows, async (row) =>
      inJobSpan({ ...options.span, jobId: row.id, attempt: 1, payload: { traceparent: row.traceparent } }, () =>
        options.handle(row),
      ).catch((error: unknown) => {
        options.onFailure(row, error);
        throw error;
      }),
    );
    workLeft = rows.length === BATCH_SIZE;
    if (!workLeft) {
      break;
    }
  }
  return { claimed, failed, workLeft, nextDueAt: await options.nextDueAt() };
}

/** Runs `run` over `items`, at most `limit` at once; returns how many failed. */
async function forEachAtMost<T>(
  limit: number,
  items: readonly T[],
  run: (item: T) => Promise<unknown>,
): Promise<number> {
  let next = 0;
  let failed = 0;
  const lane = async () => {
    while (next < items.length) {
      const item = items[next] as T;
      next += 1;
      await run(item).catch(() => {
        failed += 1;
      });
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return failed;
}
