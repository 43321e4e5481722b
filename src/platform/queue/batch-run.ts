import { inJobSpan } from "../telemetry/trace-context.ts";

/**
 * What one run of a batch job did: rows claimed, those whose handling failed, whether it stopped
 * with a full batch (more may be due), and when the next one falls due (null: none is waiting).
 */
export type BatchRun = { claimed: number; failed: number; workLeft: boolean; nextDueAt: Date | null };

/**
 * One run of a batch job (a recurring task's `run`, `recurring-task.ts`): claims a batch (the claim
 * is safe with any number of replicas: `src/platform/db/due-claims.ts`), handles its rows
 * `concurrency` at a time, and claims again until fewer than `batchSize` came back, at most
 * `batchesMax` times. Each row's turn is a span of its creating request's trace, named as the job per
 * row it replaces (`span.task`), so a trace still reads "POST … → job <task> → …". A row whose
 * handling fails is reported to `onFailure` and left to its next claim.
 */
export async function runBatches<Row extends { id: string; traceparent: string | null }>(options: {
  batchesMax: number;
  batchSize: number;
  concurrency: number;
  claim: () => Promise<readonly Row[]>;
  handle: (row: Omit<Row, "traceparent">) => Promise<unknown>;
  span: { pool: string; task: string };
  onFailure: (row: Omit<Row, "traceparent">, error: unknown) => void;
  nextDueAt: () => Promise<Date | null>;
}): Promise<BatchRun> {
  let claimed = 0;
  let failed = 0;
  let workLeft = false;
  for (let batch = 0; batch < options.batchesMax; batch += 1) {
    const rows = await options.claim();
    claimed += rows.length;
    failed += await forEachAtMost(options.concurrency, rows, async ({ traceparent, ...row }) =>
      inJobSpan({ ...options.span, jobId: row.id, attempt: 1, payload: { traceparent } }, () =>
        options.handle(row),
      ).catch((error: unknown) => {
        options.onFailure(row, error);
        throw error;
      }),
    );
    workLeft = rows.length === options.batchSize;
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
