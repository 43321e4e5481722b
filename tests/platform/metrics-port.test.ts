import { portOf } from "../../src/platform/http/server.ts";
import { createLogger } from "../../src/platform/telemetry/logger.ts";
import { startApi } from "../../src/wiring/api.ts";
import { testConfig } from "../support/app.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";

/**
 * The API's /metrics is served on its own port (METRICS_PORT), never on the public one: the exposition
 * names routes, volumes and process internals, and the public port is reachable by anyone.
 */
let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.close());

test("the public port answers 404 for /metrics; the metrics port serves the exposition; stop closes both", async () => {
  // Port 0: each listener on a free port the system picks.
  const config = testConfig(db.url, { PORT: "0", METRICS_PORT: "0" });
  const api = await startApi({
    config,
    logger: createLogger({ level: "silent", service: "test" }),
    database: db.database,
  });
  const publicUrl = `http://127.0.0.1:${portOf(api.server)}`;
  const metricsUrl = `http://127.0.0.1:${portOf(api.metricsServer)}`;
  try {
    expect(portOf(api.metricsServer)).not.toBe(portOf(api.server));
    expect((await fetch(`${publicUrl}/healthz`)).status).toBe(200);

    const hidden = await fetch(`${publicUrl}/metrics`);
    expect(hidden.status).toBe(404);
    expect(await hidden.json()).toEqual({
      error: { type: "invalid_request", code: "route_not_found", message: expect.any(String) },
    });

    const scraped = await fetch(`${metricsUrl}/metrics`);
    expect(scraped.status).toBe(200);
    expect(scraped.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await scraped.text();
    expect(text).toContain("# TYPE http_request_duration_seconds histogram");
    // The public port's requests, counted and served here, the refused /metrics among them.
    expect(text).toMatch(/http_request_duration_seconds_count\{[^}]*route="\/healthz"/);
    expect(text).toMatch(/http_request_duration_seconds_count\{[^}]*route="unmatched"[^}]*status_code="404"/);
    expect(text).toContain('service="api"');
    // The metrics listener serves nothing of the API.
    expect((await fetch(`${metricsUrl}/healthz`)).status).toBe(404);
  } finally {
    await api.stop();
  }
  await expect(fetch(`${metricsUrl}/metrics`)).rejects.toThrow();
  await expect(fetch(`${publicUrl}/healthz`)).rejects.toThrow();
});
