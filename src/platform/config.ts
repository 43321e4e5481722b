import { fileURLToPath } from "node:url";
import { z } from "zod";

/**
 * The only place that reads the environment. Every other module receives a `Config`.
 *
 * Durations the specification names are settings with the specification's defaults, so tests and
 * staging can shorten time without taking other code paths. Each name carries its unit.
 */

const seconds = (defaultValue: number) => z.coerce.number().positive().default(defaultValue);
const optionalString = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === "" ? undefined : value));
const booleanFlag = (defaultValue: boolean) =>
  z
    .enum(["true", "false", "1", "0"])
    .default(defaultValue ? "true" : "false")
    .transform((value) => value === "true" || value === "1");
const commaSeparatedSeconds = z.string().transform((value, context) => {
  const parts = value.split(",").map((part) => Number(part.trim()));
  if (parts.length === 0 || parts.some((part) => !Number.isFinite(part) || part <= 0)) {
    context.addIssue({ code: "custom", message: "expected comma-separated positive numbers of seconds" });
    return z.NEVER;
  }
  return parts;
});

/** A 256-bit key given as base64 (`openssl rand -base64 32`). */
const base64Key = optionalString.pipe(
  z
    .string()
    .transform((value) => Buffer.from(value, "base64"))
    .refine((key) => key.length === 32, "must be 32 bytes encoded as base64 (openssl rand -base64 32)")
    .optional(),
);

const environmentSchema = z.object({
  NODE_ENV: z.enum(["development", "test", "production"]).default("development"),
  DATABASE_URL: optionalString.pipe(z.url({ protocol: /^postgres(ql)?$/ }).optional()),
  NOTIFICATIONS_DATABASE_URL: optionalString.pipe(z.url({ protocol: /^postgres(ql)?$/ }).optional()),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().positive().default(30_000),
  DATABASE_PREPARED_STATEMENTS: booleanFlag(true),
  PORT: z.coerce.number().int().min(0).max(65_535).default(8080),
  WORKER_HTTP_PORT: z.coerce.number().int().min(0).max(65_535).default(9090),
  METRICS_PORT: z.coerce.number().int().min(0).max(65_535).default(9464),
  /** `make run` only: where the embedded PostgreSQL and the demo's keys live (relative to the working directory). */
  DEV_DATA_DIRECTORY: z.string().min(1).default(".data"),
  // The browser apps' build (web/build.ts): web/dist beside src/, in the checkout as in the image.
  WEB_BUILD_DIRECTORY: z
    .string()
    .min(1)
    .default(fileURLToPath(new URL("../../web/dist/", import.meta.url))),
  PUBLIC_BASE_URL: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
  ADMIN_TOKEN: optionalString.pipe(z.string().min(16, "must be at least 16 characters").optional()),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  HTTP_BODY_LIMIT_BYTES: z.coerce.number().int().positive().default(100_000),
  HTTP_SHUTDOWN_TIMEOUT_SECONDS: seconds(25),
  HTTP_DRAIN_DELAY_SECONDS: z.coerce.number().min(0).default(0),
  RATE_LIMIT_REQUESTS: z.coerce.number().int().positive().max(10_000).default(60),
  RATE_LIMIT_WINDOW_SECONDS: seconds(10),
  SESSION_IDLE_TIMEOUT_SECONDS: seconds(30 * 60),
  SESSION_ABSOLUTE_TIMEOUT_SECONDS: seconds(12 * 3600),
  TILL_SESSION_ABSOLUTE_TIMEOUT_SECONDS: seconds(12 * 3600),
  SESSION_STEP_UP_WINDOW_SECONDS: seconds(5 * 60),
  SIGN_IN_FAILURES_PER_ACCOUNT: z.coerce.number().int().positive().default(5),
  SIGN_IN_FAILURES_PER_ADDRESS: z.coerce.number().int().positive().default(20),
  SIGN_IN_FAILURE_WINDOW_SECONDS: seconds(15 * 60),
  TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  IDEMPOTENCY_RETENTION_SECONDS: seconds(48 * 3600),
  IDEMPOTENCY_LOCK_TIMEOUT_SECONDS: seconds(60),
  PAYMENT_CODE_WINDOW_SECONDS: seconds(600),
  SANDBOX_AUTO_SETTLE_SECONDS: seconds(18),
  PAYMENT_INQUIRY_MIN_INTERVAL_SECONDS: seconds(2),
  PAYMENT_POLL_SCHEDULE_SECONDS: commaSeparatedSeconds.default([2, 3, 5, 8, 13, 20, 30]),
  GATEWAY_URL: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
  GATEWAY_API_KEY: optionalString,
  GATEWAY_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
  GATEWAY_RETRIES: z.coerce.number().int().min(0).max(5).default(2),
  GATEWAY_SIM_PORT: z.coerce.number().int().min(0).max(65_535).default(8090),
  WALLET_DEEP_LINK_PREFIX: z.string().min(1).default("wallet://pay?code="),
  WALLET_USSD_PREFIX: z.string().min(1).default("*151*2*"),
  PAYOUT_SETTLE_SECONDS: seconds(20),
  PAYOUT_PROCESSOR_INTERVAL_SECONDS: seconds(60),
  PAYOUT_RETRY_SECONDS: seconds(15),
  MONEY_OUT_LEASE_SECONDS: seconds(60),
  MONEY_OUT_RECONCILE_SECONDS: seconds(60),
  WITHDRAWAL_CODE_WINDOW_SECONDS: seconds(600),
  WALLET_WITHDRAWAL_DEEP_LINK_PREFIX: z.string().min(1).default("wallet://withdraw?code="),
  BANK_CHANGE_LIMIT_USD_CENTS: z.coerce.number().int().positive().default(500),
  BANK_CHANGE_LIMIT_ZWG_CENTS: z.coerce.number().int().positive().default(13_500),
  WEBHOOK_TIMEOUT_SECONDS: seconds(10),
  WEBHOOK_RETRY_SCHEDULE_SECONDS: commaSeparatedSeconds.default([60, 300, 1800, 7200, 43_200, 86_400, 86_400]),
  WEBHOOK_SECRET_ENCRYPTION_KEY: base64Key,
  WEBHOOK_SECRET_ENCRYPTION_KEY_PREVIOUS: base64Key,
  WEBHOOK_PRIVATE_TARGETS: z.enum(["deny", "test_only", "allow"]).default("test_only"),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(5),
  WORKER_POLL_INTERVAL_MS: z.coerce.number().int().min(50).default(2000),
  WORKER_LOCAL_QUEUE_SIZE: z.coerce.number().int().min(0).max(1000).default(0),
  WORKER_REFETCH_DELAY_MS: z.coerce.number().int().min(0).default(0),
  WORKER_QUEUE_SAMPLE_INTERVAL_SECONDS: seconds(15),
  WORKER_SHUTDOWN_TIMEOUT_SECONDS: seconds(30),
  WORKER_STALL_TIMEOUT_SECONDS: seconds(120),
  WORKER_HEARTBEAT_SECONDS: seconds(15),
  OTEL_SDK_DISABLED: booleanFlag(true),
  OTEL_SERVICE_NAME: optionalString,
});

export type Config = {
  nodeEnv: "development" | "test" | "production";
  databaseUrl: string | undefined;
  /**
   * The session-mode connection the API LISTENs on for waiting requests (a transaction-mode pooler
   * does not deliver notifications); DATABASE_URL when unset.
   */
  notificationsDatabaseUrl: string | undefined;
  databasePoolSize: number;
  databaseStatementTimeoutMs: number;
  /**
   * Whether the hot statements are named prepared statements (planned once per connection). False for
   * a transaction pooler that keeps none across transactions (PgBouncer before 1.21 or without
   * max_prepared_statements, RDS Proxy, ...): every statement is then sent unnamed.
   */
  databasePreparedStatements: boolean;
  port: number;
  workerHttpPort: number;
  /** The API's /metrics, apart from its public port so only the scraper's network path reaches it. */
  metricsPort: number;
  devDataDirectory: string;
  /** Where the browser apps' build is read from (manifest.json and the files it lists). */
  webBuildDirectory: string;
  publicBaseUrl: string;
  adminToken: string | undefined;
  logLevel: "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";
  httpBodyLimitBytes: number;
  httpShutdownTimeoutMs: number;
  /** After SIGTERM the API keeps serving, with /readyz at 503, this long before it stops accepting. */
  httpDrainDelayMs: number;
  rateLimit: { requests: number; windowMs: number };
  /**
   * How many proxies in front of the API append to X-Forwarded-For; 0 (the default) ignores the
   * header and takes the connection's peer as the client address (per-address sign-in limit, logs).
   */
  trustProxyHops: number;
  sessions: {
    /** A dashboard session ends after this long without a request (a till session has no idle limit). */
    idleTimeoutMs: number;
    dashboardLifetimeMs: number;
    /** A till session lasts a shift: no idle limit, only this absolute one. */
    tillLifetimeMs: number;
    /** Minting or rolling a live key needs the password entered within this window. */
    stepUpWindowMs: number;
    /** Failed password checks within the window after which sign-in answers 429, per account and per address. */
    failuresPerAccount: number;
    failuresPerAddress: number;
    failureWindowMs: number;
    /** The clock two-factor codes are checked against, in epoch ms: Date.now (a test brings one it moves). */
    clock: () => number;
  };
  idempotency: { retentionMs: number; lockTimeoutMs: number };
  paymentCodeWindowMs: number;
  sandboxAutoSettleMs: number;
  /** The live world's wallet gateway (unset URL: live payments fail with 502 gateway_error). */
  gateway: {
    url: string | undefined;
    apiKey: string | undefined;
    timeoutMs: number;
    retries: number;
    simulatorPort: number;
  };
  payment: {
    /** At most one gateway inquiry per payment per this interval, across all API replicas. */
    inquiryMinIntervalMs: number;
    /** Delays between the poller's inquiries of a pending payment; the last one repeats until expiry. */
    pollScheduleMs: number[];
    deepLinkPrefix: string;
    ussdPrefix: string;
  };
  payoutSettleMs: number;
  payoutProcessorIntervalMs: number;
  /** After a submission whose outcome is unclear (gateway unavailable), the processor looks again after this. */
  payoutRetryMs: number;
  moneyOut: {
    /**
     * How long one worker or request may act on a payout or instant transfer (gateway call included)
     * before another may take over; longer than a gateway call with all its retries.
     */
    leaseMs: number;
    /** A change-to-wallet or utility payment still unsettled this long after creation is settled by inquiry. */
    reconcileMs: number;
    withdrawalCodeWindowMs: number;
    withdrawalDeepLinkPrefix: string;
    /** The largest change-to-wallet per currency. */
    bankChangeLimitCents: Record<"USD" | "ZWG", number>;
  };
  webhook: {
    timeoutMs: number;
    /** Delays before the 2nd, 3rd, ... attempt; attempts in all = its length + 1. */
    retryScheduleMs: number[];
    /** Encrypts endpoint secrets; the previous key still decrypts during a rotation. */
    secretKey: Buffer | undefined;
    previousSecretKey: Buffer | undefined;
    /** Which worlds may deliver to loopback, private, link-local and metadata addresses. */
    privateTargets: "deny" | "test_only" | "allow";
  };
  worker: {
    concurrency: number;
    pollIntervalMs: number;
    /** Jobs fetched and locked per round trip; 0 fetches one job per round trip. */
    localQueueSize: number;
    /**
     * After a fetch that found no job, how long the local queue waits before it fetches again, however
     * many new jobs are announced meanwhile (other pools' jobs wake every pool); 0 fetches at once.
     */
    refetchDelayMs: number;
    /** How often each pool samples its runnable backlog into metrics. */
    queueSampleIntervalMs: number;
    shutdownTimeoutMs: number;
    /**
     * A pool that takes no job for this long while a job has been due this long is stalled: its
     * liveness probe fails and it exits. Above the longest job, so busy workers never count as stalled.
     */
    stallTimeoutMs: number;
    /**
     * How often each pool process beats for its runner; a pool silent for four beats is presumed dead
     * and its locked jobs are freed by another (queue/heartbeat.ts).
     */
    heartbeatIntervalMs: number;
  };
  telemetry: { sdkDisabled: boolean; serviceName: string | undefined };
};

export class ConfigError extends Error {
  override name = "ConfigError";
}

/** Parses an environment (by default the process's) into a `Config`, naming every bad variable. */
export function loadConfig(environment: Record<string, string | undefined> = process.env): Config {
  const env = parseEnvironment(environment);
  refuseInconsistentSettings(env);
  return {
    ...serverSettings(env),
    sessions: sessionSettings(env),
    idempotency: {
      retentionMs: toMs(env.IDEMPOTENCY_RETENTION_SECONDS),
      lockTimeoutMs: toMs(env.IDEMPOTENCY_LOCK_TIMEOUT_SECONDS),
    },
    paymentCodeWindowMs: toMs(env.PAYMENT_CODE_WINDOW_SECONDS),
    sandboxAutoSettleMs: toMs(env.SANDBOX_AUTO_SETTLE_SECONDS),
    ...moneySettings(env),
    webhook: {
      timeoutMs: toMs(env.WEBHOOK_TIMEOUT_SECONDS),
      retryScheduleMs: env.WEBHOOK_RETRY_SCHEDULE_SECONDS.map(toMs),
      secretKey: env.WEBHOOK_SECRET_ENCRYPTION_KEY,
      previousSecretKey: env.WEBHOOK_SECRET_ENCRYPTION_KEY_PREVIOUS,
      privateTargets: env.WEBHOOK_PRIVATE_TARGETS,
    },
    worker: workerSettings(env),
    telemetry: { sdkDisabled: env.OTEL_SDK_DISABLED, serviceName: env.OTEL_SERVICE_NAME },
  };
}

type Environment = z.infer<typeof environmentSchema>;

const toMs = (value: number) => Math.round(value * 1000);

function parseEnvironment(environment: Record<string, string | undefined>): Environment {
  const parsed = environmentSchema.safeParse(environment);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${problems.join("\n  ")}`);
  }
  return parsed.data;
}

/** Refuses settings that are each valid but wrong together. */
function refuseInconsistentSettings(env: Environment): void {
  // A lease shorter than one gateway call with its retries and backoff would let a second actor take
  // over a payout or transfer while the first one's call may still land.
  const gatewayCallMaxMs = env.GATEWAY_TIMEOUT_MS * (env.GATEWAY_RETRIES + 1) + 100 * (2 ** env.GATEWAY_RETRIES - 1);
  if (toMs(env.MONEY_OUT_LEASE_SECONDS) <= gatewayCallMaxMs) {
    throw new ConfigError(
      `Invalid configuration:\n  MONEY_OUT_LEASE_SECONDS: must exceed one gateway call with its retries (${gatewayCallMaxMs} ms)`,
    );
  }
  if (
    env.WORKER_REFETCH_DELAY_MS > 0 &&
    (env.WORKER_LOCAL_QUEUE_SIZE <= 1 || env.WORKER_REFETCH_DELAY_MS > env.WORKER_POLL_INTERVAL_MS)
  ) {
    throw new ConfigError(
      "Invalid configuration:\n  WORKER_REFETCH_DELAY_MS: needs WORKER_LOCAL_QUEUE_SIZE above 1 and must not exceed WORKER_POLL_INTERVAL_MS",
    );
  }
}

/** Where the process listens and connects, and how its HTTP server behaves. */
function serverSettings(env: Environment) {
  return {
    nodeEnv: env.NODE_ENV,
    databaseUrl: env.DATABASE_URL,
    notificationsDatabaseUrl: env.NOTIFICATIONS_DATABASE_URL ?? env.DATABASE_URL,
    databasePoolSize: env.DATABASE_POOL_SIZE,
    databaseStatementTimeoutMs: env.DATABASE_STATEMENT_TIMEOUT_MS,
    databasePreparedStatements: env.DATABASE_PREPARED_STATEMENTS,
    port: env.PORT,
    workerHttpPort: env.WORKER_HTTP_PORT,
    metricsPort: env.METRICS_PORT,
    devDataDirectory: env.DEV_DATA_DIRECTORY,
    webBuildDirectory: env.WEB_BUILD_DIRECTORY,
    publicBaseUrl: (env.PUBLIC_BASE_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ""),
    adminToken: env.ADMIN_TOKEN,
    logLevel: env.LOG_LEVEL,
    httpBodyLimitBytes: env.HTTP_BODY_LIMIT_BYTES,
    httpShutdownTimeoutMs: toMs(env.HTTP_SHUTDOWN_TIMEOUT_SECONDS),
    httpDrainDelayMs: toMs(env.HTTP_DRAIN_DELAY_SECONDS),
    rateLimit: { requests: env.RATE_LIMIT_REQUESTS, windowMs: toMs(env.RATE_LIMIT_WINDOW_SECONDS) },
    trustProxyHops: env.TRUST_PROXY_HOPS,
  } satisfies Partial<Config>;
}

function sessionSettings(env: Environment): Config["sessions"] {
  return {
    idleTimeoutMs: toMs(env.SESSION_IDLE_TIMEOUT_SECONDS),
    dashboardLifetimeMs: toMs(env.SESSION_ABSOLUTE_TIMEOUT_SECONDS),
    tillLifetimeMs: toMs(env.TILL_SESSION_ABSOLUTE_TIMEOUT_SECONDS),
    stepUpWindowMs: toMs(env.SESSION_STEP_UP_WINDOW_SECONDS),
    failuresPerAccount: env.SIGN_IN_FAILURES_PER_ACCOUNT,
    failuresPerAddress: env.SIGN_IN_FAILURES_PER_ADDRESS,
    failureWindowMs: toMs(env.SIGN_IN_FAILURE_WINDOW_SECONDS),
    clock: Date.now,
  };
}

/** The wallet gateway, payments' polls, payouts, and money-out leases. */
function moneySettings(env: Environment) {
  return {
    gateway: {
      url: env.GATEWAY_URL,
      apiKey: env.GATEWAY_API_KEY,
      timeoutMs: env.GATEWAY_TIMEOUT_MS,
      retries: env.GATEWAY_RETRIES,
      simulatorPort: env.GATEWAY_SIM_PORT,
    },
    payment: {
      inquiryMinIntervalMs: toMs(env.PAYMENT_INQUIRY_MIN_INTERVAL_SECONDS),
      pollScheduleMs: env.PAYMENT_POLL_SCHEDULE_SECONDS.map(toMs),
      deepLinkPrefix: env.WALLET_DEEP_LINK_PREFIX,
      ussdPrefix: env.WALLET_USSD_PREFIX,
    },
    payoutSettleMs: toMs(env.PAYOUT_SETTLE_SECONDS),
    payoutProcessorIntervalMs: toMs(env.PAYOUT_PROCESSOR_INTERVAL_SECONDS),
    payoutRetryMs: toMs(env.PAYOUT_RETRY_SECONDS),
    moneyOut: {
      leaseMs: toMs(env.MONEY_OUT_LEASE_SECONDS),
      reconcileMs: toMs(env.MONEY_OUT_RECONCILE_SECONDS),
      withdrawalCodeWindowMs: toMs(env.WITHDRAWAL_CODE_WINDOW_SECONDS),
      withdrawalDeepLinkPrefix: env.WALLET_WITHDRAWAL_DEEP_LINK_PREFIX,
      bankChangeLimitCents: { USD: env.BANK_CHANGE_LIMIT_USD_CENTS, ZWG: env.BANK_CHANGE_LIMIT_ZWG_CENTS },
    },
  } satisfies Partial<Config>;
}

function workerSettings(env: Environment): Config["worker"] {
  return {
    concurrency: env.WORKER_CONCURRENCY,
    pollIntervalMs: env.WORKER_POLL_INTERVAL_MS,
    localQueueSize: env.WORKER_LOCAL_QUEUE_SIZE,
    refetchDelayMs: env.WORKER_REFETCH_DELAY_MS,
    queueSampleIntervalMs: toMs(env.WORKER_QUEUE_SAMPLE_INTERVAL_SECONDS),
    shutdownTimeoutMs: toMs(env.WORKER_SHUTDOWN_TIMEOUT_SECONDS),
    stallTimeoutMs: toMs(env.WORKER_STALL_TIMEOUT_SECONDS),
    heartbeatIntervalMs: toMs(env.WORKER_HEARTBEAT_SECONDS),
  };
}

/**
 * The key that encrypts webhook endpoint secrets, which the API and the webhook-delivery pool require
 * (the dev entry point generates one). The previous key alone cannot encrypt new secrets.
 */
export function requireWebhookSecretKey(config: Config): Buffer {
  if (config.webhook.secretKey === undefined) {
    throw new ConfigError("Invalid configuration:\n  WEBHOOK_SECRET_ENCRYPTION_KEY: required for this service");
  }
  return config.webhook.secretKey;
}

/** The database URL, which every service except the dev entry point requires. */
export function requireDatabaseUrl(config: Config): string {
  if (config.databaseUrl === undefined) {
    throw new ConfigError("Invalid configuration:\n  DATABASE_URL: required for this service");
  }
  return config.databaseUrl;
}
