import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { freePort } from "../../src/platform/db/embedded.ts";
import { TEST_WEBHOOK_SECRET_KEY } from "../support/app.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { newMerchant } from "../support/factories.ts";
import { startServiceProcess } from "../support/service-process.ts";
import { startReceiver } from "../support/webhook-receiver.ts";

/**
 * The scripted flow "create payment → poll → settle → deliver webhook" across three real deployments
 * (api, gateway-poller, webhook-delivery), each its own process with tracing exported over OTLP/HTTP
 * JSON to a collector played by this test. Then: one trace with parent links across both job
 * boundaries and into the webhook request, each deployment's /metrics counting the flow, and log
 * lines naming the trace.
 */

type OtlpSpan = { traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number };

/** An OTLP/HTTP collector on loopback that keeps every span it is sent. */
async function startCollector() {
  const spans: OtlpSpan[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const export_ = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
        resourceSpans?: { scopeSpans?: { spans?: OtlpSpan[] }[] }[];
      };
      for (const resource of export_.resourceSpans ?? []) {
        for (const scope of resource.scopeSpans ?? []) {
          spans.push(...(scope.spans ?? []));
        }
      }
      response.writeHead(200, { "Content-Type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`,
    spans,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

async function waitUntil<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 180_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) {
      return value;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The value of one sample in a Prometheus text exposition (undefined when absent). */
function sample(exposition: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of exposition.split("\n")) {
    const match = /^([a-z_]+)(?:\{([^}]*)\})? (\S+)$/.exec(line);
    if (match === null || match[1] !== name) {
      continue;
    }
    const present = Object.fromEntries(
      [...(match[2] ?? "").matchAll(/(\w+)="([^"]*)"/g)].map((pair) => [pair[1], pair[2]]),
    );
    if (Object.entries(labels).every(([key, value]) => present[key] === value)) {
      return Number(match[3]);
    }
  }
  return undefined;
}

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.close());

test("payment → poll → settle → webhook: one trace across the job boundaries, counted by each deployment's /metrics", async () => {
  const shop = await newMerchant(db.database);
  const collector = await startCollector();
  const receiver = await startReceiver();
  const [apiPort, apiMetricsPort, pollerPort, deliveryPort] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const common = {
    DATABASE_URL: db.url,
    LOG_LEVEL: "info",
    WEBHOOK_SECRET_ENCRYPTION_KEY: TEST_WEBHOOK_SECRET_KEY,
    SANDBOX_AUTO_SETTLE_SECONDS: "1",
    PAYMENT_POLL_SCHEDULE_SECONDS: "1.5",
    WORKER_POLL_INTERVAL_MS: "200",
    WORKER_QUEUE_SAMPLE_INTERVAL_SECONDS: "1",
    OTEL_SDK_DISABLED: "false",
    OTEL_TRACES_EXPORTER: "otlp",
    OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: collector.url,
    OTEL_METRICS_EXPORTER: "none",
    OTEL_LOGS_EXPORTER: "none",
    OTEL_BSP_SCHEDULE_DELAY: "100",
  };
  const api = startServiceProcess("services/api/main.ts", {
    ...common,
    PORT: String(apiPort),
    METRICS_PORT: String(apiMetricsPort),
  });
  const poller = startServiceProcess("services/gateway-poller/main.ts", {
    ...common,
    WORKER_HTTP_PORT: String(pollerPort),
  });
  const delivery = startServiceProcess("services/webhook-delivery/main.ts", {
    ...common,
    WORKER_HTTP_PORT: String(deliveryPort),
  });
  const base = `http://127.0.0.1:${apiPort}`;
  const metricsOf = (port: number) => fetch(`http://127.0.0.1:${port}/metrics`).then((response) => response.text());
  try {
    for (const [port, service] of [
      [apiPort, api],
      [pollerPort, poller],
      [deliveryPort, delivery],
    ] as const) {
      await waitUntil(`port ${port} ready`, () =>
        fetch(`http://127.0.0.1:${port}/readyz`).then(
          (response) => (response.ok ? true : undefined),
          () => undefined,
        ),
      ).catch((error: Error) => {
        throw new Error(`${error.message}; its standard error: ${service.errorOutput().slice(-2000)}`);
      });
    }
    const headers = { Authorization: `Bearer ${shop.testKey}`, "Content-Type": "application/json" };
    const endpoint = await fetch(`${base}/v1/webhook_endpoints`, {
      method: "POST",
      headers,
      body: JSON.stringify({ url: receiver.url, event_types: ["payment.paid"] }),
    });
    expect(endpoint.status).toBe(201);
    const created = await fetch(`${base}/v1/payments`, {
      method: "POST",
      headers: { ...headers, "Idempotency-Key": randomUUID() },
      body: JSON.stringify({ amount_cents: 1500, currency: "USD" }),
    });
    expect(created.status).toBe(201);
    const payment = (await created.json()) as { id: string };

    // Nobody asks the API about the payment: the poller alone learns it was paid.
    await receiver.waitFor(1, 180_000);
    const webhook = receiver.received[0];
    expect(JSON.parse(webhook?.body ?? "{}")).toMatchObject({ type: "payment.paid", data: { payment_id: payment.id } });
    const traceparent = String(webhook?.headers.traceparent);
    const [, webhookTraceId, webhookParentId] = /^00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]$/.exec(traceparent) ?? [];
    expect(webhookTraceId).toBeDefined();

    const byId = (spanId: string | undefined) => collector.spans.find((span) => span.spanId === spanId);
    const ancestorsOf = (span: OtlpSpan) => {
      const chain: OtlpSpan[] = [];
      for (let parent = byId(span.parentSpanId); parent !== undefined; parent = byId(parent.parentSpanId)) {
        chain.push(parent);
      }
      return chain;
    };
    const SERVER = 2;
    const request = await waitUntil("the request's span", () =>
      collector.spans.find((span) => span.name === "POST /v1/payments" && span.kind === SERVER),
    );
    const pollJob = await waitUntil("the poll job's span", () =>
      collector.spans.find((span) => span.name === "job poll_payment" && span.traceId === request.traceId),
    );
    const deliveryJob = await waitUntil("the delivery job's span", () =>
      collector.spans.find((span) => span.name === "job deliver_webhook" && span.traceId === request.traceId),
    );
    const webhookRequest = await waitUntil("the webhook request's span", () => byId(webhookParentId));

    // One trace: request → poll job → (settlement, event) → delivery job → outgoing webhook request.
    expect(webhookTraceId).toBe(request.traceId);
    expect(ancestorsOf(pollJob)).toContainEqual(request);
    expect(ancestorsOf(deliveryJob)).toContainEqual(pollJob);
    expect(ancestorsOf(webhookRequest)).toContainEqual(deliveryJob);
    // The settlement's SQL ran inside the poll job's span.
    const pollJobChildren = collector.spans.filter((span) => ancestorsOf(span).includes(pollJob));
    expect(pollJobChildren.some((span) => span.name.startsWith("pg.query"))).toBe(true);

    // Each deployment counts its part of the flow.
    const apiMetrics = await metricsOf(apiMetricsPort);
    expect(sample(apiMetrics, "pos_payments_total", { event: "created", livemode: "false", currency: "USD" })).toBe(1);
    expect(
      sample(apiMetrics, "http_request_duration_seconds_count", {
        method: "POST",
        route: "/v1/payments",
        status_code: "201",
      }),
    ).toBe(1);
    const pollerMetrics = await waitUntil("the poller's metrics", async () => {
      const text = await metricsOf(pollerPort);
      return sample(text, "pos_payments_total", { event: "paid", livemode: "false", currency: "USD" }) === 1
        ? text
        : undefined;
    });
    expect(
      sample(pollerMetrics, "worker_pump_claims_total", {
        pool: "gateway-poller",
        pump: "poll_due_payments",
        outcome: "succeeded",
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(pollerMetrics, "worker_jobs_total", {
        pool: "gateway-poller",
        task: "poll_payment",
        outcome: "succeeded",
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(pollerMetrics, "worker_jobs_total", { pool: "gateway-poller", task: "poll_payment", outcome: "retried" }),
    ).toBeUndefined();
    expect(sample(pollerMetrics, "pos_payments_total", { event: "created" })).toBeUndefined();
    const deliveryMetrics = await waitUntil("the delivery pool's metrics", async () => {
      const text = await metricsOf(deliveryPort);
      return sample(text, "pos_webhook_delivery_attempts_total", { outcome: "succeeded", attempt: "1" }) === 1
        ? text
        : undefined;
    });
    expect(
      sample(deliveryMetrics, "worker_jobs_total", {
        pool: "webhook-delivery",
        task: "deliver_webhook",
        outcome: "succeeded",
      }),
    ).toBe(1);
    expect(sample(deliveryMetrics, "worker_queue_runnable_jobs", { pool: "webhook-delivery" })).toBeDefined();
    expect(sample(deliveryMetrics, "pos_webhook_dead_deliveries_total", {})).toBe(0);

    // The API's log line for the request names the request's trace.
    const requestLog = api
      .output()
      .split("\n")
      .filter((line) => line.includes('"url":"/v1/payments"'))
      .map((line) => JSON.parse(line) as { trace_id?: string });
    expect(requestLog.map((line) => line.trace_id)).toContain(request.traceId);
  } finally {
    await Promise.all([api.stop(), poller.stop(), delivery.stop()]);
    await receiver.close();
    await collector.close();
  }
}, 900_000);
