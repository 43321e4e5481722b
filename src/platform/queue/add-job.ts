import { z } from "zod";
import { sql, type Transaction } from "../db/pool.ts";
import { currentTraceparent } from "../telemetry/trace-context.ts";

/**
 * Enqueues a graphile-worker job inside the caller's transaction: the job exists if and only if the
 * change that needs it commits (a transactional outbox without a relay).
 */
export async function addJob(
  transaction: Transaction,
  job: {
    task: string;
    payload: Record<string, unknown>;
    /** Deduplicates: a second job with the same key replaces the pending one. */
    jobKey?: string;
    runAt?: Date;
    maxAttempts: number;
    queueName?: string;
  },
): Promise<{ id: string }> {
  return transaction.one(sql.type(z.object({ id: z.coerce.string() }))`
    SELECT id FROM graphile_worker.add_job(
      ${job.task},
      payload => ${JSON.stringify(withTraceparent(job.payload))}::json,
      queue_name => ${job.queueName ?? null},
      run_at => ${job.runAt?.toISOString() ?? null}::timestamptz,
      max_attempts => ${job.maxAttempts},
      job_key => ${job.jobKey ?? null})`);
}

/** The job continues the enqueuing span's trace (see `inJobSpan`). */
export function withTraceparent(payload: Record<string, unknown>): Record<string, unknown> {
  const traceparent = currentTraceparent();
  return traceparent === null ? payload : { ...payload, traceparent };
}

/** Removes a queued job by its key, inside the caller's transaction (a job already running is left alone). */
export async function removeJob(transaction: Transaction, jobKey: string): Promise<void> {
  await transaction.query(sql.unsafe`SELECT graphile_worker.remove_job(${jobKey})`);
}
