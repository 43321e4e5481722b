import { freePort } from "../../src/platform/db/embedded.ts";
import { TEST_WEBHOOK_SECRET_KEY } from "../support/app.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { newMerchant } from "../support/factories.ts";
import { startServiceProcess } from "../support/service-process.ts";

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.close());

test("with OpenTelemetry enabled, a request yields an HTTP span with database spans in the same trace", async () => {
  const shop = await newMerchant(db.database);
  const port = await freePort();
  const service = startServiceProcess("services/api/main.ts", {
    DATABASE_URL: db.url,
    PORT: String(port),
    METRICS_PORT: "0",
    LOG_LEVEL: "warn",
    WEBHOOK_SECRET_ENCRYPTION_KEY: TEST_WEBHOOK_SECRET_KEY,
    OTEL_SDK_DISABLED: "false",
    OTEL_TRACES_EXPORTER: "console",
    OTEL_METRICS_EXPORTER: "none",
    OTEL_LOGS_EXPORTER: "none",
    OTEL_BSP_SCHEDULE_DELAY: "100",
  });
  try {
    // A service with every instrumentation loading takes a minute to start on a loaded 2-core machine.
    const deadline = Date.now() + 180_000;
    let status = 0;
    while (Date.now() < deadline) {
      status = await fetch(`http://127.0.0.1:${port}/v1/me`, {
        headers: { Authorization: `Bearer ${shop.testKey}` },
      }).then(
        (response) => response.status,
        () => 0,
      );
      if (status !== 0) {
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status).toBe(200);
    await service.waitForOutput("instrumentation-pg", Math.max(0, deadline - Date.now()));
  } finally {
    await service.stop();
  }
  const output = service.output();
  expect(output).toContain("name: 'GET /v1/me'");
  const httpTrace = /traceId: '([0-9a-f]{32})',[\s\S]{0,400}?name: 'GET \/v1\/me'/.exec(output)?.[1];
  expect(httpTrace).toBeDefined();
  const pgTraces = [...output.matchAll(/traceId: '([0-9a-f]{32})',[\s\S]{0,400}?name: 'pg\.query/g)].map(
    (match) => match[1],
  );
  expect(pgTraces).toContain(httpTrace);
}, 600_000);
