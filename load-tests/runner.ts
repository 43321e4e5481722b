import { randomUUID } from "node:crypto";
import type { Scenario } from "./scenarios.ts";

/**
 * Runs a scenario at a constant arrival rate (requests are sent on schedule whatever the answers take,
 * as k6's constant-arrival-rate executor does) and summarises what came back.
 */
type Outcome = { sentAtMs: number; status: number; latencyMs: number; retryAfter: string | null };

export type Summary = {
  scenario: string;
  requests: number;
  durationSeconds: number;
  achievedRatePerSecond: number;
  statuses: Record<string, number>;
  refusedRatio: number;
  errorRatio: number;
  refusedWithoutRetryAfter: number;
  maxAcceptedPerWindow: number;
  latencyMs: { p50: number; p95: number; p99: number; max: number };
};

function send(request: Scenario["request"], baseUrl: string, key: string): Promise<Response> {
  if (request === "me") {
    return fetch(`${baseUrl}/v1/me`, { headers: { authorization: `Bearer ${key}` } });
  }
  return fetch(`${baseUrl}/v1/payments`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "idempotency-key": randomUUID(), "content-type": "application/json" },
    body: JSON.stringify({ amount_cents: 100 + Math.floor(Math.random() * 10_000), narration: "load test" }),
  });
}

export async function runScenario(
  name: string,
  scenario: Scenario,
  options: { baseUrl: string; keys: readonly string[]; durationSeconds?: number; windowSeconds?: number },
): Promise<Summary> {
  const durationSeconds = options.durationSeconds ?? scenario.durationSeconds;
  const total = Math.max(1, Math.round(scenario.ratePerSecond * durationSeconds));
  const intervalMs = 1000 / scenario.ratePerSecond;
  const started = performance.now();
  const pending: Promise<Outcome>[] = [];
  for (let index = 0; index < total; index += 1) {
    // Sleep until this request's slot, correcting for drift.
    const due = started + index * intervalMs;
    const wait = due - performance.now();
    if (wait > 0) {
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
    const key = options.keys[index % options.keys.length] ?? "";
    const sentAtMs = performance.now();
    pending.push(
      send(scenario.request, options.baseUrl, key).then(
        async (response) => {
          await response.arrayBuffer();
          return {
            sentAtMs,
            status: response.status,
            latencyMs: performance.now() - sentAtMs,
            retryAfter: response.headers.get("retry-after"),
          };
        },
        () => ({ sentAtMs, status: 0, latencyMs: performance.now() - sentAtMs, retryAfter: null }),
      ),
    );
  }
  const outcomes = await Promise.all(pending);
  const elapsedSeconds = (performance.now() - started) / 1000;
  const statuses: Record<string, number> = {};
  for (const outcome of outcomes) {
    statuses[String(outcome.status)] = (statuses[String(outcome.status)] ?? 0) + 1;
  }
  const refused = outcomes.filter((outcome) => outcome.status === 429);
  const errors = outcomes.filter((outcome) => outcome.status === 0 || outcome.status >= 500);
  // Accepted requests that certainly fell in one window of the server's clock: the server accepted
  // each between its send and its answer, so only requests sent and answered inside the same window
  // count (a plain send-time window would blame the limiter for network jitter).
  const windowMs = (options.windowSeconds ?? 10) * 1000;
  const accepted = outcomes
    .filter((outcome) => outcome.status >= 200 && outcome.status < 300)
    .map((outcome) => ({ sent: outcome.sentAtMs, answered: outcome.sentAtMs + outcome.latencyMs }))
    .sort((left, right) => left.sent - right.sent);
  let maxAcceptedPerWindow = 0;
  for (const [index, first] of accepted.entries()) {
    const windowEnd = first.sent + windowMs;
    let inside = 0;
    for (const candidate of accepted.slice(index)) {
      if (candidate.sent >= windowEnd) {
        break;
      }
      if (candidate.answered < windowEnd) {
        inside += 1;
      }
    }
    maxAcceptedPerWindow = Math.max(maxAcceptedPerWindow, inside);
  }
  const latencies = outcomes.map((outcome) => outcome.latencyMs).sort((left, right) => left - right);
  const at = (fraction: number) =>
    Math.round(latencies[Math.min(latencies.length - 1, Math.floor(fraction * latencies.length))] ?? 0);
  return {
    scenario: name,
    requests: outcomes.length,
    durationSeconds: Math.round(elapsedSeconds * 10) / 10,
    achievedRatePerSecond: Math.round((outcomes.length / elapsedSeconds) * 10) / 10,
    statuses,
    refusedRatio: refused.length / outcomes.length,
    errorRatio: errors.length / outcomes.length,
    refusedWithoutRetryAfter: refused.filter((outcome) => outcome.retryAfter === null).length,
    maxAcceptedPerWindow,
    latencyMs: { p50: at(0.5), p95: at(0.95), p99: at(0.99), max: Math.round(latencies.at(-1) ?? 0) },
  };
}

/** The scenario's expectations that the run broke (empty: all met). */
export function violations(scenario: Scenario, summary: Summary): string[] {
  const found: string[] = [];
  const { expect } = scenario;
  if (expect.minRefusedRatio !== undefined && summary.refusedRatio < expect.minRefusedRatio) {
    found.push(`refused ratio ${summary.refusedRatio.toFixed(2)} < ${expect.minRefusedRatio}`);
  }
  if (expect.maxRefusedRatio !== undefined && summary.refusedRatio > expect.maxRefusedRatio) {
    found.push(`refused ratio ${summary.refusedRatio.toFixed(2)} > ${expect.maxRefusedRatio}`);
  }
  if (expect.maxErrorRatio !== undefined && summary.errorRatio > expect.maxErrorRatio) {
    found.push(`error ratio ${summary.errorRatio.toFixed(3)} > ${expect.maxErrorRatio}`);
  }
  if (expect.maxAcceptedPerWindow !== undefined && summary.maxAcceptedPerWindow > expect.maxAcceptedPerWindow) {
    found.push(`${summary.maxAcceptedPerWindow} accepted in one window > ${expect.maxAcceptedPerWindow}`);
  }
  if (summary.refusedWithoutRetryAfter > 0) {
    found.push(`${summary.refusedWithoutRetryAfter} 429 answers without Retry-After`);
  }
  return found;
}

export function formatSummary(summary: Summary): string {
  return [
    `scenario ${summary.scenario}: ${summary.requests} requests in ${summary.durationSeconds} s (${summary.achievedRatePerSecond}/s)`,
    `  statuses ${Object.entries(summary.statuses)
      .map(([status, count]) => `${status}×${count}`)
      .join(" ")}`,
    `  refused ${(summary.refusedRatio * 100).toFixed(1)} %, errors ${(summary.errorRatio * 100).toFixed(1)} %, max accepted in 10 s ${summary.maxAcceptedPerWindow}`,
    `  latency p50 ${summary.latencyMs.p50} ms, p95 ${summary.latencyMs.p95} ms, p99 ${summary.latencyMs.p99} ms, max ${summary.latencyMs.max} ms`,
  ].join("\n");
}
