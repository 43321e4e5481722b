import { readFile } from "node:fs/promises";
import { parse as parseYaml } from "yaml";
import { type PoolName, poolNames } from "../src/platform/queue/task.ts";
import { cpuSecondsOf } from "./cpu-usage.ts";

/** The deployment shape's settings and processes, for bench:deploy: the chart's values, RSS, CPU. */

type Environment = Record<string, unknown> | undefined;
type Component = { nodeArgs?: string[]; env?: Environment };
type ChartValues = {
  defaults: Component & { databasePoolSize: number };
  api: Component;
  workers: Record<string, Component & { concurrency: number; databasePoolSize?: number }>;
};

/** A process as the chart runs it: `node <nodeArgs> dist/services/<name>/main.js` with `env`. */
export type ChartProcess = { nodeArgs: string[]; env: Record<string, string> };

const chartValues = async () => parseYaml(await readFile("helm/pos-platform/values.yaml", "utf8")) as ChartValues;

/** A values `env` map as the container receives it: every value a string. */
const stringValues = (environment: Environment): Record<string, string> =>
  Object.fromEntries(Object.entries(environment ?? {}).map(([name, value]) => [name, String(value)]));

/** A component's node options: its own list, else the defaults'; `--…-args` given instead replace both. */
const nodeArgsOf = (component: Component, defaults: Component, argsOverride: string | undefined) =>
  argsOverride === undefined
    ? (component.nodeArgs ?? defaults.nodeArgs ?? [])
    : argsOverride.split(" ").filter(Boolean);

/**
 * Each pool's process as the chart runs it: node's options (the pool's or the defaults' `nodeArgs`, or
 * `--pool-args` for every pool), WORKER_CONCURRENCY, DATABASE_POOL_SIZE (the pool's, or the
 * defaults'), the extra `env` of `defaults` and of the pool, then the `--pool-env` overrides.
 */
export async function chartPoolProcesses(
  argsOverride: string | undefined,
  envOverrides: readonly string[],
): Promise<Record<PoolName, ChartProcess>> {
  const chart = await chartValues();
  const processes = Object.fromEntries(
    poolNames.map((pool) => {
      const key = pool.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
      const settings = chart.workers[key];
      if (settings === undefined) throw new Error(`helm values have no workers.${key}`);
      const env: Record<string, string> = {
        WORKER_CONCURRENCY: String(settings.concurrency),
        DATABASE_POOL_SIZE: String(settings.databasePoolSize ?? chart.defaults.databasePoolSize),
        ...stringValues(chart.defaults.env),
        ...stringValues(settings.env),
      };
      return [pool, { nodeArgs: nodeArgsOf(settings, chart.defaults, argsOverride), env }];
    }),
  ) as Record<PoolName, ChartProcess>;
  for (const override of envOverrides) {
    const match = /^([a-z-]+):([A-Z0-9_]+)=(.*)$/.exec(override);
    const pool = match?.[1] as PoolName | undefined;
    if (match === null || pool === undefined || !poolNames.includes(pool)) {
      throw new Error(`--pool-env ${override}: expected pool:NAME=VALUE with a pool of ${poolNames.join(", ")}`);
    }
    processes[pool].env[match[2] as string] = match[3] as string;
  }
  return processes;
}

/**
 * The API's process as the chart runs it: node's options (`api.nodeArgs` or the defaults', or
 * `--api-args` instead), the extra `env` of `defaults` and `api`, then the `--api-env NAME=VALUE`
 * overrides.
 */
export async function chartApiProcess(
  argsOverride: string | undefined,
  envOverrides: readonly string[],
): Promise<ChartProcess> {
  const { defaults, api } = await chartValues();
  const env = { ...stringValues(defaults.env), ...stringValues(api.env) };
  for (const override of envOverrides) {
    const match = /^([A-Z0-9_]+)=(.*)$/.exec(override);
    if (match === null) throw new Error(`--api-env ${override}: expected NAME=VALUE`);
    env[match[1] as string] = match[2] as string;
  }
  return { nodeArgs: nodeArgsOf(api, defaults, argsOverride), env };
}

export async function peakRssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => "");
  const match = /VmHWM:\s+(\d+) kB/.exec(status);
  return match === null ? Number.NaN : Number(match[1]) / 1024;
}

export async function sumCpu(pids: readonly number[]): Promise<number> {
  const seconds = await Promise.all(pids.map(cpuSecondsOf));
  return seconds.reduce<number>((sum, value) => sum + (value ?? 0), 0);
}
