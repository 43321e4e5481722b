import { z } from "zod";
import type { Config } from "../config.ts";
import type { TaskDefinition, TaskDependencies } from "./task.ts";

/** A recurring job's attempts; a failed run is followed by its next one anyway (see below). */
const RECURRING_JOB_ATTEMPTS_MAX = 3;

/** A chain's job: `chain` names it; the cron's backstop run has none. */
const payloadSchema = z.object({ chain: z.number().int().min(0).optional() });

/** The key of a recurring task's chain of jobs. */
export function recurringJobKey(identifier: string, chain: number): string {
  return `${identifier}:${chain}`;
}

/**
 * How many chains a recurring task runs: `WORKER_BATCH_JOBS` (`config.worker.batchJobs`), at most the
 * task's own `chainsMax` (null: no bound of its own).
 */
export function recurringChainCount(
  recurring: NonNullable<TaskDefinition["recurring"]>,
  worker: Pick<Config["worker"], "batchJobs">,
): number {
  return Math.min(worker.batchJobs, recurring.chainsMax ?? worker.batchJobs);
}

/**
 * A task that runs as `recurringChainCount` chains of jobs, each keyed by the task and its chain
 * number, one job per chain at a time, each enqueuing its successor when it ends: when `run` says
 * the next work falls due, within `intervalMs` (at once while `run` left work behind). Work that waits
 * (pending payments to poll or expire) then costs its pool a few jobs per interval, whatever its
 * amount, instead of a job per item; the chains share the work out over the pool's replicas (each
 * run claims its own rows with SKIP LOCKED, so runs side by side never take the same item). The pool
 * enqueues the chains when it starts (an existing job keeps its time), and a cron run every minute
 * restores a chain that broke (a run that could not enqueue its successor). A chain numbered beyond
 * the configured count (after it was lowered) ends.
 */
export function recurringTask(options: {
  identifier: string;
  intervalMs: { min: number; max: number };
  run: (dependencies: TaskDependencies) => Promise<{ nextDueAt: Date | null; workLeft: boolean }>;
  /** A bound of the task's own on its chains (a task whose work is always small needs one). */
  chainsMax?: number;
}): TaskDefinition {
  const recurring = { maxAttempts: RECURRING_JOB_ATTEMPTS_MAX, chainsMax: options.chainsMax ?? null };
  return {
    identifier: options.identifier,
    cron: "* * * * *",
    recurring,
    build: (dependencies) => async (payload, helpers) => {
      const { chain } = payloadSchema.parse(payload ?? {});
      const chains = recurringChainCount(recurring, dependencies.config.worker);
      let nextRunInMs = options.intervalMs.max;
      try {
        const outcome = await options.run(dependencies);
        const dueInMs = outcome.workLeft
          ? 0
          : outcome.nextDueAt === null
            ? options.intervalMs.max
            : outcome.nextDueAt.getTime() - Date.now();
        nextRunInMs = Math.min(options.intervalMs.max, Math.max(options.intervalMs.min, dueInMs));
      } finally {
        if (chain === undefined) {
          // The cron's run: every chain exists afterwards; those waiting keep their times.
          for (let each = 0; each < chains; each += 1) {
            await helpers.addJob(
              options.identifier,
              { chain: each },
              {
                jobKey: recurringJobKey(options.identifier, each),
                jobKeyMode: "preserve_run_at",
                maxAttempts: RECURRING_JOB_ATTEMPTS_MAX,
              },
            );
          }
        } else if (chain < chains) {
          // Replaces the waiting job of the same key, if any (this one, running, gives its key up).
          await helpers.addJob(
            options.identifier,
            { chain },
            {
              jobKey: recurringJobKey(options.identifier, chain),
              runAt: new Date(Date.now() + nextRunInMs),
              maxAttempts: RECURRING_JOB_ATTEMPTS_MAX,
            },
          );
        }
      }
    },
  };
}
