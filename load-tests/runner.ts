import { randomUUID } from "node:crypto";
import type { Scenario } from "./scenarios.ts";
import { startWebhookSink } from "./webhook-sink.ts";

/**
 * Runs a scenario at a constant arrival rate (requests are sent on schedule whatever the answers take,
 * as k6's constant-arrival-rate executor does) and summarises what came back.
 */
type Answer = { status: number; retryAfter: string | null; paidPaymentId?: string };
type Outcome = Answer & { sentAtMs: number; latencyMs: number };

/** What the webhook sink saw of a storm: one signed `payment.paid` expected per settled payment. */
export type WebhookSummary = {
  expected: number;
  delivered: number;
  duplicates: number;
  unverified: number;
  deliveredRatio: number;
  /** From the settling request's answer to the delivery's arrival. */
  latencyMs: { p50: number; p99: number; max: number };
};

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
  webhooks?: WebhookSummary;
};

async function answerOf(response: Response): Promise<Answer> {
  await response.arrayBuffer();
  return { status: response.status, retryAfter: response.headers.get("retry-after") };
}

function createPayment(baseUrl: string, key: string): Promise<Response> {
  return fetch(`${baseUrl}/v1/payments`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "idempotency-key": randomUUID(), "content-type": "application/json" },
    body: JSON.stringify({ amount_cents: 100 + Math.floor(Math.random() * 10_000), narration: "load test" }),
  });
}

/** A basket of three catalog products, one each, paid in cash. */
function createCashSale(baseUrl: string, key: string, productIds: readonly string[]): Promise<Response> {
  return fetch(`${baseUrl}/v1/sales`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "idempotency-key": randomUUID(), "content-type": "application/json" },
    body: JSON.stringify({ tender: "cash", items: productIds.map((productId) => ({ product_id: productId, qty: 1 })) }),
  });
}

/** For cash-sale scenarios: three stock-tracked products per merchant to sell. */
async function prepareCatalogs(
  scenario: Scenario,
  options: { baseUrl: string; keys: readonly string[] },
): Promise<Map<string, string[]>> {
  const catalogs = new Map<string, string[]>();
  if (scenario.request !== "cash_sale") {
    return catalogs;
  }
  for (const key of options.keys) {
    const productIds: string[] = [];
    for (const name of ["Bread 700 g", "Milk 1 l", "Sugar 2 kg"]) {
      const response = await fetch(`${options.baseUrl}/v1/products`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ name, price_cents: 150, currency: "USD", track_stock: true, stock_qty: 1_000_000 }),
      });
      if (response.status !== 201) {
        throw new Error(`creating a product failed: ${response.status} ${await response.text()}`);
      }
      productIds.push(((await response.json()) as { id: string }).id);
    }
    catalogs.set(key, productIds);
  }
  return catalogs;
}

async function send(
  request: Scenario["request"],
  baseUrl: string,
  key: string,
  catalog: readonly string[] = [],
): Promise<Answer> {
  switch (request) {
    case "cash_sale":
      return answerOf(await createCashSale(baseUrl, key, catalog));
    case "me":
      return answerOf(await fetch(`${baseUrl}/v1/me`, { headers: { authorization: `Bearer ${key}` } }));
    case "create_payment":
      return answerOf(await createPayment(baseUrl, key));
    case "paid_payment": {
      // A test payment settled at once by the hosted checkout's mockpay: one payment.paid webhook each.
      const created = await createPayment(baseUrl, key);
      if (created.status !== 201) {
        return answerOf(created);
      }
      const { id } = (await created.json()) as { id: string };
      const settled = await answerOf(await fetch(`${baseUrl}/checkout/${id}/mockpay`, { method: "POST" }));
      return settled.status === 200 ? { ...settled, paidPaymentId: id } : settled;
    }
  }
}

const percentile = (sorted: readonly number[], fraction: number) =>
  Math.round(sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? 0);

/**
 * For a webhook storm: a sink for the deliveries and one endpoint per merchant pointing at it. The
 * endpoints are deactivated again when the run ends.
 */
async function prepareWebhooks(
  scenario: Scenario,
  options: { baseUrl: string; keys: readonly string[]; sink?: { host: string; port: number; publicUrl?: string } },
) {
  if (scenario.webhooks === undefined) {
    return undefined;
  }
  const sink = await startWebhookSink(options.sink ?? { host: "127.0.0.1", port: 0 });
  const endpoints: { key: string; id: string }[] = [];
  for (const [index, key] of options.keys.entries()) {
    const response = await fetch(`${options.baseUrl}/v1/webhook_endpoints`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ url: sink.urlFor(index), event_types: ["payment.paid"] }),
    });
    if (response.status !== 201) {
      throw new Error(`registering a webhook endpoint failed: ${response.status} ${await response.text()}`);
    }
    const endpoint = (await response.json()) as { id: string; secret: string };
    sink.trust(index, endpoint.secret);
    endpoints.push({ key, id: endpoint.id });
  }
  return {
    sink,
    deadlineMs: scenario.webhooks.deliveryDeadlineSeconds * 1000,
    close: async () => {
      for (const endpoint of endpoints) {
        await fetch(`${options.baseUrl}/v1/webhook_endpoints/${endpoint.id}`, {
          method: "DELETE",
          headers: { authorization: `Bearer ${endpoint.key}` },
        }).then((response) => response.arrayBuffer());
      }
      await sink.close();
    },
  };
}

/** Waits for one delivery per settled payment (or the deadline), then compares. */
async function summariseWebhooks(
  webhooks: NonNullable<Awaited<ReturnType<typeof prepareWebhooks>>>,
  outcomes: readonly Outcome[],
): Promise<WebhookSummary> {
  const settledAt = new Map(
    outcomes.flatMap((outcome) =>
      outcome.paidPaymentId === undefined ? [] : [[outcome.paidPaymentId, outcome.sentAtMs + outcome.latencyMs]],
    ),
  );
  const deadline = performance.now() + webhooks.deadlineMs;
  const deliveredPayments = () =>
    new Set(webhooks.sink.received.filter((delivery) => delivery.verified).map((delivery) => delivery.paymentId));
  while (deliveredPayments().size < settledAt.size && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const firstArrival = new Map<string, number>();
  let duplicates = 0;
  for (const delivery of webhooks.sink.received) {
    if (!delivery.verified || delivery.paymentId === null || !settledAt.has(delivery.paymentId)) {
      continue;
    }
    if (firstArrival.has(delivery.paymentId)) {
      duplicates += 1;
    } else {
      firstArrival.set(delivery.paymentId, delivery.receivedAtMs);
    }
  }
  const latencies = [...firstArrival].map(([id, at]) => at - (settledAt.get(id) ?? at)).sort((a, b) => a - b);
  return {
    expected: settledAt.size,
    delivered: firstArrival.size,
    duplicates,
    unverified: webhooks.sink.received.filter((delivery) => !delivery.verified).length,
    deliveredRatio: settledAt.size === 0 ? 1 : firstArrival.size / settledAt.size,
    latencyMs: {
      p50: percentile(latencies, 0.5),
      p99: percentile(latencies, 0.99),
      max: Math.round(latencies.at(-1) ?? 0),
    },
  };
}

export async function runScenario(
  name: string,
  scenario: Scenario,
  options: {
    baseUrl: string;
    keys: readonly string[];
    durationSeconds?: number;
    windowSeconds?: number;
    /** Where the webhook sink listens, and the URL the platform reaches it by (storm scenarios). */
    sink?: { host: string; port: number; publicUrl?: string };
  },
): Promise<Summary> {
  const webhooks = await prepareWebhooks(scenario, options);
  try {
    return await run(name, scenario, options, { webhooks, catalogs: await prepareCatalogs(scenario, options) });
  } finally {
    await webhooks?.close();
  }
}

async function run(
  name: string,
  scenario: Scenario,
  options: { baseUrl: string; keys: readonly string[]; durationSeconds?: number; windowSeconds?: number },
  prepared: { webhooks: Awaited<ReturnType<typeof prepareWebhooks>>; catalogs: Map<string, string[]> },
): Promise<Summary> {
  const { webhooks, catalogs } = prepared;
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
      send(scenario.request, options.baseUrl, key, catalogs.get(key)).then(
        (answer) => ({ ...answer, sentAtMs, latencyMs: performance.now() - sentAtMs }),
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
  const at = (fraction: number) => percentile(latencies, fraction);
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
    ...(webhooks === undefined ? {} : { webhooks: await summariseWebhooks(webhooks, outcomes) }),
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
  if (expect.minDeliveredRatio !== undefined && (summary.webhooks?.deliveredRatio ?? 0) < expect.minDeliveredRatio) {
    found.push(
      `${summary.webhooks?.delivered ?? 0} of ${summary.webhooks?.expected ?? "?"} webhooks delivered (ratio < ${expect.minDeliveredRatio})`,
    );
  }
  if (expect.maxDeliveryP99Ms !== undefined && (summary.webhooks?.latencyMs.p99 ?? 0) > expect.maxDeliveryP99Ms) {
    found.push(`webhook delivery p99 ${summary.webhooks?.latencyMs.p99} ms > ${expect.maxDeliveryP99Ms} ms`);
  }
  if ((summary.webhooks?.unverified ?? 0) > 0) {
    found.push(`${summary.webhooks?.unverified} webhook deliveries failed signature verification`);
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
    ...(summary.webhooks === undefined
      ? []
      : [
          `  webhooks ${summary.webhooks.delivered} of ${summary.webhooks.expected} delivered, ${summary.webhooks.duplicates} duplicates, ${summary.webhooks.unverified} unverified; settle → delivery p50 ${summary.webhooks.latencyMs.p50} ms, p99 ${summary.webhooks.latencyMs.p99} ms, max ${summary.webhooks.latencyMs.max} ms`,
        ]),
  ].join("\n");
}
