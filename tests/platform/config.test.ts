import { spawnSync } from "node:child_process";
import { ConfigError, loadConfig } from "../../src/platform/config.ts";

describe("configuration", () => {
  test("defaults follow the specification", () => {
    const config = loadConfig({});
    expect(config.port).toBe(8080);
    expect(config.metricsPort).toBe(9464);
    expect(config.publicBaseUrl).toBe("http://localhost:8080");
    expect(config.databaseUrl).toBeUndefined();
    expect(config.adminToken).toBeUndefined();
    // make run stops at once on Ctrl-C; deployments set a drain delay (the chart: 5 s).
    expect(config.httpDrainDelayMs).toBe(0);
    expect(config.rateLimit).toEqual({ requests: 60, windowMs: 10_000 });
    expect(config.idempotency.retentionMs).toBe(48 * 3600 * 1000);
    expect(config.paymentCodeWindowMs).toBe(600_000);
    expect(config.sandboxAutoSettleMs).toBe(18_000);
    expect(config.payoutSettleMs).toBe(20_000);
    expect(config.webhook.timeoutMs).toBe(10_000);
    // Eight attempts: the first plus seven retries at 1 min, 5 min, 30 min, 2 h, 12 h, then daily.
    expect(config.webhook.retryScheduleMs).toEqual([60, 300, 1800, 7200, 43_200, 86_400, 86_400].map((s) => s * 1000));
  });

  test("money-out settings: the specification's defaults, and a lease that outlasts a gateway call", () => {
    const config = loadConfig({});
    expect(config.payoutProcessorIntervalMs).toBe(60_000);
    expect(config.payoutRetryMs).toBe(15_000);
    expect(config.moneyOut).toEqual({
      leaseMs: 60_000,
      reconcileMs: 60_000,
      withdrawalCodeWindowMs: 600_000,
      withdrawalDeepLinkPrefix: "wallet://withdraw?code=",
      bankChangeLimitCents: { USD: 500, ZWG: 13_500 },
    });
    expect(
      loadConfig({ MONEY_OUT_LEASE_SECONDS: "0.5", GATEWAY_TIMEOUT_MS: "100", GATEWAY_RETRIES: "0" }).moneyOut.leaseMs,
    ).toBe(500);
    // 5 s × 3 attempts + backoff is longer than a 10-second lease: a second worker could act meanwhile.
    expect(() => loadConfig({ MONEY_OUT_LEASE_SECONDS: "10" })).toThrow(/MONEY_OUT_LEASE_SECONDS/);
    expect(() => loadConfig({ MONEY_OUT_LEASE_SECONDS: "10" })).toThrow(ConfigError);
  });

  test("a worker's refetch delay needs a local queue and fits within its poll interval", () => {
    const batched = { WORKER_LOCAL_QUEUE_SIZE: "5", WORKER_POLL_INTERVAL_MS: "2000" };
    expect(loadConfig({ ...batched, WORKER_REFETCH_DELAY_MS: "1000" }).worker).toMatchObject({
      localQueueSize: 5,
      refetchDelayMs: 1000,
      heartbeatIntervalMs: 15_000,
    });
    // graphile-worker refuses a delay above the poll interval; the delay is the local queue's.
    expect(() => loadConfig({ ...batched, WORKER_REFETCH_DELAY_MS: "2001" })).toThrow(/WORKER_REFETCH_DELAY_MS/);
    expect(() => loadConfig({ WORKER_REFETCH_DELAY_MS: "1000" })).toThrow(/WORKER_LOCAL_QUEUE_SIZE/);
  });

  test("durations can be shortened, in fractional seconds", () => {
    const config = loadConfig({
      PAYMENT_CODE_WINDOW_SECONDS: "2.5",
      WEBHOOK_RETRY_SCHEDULE_SECONDS: "0.1, 0.2,0.3",
      RATE_LIMIT_WINDOW_SECONDS: "1",
      PORT: "9000",
      PUBLIC_BASE_URL: "https://pay.example.com/",
      HTTP_DRAIN_DELAY_SECONDS: "1.5",
    });
    expect(config.httpDrainDelayMs).toBe(1500);
    expect(config.paymentCodeWindowMs).toBe(2500);
    expect(config.webhook.retryScheduleMs).toEqual([100, 200, 300]);
    expect(config.rateLimit.windowMs).toBe(1000);
    expect(config.publicBaseUrl).toBe("https://pay.example.com");
  });

  test.each([
    ["PORT", "not-a-port"],
    ["PORT", "70000"],
    ["METRICS_PORT", "not-a-port"],
    ["METRICS_PORT", "70000"],
    ["DATABASE_URL", "mysql://localhost/db"],
    ["PUBLIC_BASE_URL", "ftp://example.com"],
    ["ADMIN_TOKEN", "short"],
    ["HTTP_DRAIN_DELAY_SECONDS", "-1"],
    ["LOG_LEVEL", "loud"],
    ["RATE_LIMIT_REQUESTS", "0"],
    ["IDEMPOTENCY_RETENTION_SECONDS", "-1"],
    ["WEBHOOK_RETRY_SCHEDULE_SECONDS", "60,soon"],
    ["WEBHOOK_SECRET_ENCRYPTION_KEY", Buffer.alloc(16).toString("base64")],
    ["WEBHOOK_PRIVATE_TARGETS", "sometimes"],
  ])("a bad %s (%s) is refused with a message naming it", (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`${name}:`));
  });

  test("a service started with bad configuration exits 1 naming the variable", () => {
    const result = spawnSync(process.execPath, ["services/api/main.ts"], {
      env: { PATH: process.env.PATH, PORT: "eighty", DATABASE_URL: "postgres://127.0.0.1:1/none" },
      encoding: "utf8",
      timeout: 20_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("PORT:");
  });

  test("the API without WEBHOOK_SECRET_ENCRYPTION_KEY exits 1 saying it is required", () => {
    const result = spawnSync(process.execPath, ["services/api/main.ts"], {
      env: { PATH: process.env.PATH, DATABASE_URL: "postgres://127.0.0.1:1/none" },
      encoding: "utf8",
      timeout: 20_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("WEBHOOK_SECRET_ENCRYPTION_KEY: required");
  });

  test("a service without DATABASE_URL exits 1 saying it is required", () => {
    const result = spawnSync(process.execPath, ["services/code-expiry/main.ts"], {
      env: { PATH: process.env.PATH },
      encoding: "utf8",
      timeout: 20_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("DATABASE_URL: required");
  });
});
