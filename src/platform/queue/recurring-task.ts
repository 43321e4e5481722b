import type { TaskDefinition, TaskDependencies } from "./task.ts";

/** A recurring job's attempts; a failed run is followed by its next one anyway (see below). */
const RECURRING_JOB_ATTEMPTS_MAX = 3;

/**
 * A task that runs as one job at a time, keyed by its identifier, which enqueues its own next run when
 * it ends: when `run` says the next work falls due, within `intervalMs` (at once while `run` left
 * work behind). Work that waits (pending payments to poll or expire) then costs its pool one job per
 * interval, whatever its amount, instead of one job per item. The pool enqueues the job when it starts
 * (keeping an existing one's time), and a cron entry every minute restarts a chain that broke (a run
 * that could not enqueue its successor). Runs that overlap (the cron's and the chain's) must be safe:
 * the work they claim is claimed with SKIP LOCKED.
 */
export function recurringTask(options: {
  identifier: string;
  intervalMs: { min: number; max: number };
  run: (dependencies: TaskDependencies) => Promise<{ nextDueAt: Date | null; workLeft: boolean }>;
}): TaskDefinition {
  return {
    identifier: options.identifier,
    cron: "* * * * *",
    recurring: { maxAttempts: RECURRING_JOB_ATTEMPTS_MAX },
    build: (dependencies) => async (_payload, helpers) => {
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
        // Replaces the waiting job of the same key, if any (this one, running, gives its key up).
        await helpers.addJob(
          options.identifier,
          {},
          {
            jobKey: options.identifier,
            runAt: new Date(Date.now() + nextRunInMs),
            maxAttempts: RECURRING_JOB_ATTEMPTS_MAX,
          },
        );
      }
    },
  };
}
