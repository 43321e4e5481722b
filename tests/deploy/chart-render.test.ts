import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseAllDocuments, stringify } from "yaml";
import { loadConfig } from "../../src/platform/config.ts";
import { createGateways } from "../../src/wiring/gateways.ts";
import { poolTasks } from "../../src/wiring/pools.ts";
import { modelFor } from "../support/kube-models.ts";
import type { KubeObject } from "../support/kustomize.ts";

/**
 * The chart rendered (scripts/chart-render: Go text/template and sprig, as helm; built by make test
 * from Debian packages) and every object validated against its Kubernetes schema, plus the properties
 * the chart promises for every workload.
 */

const root = path.resolve(import.meta.dirname, "../..");
const chart = path.join(root, "helm/pos-platform");
const renderer = path.join(root, "node_modules/.cache/chart-render");
const ciValues = path.join(chart, "ci/test-values.yaml");
const directory = mkdtempSync(path.join(tmpdir(), "pos-chart-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

type Container = {
  name: string;
  command?: string[];
  env?: { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }[];
  securityContext?: Record<string, unknown>;
  readinessProbe?: { httpGet: { path: string } };
  livenessProbe?: { httpGet: { path: string } };
  startupProbe?: unknown;
  resources?: { requests?: unknown };
};
type PodSpec = {
  automountServiceAccountToken?: boolean;
  securityContext?: Record<string, unknown>;
  terminationGracePeriodSeconds?: number;
  containers: Container[];
};

function render(values: Record<string, unknown>[] = []): KubeObject[] {
  const files = values.map((each, index) => {
    const file = path.join(directory, `values-${index}.yaml`);
    writeFileSync(file, stringify(each));
    return file;
  });
  const output = execFileSync(renderer, [chart, ciValues, ...files], { encoding: "utf8", stdio: "pipe" });
  return parseAllDocuments(output)
    .map((document) => document.toJS() as KubeObject | null)
    .filter((object): object is KubeObject => object !== null);
}

function renderError(values: Record<string, unknown>): string {
  try {
    render([values]);
    return "";
  } catch (error) {
    return String((error as { stderr?: string }).stderr);
  }
}

const podSpec = (object: KubeObject) => (object.spec as { template: { spec: PodSpec } }).template.spec;
const envOf = (container: Container, name: string) => container.env?.find((variable) => variable.name === name);

const available = existsSync(renderer);
if (!available) {
  process.stderr.write("chart-render is not built (see scripts/chart-render/build.sh): chart render tests skipped\n");
}
const describeIfRenderer = available ? describe : describe.skip;

describeIfRenderer("the rendered chart", () => {
  test("every object of the CI values (all options on) validates against its Kubernetes schema", async () => {
    const objects = render();
    const kinds = objects.map((object) => object.kind);
    expect(new Set(kinds)).toEqual(
      new Set([
        "ConfigMap",
        "Deployment",
        "HorizontalPodAutoscaler",
        "Ingress",
        "Job",
        "NetworkPolicy",
        "PodDisruptionBudget",
        "PrometheusRule",
        "ScaledObject",
        "Secret",
        "Service",
        "ServiceAccount",
        "ServiceMonitor",
      ]),
    );
    // api, the four pools, the gateway simulator.
    expect(kinds.filter((kind) => kind === "Deployment")).toHaveLength(6);
    for (const object of objects) {
      const model = await modelFor(object);
      expect(model).toBeDefined();
      expect(() => model?.validate()).not.toThrow();
    }
  });

  test("every workload runs locked down, probed, with a grace period above its shutdown timeout", () => {
    const workloads = render().filter((object) => object.kind === "Deployment" || object.kind === "Job");
    for (const workload of workloads) {
      const spec = podSpec(workload);
      const context = `${workload.kind}/${workload.metadata.name}`;
      expect({ context, automount: spec.automountServiceAccountToken }).toEqual({ context, automount: false });
      expect(spec.securityContext).toMatchObject({ runAsNonRoot: true, seccompProfile: { type: "RuntimeDefault" } });
      for (const container of spec.containers) {
        expect(container.securityContext).toEqual({
          allowPrivilegeEscalation: false,
          readOnlyRootFilesystem: true,
          capabilities: { drop: ["ALL"] },
        });
        expect(container.resources?.requests).toBeDefined();
        expect(envOf(container, "NODE_ENV")?.value).toBe("production");
        if (workload.kind === "Deployment") {
          expect(container.readinessProbe?.httpGet.path).toBe("/readyz");
          // A worker pool's /livez fails while it takes no jobs though jobs are due.
          const isWorkerPool = envOf(container, "WORKER_HTTP_PORT") !== undefined;
          expect(container.livenessProbe?.httpGet.path).toBe(isWorkerPool ? "/livez" : "/healthz");
          expect(container.startupProbe).toBeDefined();
          const shutdown =
            Number(envOf(container, "HTTP_SHUTDOWN_TIMEOUT_SECONDS")?.value ?? 0) +
            Number(envOf(container, "HTTP_DRAIN_DELAY_SECONDS")?.value ?? 0) +
            Number(envOf(container, "WORKER_SHUTDOWN_TIMEOUT_SECONDS")?.value ?? 0);
          // Unset, Kubernetes gives 30 seconds.
          expect(spec.terminationGracePeriodSeconds ?? 30).toBeGreaterThan(shutdown);
        }
      }
    }
  });

  test("the API reads DATABASE_URL (and listens on WORKER_DATABASE_URL), pools and migrations WORKER_DATABASE_URL, each only the secrets it uses", () => {
    const objects = render();
    const secretsOf = (name: string) => {
      const workload = objects.find(
        (object) =>
          (object.kind === "Deployment" || object.kind === "Job") &&
          object.metadata.name === `pos-pos-platform-${name}`,
      );
      const container = workload === undefined ? undefined : podSpec(workload).containers[0];
      return Object.fromEntries(
        (container?.env ?? [])
          .filter((variable) => variable.valueFrom?.secretKeyRef !== undefined)
          .map((variable) => [variable.name, variable.valueFrom?.secretKeyRef?.key]),
      );
    };
    expect(secretsOf("api")).toEqual({
      DATABASE_URL: "DATABASE_URL",
      // LISTEN needs session mode: the pools' connection, not the API's transaction pooler.
      NOTIFICATIONS_DATABASE_URL: "WORKER_DATABASE_URL",
      ADMIN_TOKEN: "ADMIN_TOKEN",
      WEBHOOK_SECRET_ENCRYPTION_KEY: "WEBHOOK_SECRET_ENCRYPTION_KEY",
      WEBHOOK_SECRET_ENCRYPTION_KEY_PREVIOUS: "WEBHOOK_SECRET_ENCRYPTION_KEY_PREVIOUS",
      GATEWAY_API_KEY: "GATEWAY_API_KEY",
    });
    // The expiry job's last inquiry asks the live gateway.
    expect(secretsOf("code-expiry")).toEqual({
      DATABASE_URL: "WORKER_DATABASE_URL",
      GATEWAY_API_KEY: "GATEWAY_API_KEY",
    });
    expect(secretsOf("webhook-delivery")).toEqual({
      DATABASE_URL: "WORKER_DATABASE_URL",
      WEBHOOK_SECRET_ENCRYPTION_KEY: "WEBHOOK_SECRET_ENCRYPTION_KEY",
      WEBHOOK_SECRET_ENCRYPTION_KEY_PREVIOUS: "WEBHOOK_SECRET_ENCRYPTION_KEY_PREVIOUS",
    });
    expect(secretsOf("migrate")).toEqual({ DATABASE_URL: "WORKER_DATABASE_URL" });
  });

  test("the pools with tasks fetch jobs in batches and wait a second after an empty fetch; the pumps' concurrencies", () => {
    const objects = render();
    const setting = (pool: string, name: string) => {
      const workload = objects.find(
        (object) => object.kind === "Deployment" && object.metadata.name === `pos-pos-platform-${pool}`,
      );
      const container = workload === undefined ? undefined : podSpec(workload).containers[0];
      return container === undefined ? undefined : envOf(container, name)?.value;
    };
    for (const [pool, concurrency] of [
      ["payout-processor", "16"],
      ["webhook-delivery", "40"],
    ] as const) {
      // Only pumps: no graphile-worker fetching to tune.
      expect({
        size: setting(pool, "WORKER_LOCAL_QUEUE_SIZE"),
        concurrency: setting(pool, "WORKER_CONCURRENCY"),
        refetchDelayMs: setting(pool, "WORKER_REFETCH_DELAY_MS"),
      }).toEqual({ size: undefined, concurrency, refetchDelayMs: undefined });
    }
    for (const [pool, concurrency] of [
      ["gateway-poller", "32"],
      ["code-expiry", "16"],
    ] as const) {
      expect({
        pool,
        size: setting(pool, "WORKER_LOCAL_QUEUE_SIZE"),
        concurrency: setting(pool, "WORKER_CONCURRENCY"),
        refetchDelayMs: setting(pool, "WORKER_REFETCH_DELAY_MS"),
      }).toEqual({ pool, size: "5", concurrency, refetchDelayMs: "1000" });
    }
  });

  test("each pool's ScaledObject counts its pumps' due rows and, with tasks, only that pool's runnable jobs", () => {
    const enabled = Object.fromEntries(
      ["gatewayPoller", "codeExpiry", "payoutProcessor", "webhookDelivery"].map((pool) => [
        pool,
        { keda: { enabled: true } },
      ]),
    );
    const scaledObjects = render([{ workers: enabled }]).filter((object) => object.kind === "ScaledObject");
    const queries = Object.fromEntries(
      scaledObjects.map((object) => {
        const trigger = (object.spec as { triggers: { metadata: { query: string } }[] }).triggers[0];
        return [object.metadata.name.replace("pos-pos-platform-", ""), trigger?.metadata.query ?? ""];
      }),
    );
    expect(
      Object.fromEntries(Object.entries(queries).map(([pool, query]) => [pool, query.match(/'\{(.*)\}'/)?.[1]])),
    ).toEqual(
      Object.fromEntries(
        Object.entries(poolTasks(createGateways(loadConfig({})))).map(([pool, tasks]) => [
          pool,
          tasks.map((t) => t.identifier).join(","),
        ]),
      ),
    );
    expect(queries["gateway-poller"]).toContain("next_poll_at <= now()");
    expect(queries["code-expiry"]).toContain("expires_at <= now()");
    expect(queries["payout-processor"]).toContain("FROM payouts");
    expect(queries["webhook-delivery"]).toContain("greatest(next_attempt_at, lease_expires_at) <= now()");
  });

  test("component overrides fall back to the shared defaults; an existing Secret replaces the chart's", () => {
    const objects = render([
      {
        secrets: { existingSecret: "pos-secrets" },
        api: { autoscaling: { enabled: false }, replicas: 3, resources: { requests: { cpu: "500m" } } },
        workers: { codeExpiry: { enabled: false } },
      },
    ]);
    expect(objects.filter((object) => object.kind === "Secret")).toEqual([]);
    expect(objects.some((object) => object.kind === "HorizontalPodAutoscaler")).toBe(false);
    const deployment = (name: string) => {
      const found = objects.find((object) => object.kind === "Deployment" && object.metadata.name === name);
      return found as KubeObject & { spec: { replicas?: number; template: { spec: PodSpec } } };
    };
    const api = deployment("pos-pos-platform-api");
    expect(api.spec.replicas).toBe(3);
    expect(api.spec.template.spec.containers[0]?.resources).toEqual({
      requests: { cpu: "500m", memory: "192Mi" },
      limits: { memory: "512Mi" },
    });
    // Not scaled by KEDA in the CI values: the shared default.
    expect(deployment("pos-pos-platform-payout-processor").spec.replicas).toBe(2);
    expect(deployment("pos-pos-platform-code-expiry")).toBeUndefined();
    const apiSecret = envOf(api.spec.template.spec.containers[0] as Container, "DATABASE_URL");
    expect(apiSecret?.valueFrom?.secretKeyRef?.name).toBe("pos-secrets");
    // Heap bounds and main-thread optimizing compiles on node's command line; the API's young generation
    // is half the pools'.
    expect(api.spec.template.spec.containers[0]?.command).toEqual([
      "node",
      "--max-old-space-size=96",
      "--max-semi-space-size=8",
      "--no-concurrent-recompilation",
      "dist/services/api/main.js",
    ]);
    const pool = deployment("pos-pos-platform-payout-processor").spec.template.spec.containers[0] as Container;
    expect(pool.command).toEqual([
      "node",
      "--max-old-space-size=96",
      "--max-semi-space-size=16",
      "--no-concurrent-recompilation",
      "dist/services/payout-processor/main.js",
    ]);
  });

  test("the API's /metrics is scraped on its metrics port, by metricsFrom only, never through the public Service", () => {
    const prometheus = [{ namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": "monitoring" } } }];
    const objects = render([{ networkPolicy: { metricsFrom: prometheus } }]);
    const named = (kind: string, name: string) =>
      objects.find((object) => object.kind === kind && object.metadata.name === `pos-pos-platform-${name}`);
    type Spec = {
      ports?: { name: string; targetPort: string }[];
      clusterIP?: string;
      endpoints?: { port: string; path: string }[];
      ingress?: { ports: { port: string }[]; from?: unknown }[];
    };
    const specOf = (object: KubeObject | undefined) => (object?.spec ?? {}) as Spec;
    const portsOf = (object: KubeObject | undefined) =>
      (specOf(object).ports ?? []).map(({ name, targetPort }) => `${name}->${targetPort}`);
    const api = podSpec(named("Deployment", "api") as KubeObject).containers[0] as Container & {
      ports: { name: string; containerPort: number }[];
    };
    expect(api.ports).toEqual([
      { name: "http", containerPort: 8080 },
      { name: "metrics", containerPort: 9464 },
    ]);
    expect(envOf(api, "METRICS_PORT")?.value).toBe("9464");
    expect(portsOf(named("Service", "api"))).toEqual(["http->http"]);
    expect(portsOf(named("Service", "api-metrics"))).toEqual(["metrics->metrics"]);
    expect(specOf(named("Service", "api-metrics")).clusterIP).toBe("None");
    const monitor = objects.find((object) => object.kind === "ServiceMonitor");
    expect((specOf(monitor).endpoints ?? []).map(({ port, path }) => `${port} ${path}`).sort()).toEqual([
      "metrics /metrics",
      "ops /metrics",
    ]);
    const ingress = specOf(named("NetworkPolicy", "api")).ingress ?? [];
    expect(ingress.map((rule) => ({ ports: rule.ports.map(({ port }) => port), from: rule.from }))).toEqual([
      { ports: ["http"], from: undefined },
      { ports: ["metrics"], from: prometheus },
    ]);
    expect(renderError({ api: { metricsPort: 8080 } })).toContain("api.metricsPort must differ from api.port");
  });

  test("the chart refuses an install without credentials and a grace period shorter than the drain", () => {
    expect(renderError({ secrets: { databaseUrl: "" } })).toContain("secrets.databaseUrl is required");
    expect(renderError({ api: { terminationGracePeriodSeconds: 20 } })).toContain(
      "api.terminationGracePeriodSeconds must be at least",
    );
    expect(renderError({ workers: { payoutProcessor: { terminationGracePeriodSeconds: 30 } } })).toContain(
      "workers.payoutProcessor.terminationGracePeriodSeconds must be at least",
    );
  });
});
