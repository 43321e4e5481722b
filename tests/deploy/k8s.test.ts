import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { parse, parseAllDocuments } from "yaml";
import { z } from "zod";
import { loadConfig } from "../../src/platform/config.ts";
import type { PoolName } from "../../src/platform/queue/task.ts";
import { workerPgPoolSize } from "../../src/platform/queue/worker-pool.ts";
import { createGateways } from "../../src/wiring/gateways.ts";
import { poolPumps, poolTasks } from "../../src/wiring/pools.ts";
import { modelFor } from "../support/kube-models.ts";
import { buildKustomization, type KubeObject } from "../support/kustomize.ts";

/** k8s/ built as `kubectl kustomize` would, validated against Kubernetes schemas and the chart's needs. */

const root = path.resolve(import.meta.dirname, "../..");
const overlays = ["k8s/base", "k8s/kind"];
const built = Object.fromEntries(overlays.map((overlay) => [overlay, buildKustomization(path.join(root, overlay))]));
const values = parse(readFileSync(path.join(root, "helm/pos-platform/values.yaml"), "utf8"));

const find = (objects: KubeObject[], kind: string, name: string) => {
  const found = objects.find((object) => object.kind === kind && object.metadata.name === name);
  if (found === undefined) {
    throw new Error(`no ${kind}/${name}`);
  }
  return found;
};

// The fields of CloudNativePG's objects these tests read, parsed (so a missing one fails by name).
const poolerSpec = z.object({
  cluster: z.object({ name: z.string() }),
  instances: z.number().int(),
  type: z.enum(["rw", "ro", "r"]),
  pgbouncer: z.object({
    poolMode: z.enum(["session", "transaction"]),
    parameters: z.record(z.string(), z.string()),
  }),
});
const clusterSpec = z.object({
  instances: z.number().int(),
  postgresql: z.object({
    parameters: z.record(z.string(), z.string()),
    synchronous: z.object({ method: z.enum(["any", "first"]), number: z.number().int() }).optional(),
  }),
  bootstrap: z.object({ initdb: z.object({ postInitApplicationSQL: z.array(z.string()) }) }),
});
const pooler = (objects: KubeObject[], name: string) => poolerSpec.parse(find(objects, "Pooler", name).spec);
const cluster = (objects: KubeObject[]) => clusterSpec.parse(find(objects, "Cluster", "pos-db").spec);

const workerValues = z.record(
  z.string(),
  z.object({
    replicas: z.number().optional(),
    databasePoolSize: z.number().optional(),
    concurrency: z.number(),
    env: z.object({ WORKER_LOCAL_QUEUE_SIZE: z.string().optional() }).optional(),
    keda: z.object({ maxReplicaCount: z.number() }),
  }),
);

test.each(overlays)("%s builds, and every object validates against its Kubernetes schema", async (overlay) => {
  const objects = built[overlay] ?? [];
  expect(objects.map((object) => `${object.kind}/${object.metadata.name}`).sort()).toEqual([
    "Cluster/pos-db",
    "Namespace/pos",
    "Pooler/pos-db-pooler-api",
    "Pooler/pos-db-pooler-workers",
    "TriggerAuthentication/pos-platform-keda-postgres",
  ]);
  const unvalidated: string[] = [];
  for (const object of objects) {
    const model = await modelFor(object);
    if (model === undefined) {
      unvalidated.push(object.apiVersion);
    } else {
      expect(() => model.validate()).not.toThrow();
    }
    expect(object.metadata.namespace).toBe(object.kind === "Namespace" ? undefined : "pos");
  }
  // CloudNativePG publishes no npm models: its objects are checked by the tests below (and by
  // kubeconform with the CRD catalog in make chart-check).
  expect([...new Set(unvalidated)]).toEqual(["postgresql.cnpg.io/v1"]);
});

test("the Cluster replicates synchronously to at least one of its replicas (a failover loses no commit)", () => {
  const spec = cluster(built["k8s/base"] ?? []);
  expect(spec.postgresql.synchronous?.number).toBeGreaterThanOrEqual(1);
  // One replica may be lost without blocking commits: more replicas than the commit waits for.
  expect(spec.instances - 1).toBeGreaterThan(spec.postgresql.synchronous?.number ?? 0);
});

test("a schema violation is caught", async () => {
  const [namespace] = parseAllDocuments("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: 7\n").map(
    (document) => document.toJS() as KubeObject,
  );
  const model = await modelFor(namespace as KubeObject);
  expect(() => model?.validate()).toThrow(/metadata\/name must be string/);
});

test("the namespace enforces the restricted Pod Security Standard", () => {
  const namespace = find(built["k8s/base"] ?? [], "Namespace", "pos");
  expect(namespace.metadata.labels).toMatchObject({ "pod-security.kubernetes.io/enforce": "restricted" });
});

test("the API's pooler is in transaction mode, the workers' in session mode, both on the Cluster", () => {
  const objects = built["k8s/base"] ?? [];
  const api = pooler(objects, "pos-db-pooler-api");
  const workers = pooler(objects, "pos-db-pooler-workers");
  expect(api).toMatchObject({ cluster: { name: "pos-db" }, type: "rw", pgbouncer: { poolMode: "transaction" } });
  expect(workers).toMatchObject({ cluster: { name: "pos-db" }, type: "rw", pgbouncer: { poolMode: "session" } });
  // What the API sends at connect time (src/platform/db/pool.ts: options; slonik: the two timeouts) must
  // be ignored by a transaction pooler, and provided by the server instead.
  expect(api.pgbouncer.parameters.ignore_startup_parameters?.split(",")).toEqual(
    expect.arrayContaining(["options", "statement_timeout", "idle_in_transaction_session_timeout"]),
  );
  const { postgresql, bootstrap } = cluster(objects);
  expect(postgresql.parameters.timezone).toBe("UTC");
  expect(bootstrap.initdb.postInitApplicationSQL.join("\n")).toMatch(
    /statement_timeout[\s\S]*idle_in_transaction_session_timeout/,
  );
});

test("KEDA's TriggerAuthentication is the one the chart names, on the Cluster's application secret", () => {
  const auth = find(built["k8s/base"] ?? [], "TriggerAuthentication", values.keda.triggerAuthenticationName);
  expect(auth.spec).toEqual({ secretTargetRef: [{ parameter: "connection", name: "pos-db-app", key: "uri" }] });
});

/** A pool's name from its key in values.yaml (`webhookDelivery` → `webhook-delivery`). */
const workerPoolName = (key: string) => key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`) as PoolName;

test("the connection budget fits max_connections at every component's maximum replicas", () => {
  const objects = built["k8s/base"] ?? [];
  const serverConnections = (spec: z.infer<typeof poolerSpec>) =>
    spec.instances * Number(spec.pgbouncer.parameters.default_pool_size);
  const { port: _port, ...pools } = values.workers;
  // A pool process holds its slonik pool, graphile-worker's pg pool when the pool runs tasks, and one
  // LISTEN connection per pump woken by announcements (src/wiring/worker-pools.ts).
  const gateways = createGateways(loadConfig({}));
  const [tasks, pumps] = [poolTasks(gateways), poolPumps(gateways)];
  const workerClients = Object.entries(workerValues.parse(pools))
    .map(([key, pool]) => {
      const name = workerPoolName(key);
      const replicas = Math.max(pool.replicas ?? values.defaults.replicas, pool.keda.maxReplicaCount);
      const graphileWorker =
        tasks[name].length === 0
          ? 0
          : workerPgPoolSize({
              concurrency: pool.concurrency,
              localQueueSize: Number(pool.env?.WORKER_LOCAL_QUEUE_SIZE ?? 0),
            });
      const perProcess =
        (pool.databasePoolSize ?? values.defaults.databasePoolSize) +
        graphileWorker +
        pumps[name].filter((pump) => pump.channel !== null).length;
      return replicas * perProcess;
    })
    .reduce((sum, each) => sum + each, 0);
  // Each API replica's one LISTEN connection for wallet-sale waits, through the session pooler.
  const apiListeners = values.api.autoscaling.maxReplicas;
  const sessionClients = workerClients + apiListeners;
  // The migration job, KEDA's polls, an operator's session.
  const others = 10;
  const superuserReserved = 3;
  const budget = sessionClients + serverConnections(pooler(objects, "pos-db-pooler-api")) + others;
  expect(budget).toBeLessThanOrEqual(
    Number(cluster(objects).postgresql.parameters.max_connections) - superuserReserved,
  );
  // In session mode every client holds a server connection: the pooler must admit them all.
  expect(serverConnections(pooler(objects, "pos-db-pooler-workers"))).toBeGreaterThanOrEqual(sessionClients);
  // The figures helm/pos-platform/README.md states.
  expect(workerClients).toBe(180);
  expect(budget).toBe(280);
});

const kubectl = (() => {
  try {
    execFileSync("kubectl", ["version", "--client"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

// On machines with kubectl (operators', this one when installed), the loader must agree with it.
(kubectl ? test.each(overlays) : test.skip.each(overlays))(
  "%s: the loader builds what kubectl kustomize builds",
  (overlay) => {
    const output = execFileSync("kubectl", ["kustomize", path.join(root, overlay)], { encoding: "utf8" });
    const key = (object: KubeObject) => `${object.kind}/${object.metadata.name}`;
    const sorted = (objects: KubeObject[]) => [...objects].sort((a, b) => key(a).localeCompare(key(b)));
    const fromKubectl = parseAllDocuments(output).map((document) => document.toJS() as KubeObject);
    expect(sorted(built[overlay] ?? [])).toEqual(sorted(fromKubectl));
  },
);
