import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { Ajv } from "ajv";
import pg from "pg";
import { parse } from "yaml";
import { loadConfig } from "../../src/platform/config.ts";
import { sql } from "../../src/platform/db/pool.ts";
import { addJob } from "../../src/platform/queue/add-job.ts";
import { poolNames } from "../../src/platform/queue/task.ts";
import { createGateways } from "../../src/wiring/gateways.ts";
import { poolTasks } from "../../src/wiring/pools.ts";
import { createTestDatabase } from "../support/database.ts";

/**
 * The Helm chart, checked without helm: its values against its schema, the values its templates use,
 * its per-pool task identifiers against the code, and the KEDA query against a real queue.
 */

const chart = path.resolve(import.meta.dirname, "../../helm/pos-platform");
const read = (file: string) => readFileSync(path.join(chart, file), "utf8");
const values = parse(read("values.yaml")) as Record<string, unknown>;
const schema = JSON.parse(read("values.schema.json")) as Record<string, unknown>;
const templates = readdirSync(path.join(chart, "templates")).map((file) => read(path.join("templates", file)));

function validator() {
  // strict: the schema itself may use no unknown keywords.
  return new Ajv({ strict: true, allowUnionTypes: true, allErrors: true }).compile(schema);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Values deep-merged as Helm merges a -f file over the chart's values.yaml (maps merge, the rest replaces). */
function merged(base: Record<string, unknown>, override: Record<string, unknown>): Record<string, unknown> {
  const result = { ...base };
  for (const [key, value] of Object.entries(override)) {
    const current = result[key];
    result[key] = isObject(current) && isObject(value) ? merged(current, value) : value;
  }
  return result;
}

test("values.yaml and the CI values validate against values.schema.json", () => {
  const validate = validator();
  expect(validate(values) ? [] : validate.errors).toEqual([]);
  const ciValues = merged(values, parse(read("ci/test-values.yaml")));
  expect(validate(ciValues) ? [] : validate.errors).toEqual([]);
});

test("the schema refuses unknown keys and bad values", () => {
  const validate = validator();
  const withTypo = merged(values, { api: { replica: 3 } });
  expect(validate(withTypo)).toBe(false);
  expect(validate.errors?.[0]).toMatchObject({ instancePath: "/api", keyword: "additionalProperties" });
  expect(validate(merged(values, { workers: { codeExpiry: { keda: { enabled: "yes" } } } }))).toBe(false);
  expect(validate(merged(values, { secrets: { adminToken: "short" } }))).toBe(false);
  expect(validate(merged(values, { secrets: { webhookSecretEncryptionKey: "not base64 of 32 bytes" } }))).toBe(false);
  // Secrets belong in the Secret, never in the ConfigMap.
  expect(validate(merged(values, { config: { ADMIN_TOKEN: "0123456789abcdef0123" } }))).toBe(false);
});

/** Every `.Values.a.b` path the templates read (also through `$.Values` and `.root.Values`). */
function referencedPaths(): string[] {
  const paths = new Set<string>();
  for (const template of templates) {
    for (const match of template.matchAll(/\.Values((?:\.[A-Za-z_][A-Za-z0-9_]*)+)/g)) {
      paths.add((match[1] ?? "").slice(1));
    }
  }
  return [...paths].sort();
}

function schemaAt(keys: string[]): unknown {
  let node: unknown = schema;
  for (const key of keys) {
    while (isObject(node) && typeof node.$ref === "string") {
      node = (schema.definitions as Record<string, unknown>)[node.$ref.replace("#/definitions/", "")];
    }
    node = isObject(node) && isObject(node.properties) ? node.properties[key] : undefined;
  }
  return node;
}

test("every .Values path the templates read exists in values.yaml and in the schema", () => {
  const paths = referencedPaths();
  expect(paths).toEqual(expect.arrayContaining(["api.autoscaling.enabled", "secrets.existingSecret", "workers.port"]));
  const missingInValues = paths.filter((each) => {
    let node: unknown = values;
    for (const key of each.split(".")) {
      node = isObject(node) ? node[key] : undefined;
    }
    return node === undefined;
  });
  const missingInSchema = paths.filter((each) => schemaAt(each.split(".")) === undefined);
  expect({ missingInValues, missingInSchema }).toEqual({ missingInValues: [], missingInSchema: [] });
});

test("the chart's pools and their task identifiers are the code's", () => {
  const chartTasks = parse(read("files/pool-tasks.yaml")) as Record<string, string[]>;
  const codeTasks = Object.fromEntries(
    Object.entries(poolTasks(createGateways(loadConfig({})))).map(([pool, tasks]) => [
      pool,
      tasks.map((task) => task.identifier),
    ]),
  );
  expect(chartTasks).toEqual(codeTasks);
  const helperPools = read("templates/_helpers.tpl").match(/define "pos-platform.workerPools" -}}\n([^{]*)/)?.[1];
  expect(Object.values(parse(helperPools ?? "")).sort()).toEqual([...poolNames].sort());
});

/** Every variable the chart sets is one the services read (or one the issue names for the next modules). */
test("the environment the chart sets is the configuration the services read", () => {
  const configSource = readFileSync(path.resolve(import.meta.dirname, "../../src/platform/config.ts"), "utf8");
  const read = new Set([...configSource.matchAll(/^ {2}([A-Z][A-Z0-9_]+):/gm)].map((match) => match[1]));
  const announced = ["WEBHOOK_SECRET_ENCRYPTION_KEY", "GATEWAY_URL", "GATEWAY_API_KEY"];
  const set = new Set<string>([
    ...Object.keys(values.config as object),
    ...templates.flatMap((template) =>
      [...template.matchAll(/(?:- name: |"|key: )([A-Z][A-Z0-9_]{2,})\b/g)].map((match) => match[1] ?? ""),
    ),
  ]);
  const unknown = [...set].filter(
    (name) => !read.has(name) && !announced.includes(name) && name !== "WORKER_DATABASE_URL",
  );
  expect(read.has("DATABASE_POOL_SIZE")).toBe(true);
  expect(unknown).toEqual([]);
});

test("the README's values table documents every value", () => {
  const readme = read("README.md");
  const leaves: string[] = [];
  const walk = (node: unknown, prefix: string) => {
    if (isObject(node) && Object.keys(node).length > 0 && !["config", "podSecurityContext"].includes(prefix)) {
      for (const [key, value] of Object.entries(node)) {
        walk(value, prefix === "" ? key : `${prefix}.${key}`);
      }
    } else {
      leaves.push(prefix);
    }
  };
  walk(values, "");
  const documented = (leaf: string) =>
    readme.includes(`| \`${leaf}\``) ||
    // Keys shared by the four pools are documented once as workers.<pool>.…
    readme.includes(
      `| \`${leaf.replace(/^workers\.(gatewayPoller|codeExpiry|payoutProcessor|webhookDelivery)\./, "workers.<pool>.")}\``,
    );
  expect(leaves.filter((leaf) => !documented(leaf))).toEqual([]);
});

test("each pool's due-rows KEDA query runs on the schema and counts the rows its pumps would claim", async () => {
  const db = await createTestDatabase({ poolSize: 2 });
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    const counts: Record<string, number> = {};
    for (const pool of poolNames) {
      const { rows } = await client.query(`SELECT (${read(`files/due-${pool}.sql`).trim()}) AS due`);
      counts[pool] = Number(rows[0].due);
    }
    expect(counts).toEqual(Object.fromEntries(poolNames.map((pool) => [pool, 0])));
  } finally {
    await client.end();
    await db.close();
  }
});

test("the KEDA query counts exactly the pool's runnable jobs", async () => {
  const db = await createTestDatabase({ poolSize: 2 });
  try {
    await db.database.transaction(async (transaction) => {
      for (const task of ["pool_task_a", "pool_task_a", "pool_task_b"]) {
        await addJob(transaction, { task, payload: {}, maxAttempts: 3 });
      }
      // Not runnable: scheduled later, attempts exhausted, locked by a worker, or another pool's task.
      await addJob(transaction, {
        task: "pool_task_a",
        payload: {},
        maxAttempts: 3,
        runAt: new Date(Date.now() + 60_000),
      });
      const exhausted = await addJob(transaction, { task: "pool_task_b", payload: {}, maxAttempts: 1 });
      const locked = await addJob(transaction, { task: "pool_task_b", payload: {}, maxAttempts: 3 });
      await addJob(transaction, { task: "other_pool_task", payload: {}, maxAttempts: 3 });
      await transaction.query(sql.unsafe`
        UPDATE graphile_worker._private_jobs SET attempts = 1 WHERE id = ${exhausted.id}`);
      await transaction.query(sql.unsafe`
        UPDATE graphile_worker._private_jobs SET locked_at = now(), locked_by = 'w' WHERE id = ${locked.id}`);
    });
    // The text KEDA sends, with the identifiers substituted as workers.yaml does.
    const query = read("files/runnable-jobs.sql");
    const count = async (tasks: string[]) => {
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      try {
        const { rows } = await client.query(query.replace("%TASK_IDENTIFIERS%", tasks.join(",")));
        return Number(rows[0].count);
      } finally {
        await client.end();
      }
    };
    expect(await count(["pool_task_a", "pool_task_b"])).toBe(3);
    expect(await count(["pool_task_b"])).toBe(1);
    expect(await count([])).toBe(0);
  } finally {
    await db.close();
  }
});
