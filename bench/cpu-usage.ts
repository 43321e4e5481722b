import { readFile } from "node:fs/promises";
import pg from "pg";

/**
 * Where the time goes: the CPU seconds (user + system) a server process and the database backends
 * serving it spend during a measurement, read from /proc. On this 2-core machine the load generator,
 * the server and PostgreSQL share the CPUs, so throughput follows the CPU a request costs across all
 * of them; these figures split that cost between the server and the database, and are steadier than
 * requests per second. Null where /proc cannot tell (not Linux, or a database on another machine).
 */
export type CpuSample = { serverSeconds: number; databaseSeconds: number } | null;

const CLOCK_TICKS_PER_SECOND = 100;

export async function cpuSecondsOf(pid: number): Promise<number | null> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name (which may contain spaces): utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

async function databaseBackendPids(databaseUrl: string): Promise<number[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>(
      "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
    );
    return rows.map((row) => row.pid);
  } finally {
    await client.end();
  }
}

/** Starts counting; the returned function tells the CPU seconds spent since. */
export async function startCpuSample(serverPid: number, databaseUrl: string): Promise<() => Promise<CpuSample>> {
  const read = async () => {
    const backends = await databaseBackendPids(databaseUrl);
    const seconds = await Promise.all([serverPid, ...backends].map(cpuSecondsOf));
    return { pids: backends, server: seconds[0] ?? null, backends: seconds.slice(1) };
  };
  const before = await read();
  return async () => {
    const after = await read();
    if (before.server === null || after.server === null) {
      return null;
    }
    // Backends present at both ends (the pool's connections are opened during the warm-up).
    let databaseSeconds = 0;
    for (const [index, pid] of after.pids.entries()) {
      const start = before.backends[before.pids.indexOf(pid)] ?? null;
      const end = after.backends[index] ?? null;
      if (start !== null && end !== null) {
        databaseSeconds += end - start;
      }
    }
    return { serverSeconds: after.server - before.server, databaseSeconds };
  };
}

/** "server 0.31 ms + database 0.24 ms of CPU per request", or nothing when not measurable. */
export function cpuPerRequest(sample: CpuSample, requests: number): string {
  if (sample === null || requests === 0) {
    return "CPU per request n/a";
  }
  const perRequestMs = (seconds: number) => ((1000 * seconds) / requests).toFixed(2);
  return `CPU per request: server ${perRequestMs(sample.serverSeconds)} ms + database ${perRequestMs(sample.databaseSeconds)} ms`;
}

/**
 * The CPU of the server and of the database's backends summed per kind of run (plain, priced…) over
 * many runs: `measure` wraps one run; `perRequestMs` is a kind's CPU per request, in milliseconds.
 */
export function cpuTally<Kind extends string>(serverPid: number, databaseUrl: string) {
  const spent = new Map<Kind, { server: number; database: number; requests: number }>();
  return {
    async measure<Result extends { total: number }>(kind: Kind, run: () => Promise<Result>): Promise<Result> {
      const cpuSince = await startCpuSample(serverPid, databaseUrl);
      const result = await run();
      const sample = await cpuSince();
      const sum = spent.get(kind) ?? { server: 0, database: 0, requests: 0 };
      spent.set(kind, {
        server: sum.server + (sample?.serverSeconds ?? Number.NaN),
        database: sum.database + (sample?.databaseSeconds ?? Number.NaN),
        requests: sum.requests + result.total,
      });
      return result;
    },
    perRequestMs(kind: Kind): { server: number; database: number } {
      const sum = spent.get(kind) ?? { server: Number.NaN, database: Number.NaN, requests: 0 };
      return { server: (1000 * sum.server) / sum.requests, database: (1000 * sum.database) / sum.requests };
    },
  };
}
