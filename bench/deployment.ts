import { readFile } from "node:fs/promises";
import { parse as parseYaml } from "yaml";
import { type PoolName, poolNames } from "../src/platform/queue/task.ts";
import { cpuSecondsOf } from "./cpu-usage.ts";

/** The deployment shape's settings and processes, for bench:deploy: the chart's pool values, RSS, CPU. */

/**
 * Each pool's environment as the chart sets it: WORKER_CONCURRENCY, DATABASE_POOL_SIZE (the pool's, or
 * the defaults') and the pool's extra `env`, then the `--pool-env` overrides.
 */
export async function chartPoolEnvironments(
  overrides: readonly string[],
): Promise<Record<PoolName, Record<string, string>>> {
  type PoolValues = { concurrency: number; databasePoolSize?: number; env?: Record<string, unknown> };
  const chart = parseYaml(await readFile("helm/pos-platform/values.yaml", "utf8")) as {
    defaults: { databasePoolSize: number };
    workers: Record<string, PoolValues>;
  };
  const environments = Object.fromEntries(
    poolNames.map((pool) => {
      const key = pool.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
      const settings = chart.workers[key];
      if (settings === undefined) throw new Error(`helm values have no workers.${key}`);
      const environment: Record<string, string> = {
        WORKER_CONCURRENCY: String(settings.concurrency),
        DATABASE_POOL_SIZE: String(settings.databasePoolSize ?? chart.defaults.databasePoolSize),
        ...Object.fromEntries(Object.entries(settings.env ?? {}).map(([name, value]) => [name, String(value)])),
      };
      return [pool, environment];
    }),
  ) as Record<PoolName, Record<string, string>>;
  for (const override of overrides) {
    const match = /^([a-z-]+):([A-Z0-9_]+)=(.*)$/.exec(override);
    const pool = match?.[1] as PoolName | undefined;
    if (match === null || pool === undefined || !poolNames.includes(pool)) {
      throw new Error(`--pool-env ${override}: expected pool:NAME=VALUE with a pool of ${poolNames.join(", ")}`);
    }
    environments[pool][match[2] as string] = match[3] as string;
  }
  return environments;
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
