import { Counter, Histogram, type Registry } from "prom-client";
import { metricOnce } from "../telemetry/metrics.ts";

/** The metrics of the work a pool does, a job (graphile-worker) or a pump's item alike, each created once per registry. */
export function jobMetrics(registry: Registry) {
  const jobsTotal = metricOnce(registry, Counter, {
    name: "worker_jobs_total",
    help: "Jobs by pool, task and outcome: started, succeeded, retried (failed, attempts left) or failed (no attempts left).",
    labelNames: ["pool", "task", "outcome"],
  });
  const jobDurationSeconds = metricOnce(registry, Histogram, {
    name: "worker_job_duration_seconds",
    help: "Job run time by pool and task.",
    labelNames: ["pool", "task"],
    buckets: [0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60],
  });
  // A pump claims at least once per interval however little is due: its claims show that it works.
  const pumpClaimsTotal = metricOnce(registry, Counter, {
    name: "worker_pump_claims_total",
    help: "Claims of due rows by pool, pump and outcome: succeeded (whether or not any row was due) or failed.",
    labelNames: ["pool", "pump", "outcome"],
  });
  return { jobsTotal, jobDurationSeconds, pumpClaimsTotal };
}
