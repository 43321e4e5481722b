import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { freePort } from "../../src/platform/db/embedded.ts";

/**
 * Debian's PgBouncer (1.18 on bookworm; scripts/install-test-tools.sh installs it) in front of the
 * test PostgreSQL, as operators run it for the API: `pool_mode = transaction`, the API's
 * connection-time settings ignored (they are set on the database instead, as k8s/base/cnpg does), and
 * no prepared statements kept across transactions (1.18 has no `max_prepared_statements`).
 */

const BINARIES = ["/usr/sbin/pgbouncer", "/usr/bin/pgbouncer"];

export type PgBouncer = {
  port: number;
  /** The pooler's process, whose CPU bench:deploy --pooler reports. */
  pid: number;
  /** The URL of `database` through the pooler (the fallback entry: any database of the server). */
  urlFor: (database: string) => string;
  /** The pooler's admin console (`SHOW STATS`, ...), simple-protocol statements only. */
  admin: (statement: string) => Promise<Record<string, unknown>[]>;
  stop: () => Promise<void>;
};

export function pgbouncerBinary(): string {
  const found = BINARIES.find((path) => existsSync(path));
  if (found === undefined) {
    throw new Error(
      "pgbouncer is not installed: scripts/install-test-tools.sh installs Debian's (needs root and apt-get)",
    );
  }
  return found;
}

/**
 * Starts a transaction-mode PgBouncer on a free loopback port in front of the server at `serverUrl`.
 * `poolSize`: server connections per database and user, fewer than the API's clients so that their
 * transactions share server sessions, as they do in production. `aliases`: more entries, each one
 * database of the server under another name with a pool size of its own.
 */
export async function startPgBouncer(options: {
  serverUrl: string;
  poolSize: number;
  aliases?: Record<string, { database: string; poolSize: number }>;
}): Promise<PgBouncer> {
  const binary = pgbouncerBinary();
  const server = new URL(options.serverUrl);
  const user = decodeURIComponent(server.username || "postgres");
  const password = decodeURIComponent(server.password);
  const target = `host=${server.hostname} port=${server.port || "5432"} user=${user}${password === "" ? "" : ` password=${password}`}`;
  const directory = await mkdtemp(join(tmpdir(), "pgbouncer-"));
  // As root PgBouncer drops to `nobody` (it refuses to run as root), which must read its files.
  await chmod(directory, 0o755);
  const port = await freePort();
  const aliases = Object.entries(options.aliases ?? {}).map(
    ([name, alias]) => `${name} = ${target} dbname=${alias.database} pool_size=${alias.poolSize}`,
  );
  await writeFile(join(directory, "userlist.txt"), `"${user}" ""\n`, { mode: 0o644 });
  await writeFile(
    join(directory, "pgbouncer.ini"),
    [
      "[databases]",
      ...aliases,
      `* = ${target}`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${port}`,
      "unix_socket_dir =",
      "auth_type = trust",
      `auth_file = ${join(directory, "userlist.txt")}`,
      `admin_users = ${user}`,
      "pool_mode = transaction",
      `default_pool_size = ${options.poolSize}`,
      "max_client_conn = 500",
      "server_reset_query =",
      "ignore_startup_parameters = extra_float_digits,options,statement_timeout,idle_in_transaction_session_timeout",
      "",
    ].join("\n"),
    { mode: 0o644 },
  );
  const runAs = process.getuid?.() === 0 ? ["-u", "nobody"] : [];
  const child = spawn(binary, [...runAs, join(directory, "pgbouncer.ini")], { stdio: ["ignore", "ignore", "pipe"] });
  let output = "";
  child.stderr?.on("data", (chunk) => {
    output += String(chunk);
  });
  await listening(child, port, () => output);
  const urlFor = (database: string) =>
    `postgres://${encodeURIComponent(user)}@127.0.0.1:${port}/${encodeURIComponent(database)}`;
  return {
    port,
    pid: child.pid ?? 0,
    urlFor,
    admin: async (statement) => {
      const client = new pg.Client({ connectionString: urlFor("pgbouncer") });
      await client.connect();
      try {
        return (await client.query(statement)).rows;
      } finally {
        await client.end();
      }
    },
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
      await rm(directory, { recursive: true, force: true });
    },
  };
}

/** Resolves once the pooler accepts connections; rejects when it exits first or after 30 s. */
async function listening(child: ChildProcess, port: number, output: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`pgbouncer exited (${child.exitCode ?? child.signalCode}): ${output()}`);
    }
    const accepted = await new Promise<boolean>((resolve) => {
      const socket = connect(port, "127.0.0.1");
      socket.once("connect", () => {
        socket.destroy();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });
    if (accepted) {
      return;
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`pgbouncer did not listen on ${port} within 30 s: ${output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
