import type { z } from "zod";
import type { Transaction } from "../db/pool.ts";
import { addJob } from "./add-job.ts";
import type { TaskDefinition, TaskDependencies } from "./task.ts";

export type PayloadSchema = z.ZodType<Record<string, unknown>, Record<string, unknown>>;

/**
 * A kind of job, declared once and used by both sides: the producer enqueues a payload its schema
 * types (`enqueue`), and the worker's task parses the stored payload with the same schema (`taskOf`;
 * old jobs outlive code, so the payload is checked at run time too). The identifier is snake_case,
 * the same words as the task's file (`tasks/reconcile-bank-change.ts` → `reconcile_bank_change`).
 */
export type JobKind<Schema extends PayloadSchema> = {
  task: string;
  payload: Schema;
  /** graphile-worker's attempts before the job is given up. */
  attemptsMax: number;
};

export function defineJob<Schema extends PayloadSchema>(kind: JobKind<Schema>): JobKind<Schema> {
  return kind;
}

/** Adds a job of this kind in the caller's transaction (see `addJob`: it exists iff the transaction commits). */
export function enqueue<Schema extends PayloadSchema>(
  transaction: Transaction,
  kind: JobKind<Schema>,
  payload: z.input<Schema>,
  options: { runAt?: Date; jobKey?: string } = {},
): Promise<{ id: string }> {
  return addJob(transaction, {
    task: kind.task,
    payload,
    runAt: options.runAt,
    jobKey: options.jobKey,
    maxAttempts: kind.attemptsMax,
  });
}

/** The worker's side: runs `handle` with the payload parsed by the kind's schema. */
export function taskOf<Schema extends PayloadSchema>(
  kind: JobKind<Schema>,
  handle: (dependencies: TaskDependencies, payload: z.output<Schema>) => Promise<unknown>,
): TaskDefinition {
  return builtTaskOf(kind, (dependencies) => (payload) => handle(dependencies, payload));
}

/**
 * As `taskOf`, for a task whose jobs share what is built once per pool (an HTTP agent, a batching
 * store): `build` runs when the pool starts (so a missing setting fails the start, not the first job)
 * and returns the handler of each job's parsed payload.
 */
export function builtTaskOf<Schema extends PayloadSchema>(
  kind: JobKind<Schema>,
  build: (dependencies: TaskDependencies) => (payload: z.output<Schema>) => Promise<unknown>,
): TaskDefinition {
  return {
    identifier: kind.task,
    build: (dependencies) => {
      const handle = build(dependencies);
      return async (payload) => {
        await handle(kind.payload.parse(payload));
      };
    },
  };
}
