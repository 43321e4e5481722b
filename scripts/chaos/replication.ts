import { execFile } from "node:child_process";
import { appendFile, chmod, mkdir, readFile, rm } from "node:fs/promises";
import { createServer, type Socket, connect as tcpConnect } from "node:net";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { freePort } from "../../src/platform/db/embedded.ts";

/**
 * A primary and a streaming standby of PostgreSQL 15 (Debian's binaries) on loopback ports, and a TCP
 * switch standing in for CloudNativePG's read-write Service: clients connect to the switch, which
 * forwards to whichever server it points at. As root the servers run as the `postgres` user.
 */

const BIN = "/usr/lib/postgresql/15/bin";
const run = promisify(execFile);

export type Replication = "synchronous" | "asynchronous";

type Server = { name: string; directory: string; port: number };

function asPostgres(): { uid: number; gid: number } | undefined {
  return process.getuid?.() === 0 ? { uid: POSTGRES_IDS.uid, gid: POSTGRES_IDS.gid } : undefined;
}
const POSTGRES_IDS = { uid: -1, gid: -1 };

async function resolvePostgresUser(): Promise<void> {
  if (process.getuid?.() !== 0) {
    return;
  }
  const { stdout } = await run("id", ["-u", "postgres"]);
  const { stdout: group } = await run("id", ["-g", "postgres"]);
  POSTGRES_IDS.uid = Number(stdout.trim());
  POSTGRES_IDS.gid = Number(group.trim());
}

const tool = (name: string, args: string[]) => run(path.join(BIN, name), args, { cwd: "/", ...asPostgres() });

async function startServer(server: Server): Promise<number> {
  await tool("pg_ctl", ["start", "-w", "-t", "60", "-D", server.directory, "-l", `${server.directory}.log`]);
  // The postmaster's pid is the first line of postmaster.pid: the process the failover SIGKILLs.
  return Number((await readFile(path.join(server.directory, "postmaster.pid"), "utf8")).split("\n")[0]);
}

export type ReplicatedCluster = {
  primaryPort: number;
  standbyPort: number;
  /** The replication state the primary reports for the standby (`sync`, `async`), once streaming. */
  syncState: () => Promise<string | undefined>;
  /**
   * Stalls the standby's replication: from now on it receives nothing more from the primary (with
   * synchronous replication, commits wait; with asynchronous, they return and the standby falls behind).
   */
  stallReplication: () => void;
  /** SIGKILLs the primary's postmaster and resolves once it is gone. */
  killPrimary: () => Promise<void>;
  /** Promotes the standby and resolves once it accepts writes. */
  promoteStandby: () => Promise<void>;
  stop: () => Promise<void>;
};

/**
 * `onStop` receives the cluster's `stop` before any server starts, so that a run interrupted while the
 * cluster is being made (SIGINT during the base backup) still stops what was started.
 */
export async function startReplicatedCluster(
  root: string,
  replication: Replication,
  onStop: (stop: () => Promise<void>) => void = () => {},
): Promise<ReplicatedCluster> {
  await resolvePostgresUser();
  await mkdir(root, { recursive: true });
  await chmod(root, 0o777);
  const primary: Server = { name: "primary", directory: path.join(root, "primary"), port: await freePort() };
  const standby: Server = { name: "standby", directory: path.join(root, "standby"), port: await freePort() };
  let primaryPid: number | undefined;
  const alive = (pid: number | undefined) => {
    if (pid === undefined) {
      return false;
    }
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  let closeLink = async () => {};
  const stop = async () => {
    await closeLink();
    // Either server may not have started yet (an interrupted start) or be dead already (the killed
    // primary, whose backends leave by themselves once they see their postmaster gone).
    await tool("pg_ctl", ["stop", "-m", "immediate", "-D", standby.directory]).catch(() => {});
    if (primaryPid === undefined || alive(primaryPid)) {
      await tool("pg_ctl", ["stop", "-m", "immediate", "-D", primary.directory]).catch(() => {});
    }
    await rm(root, { recursive: true, force: true });
  };
  onStop(stop);
  await tool("initdb", ["-D", primary.directory, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"]);
  await appendFile(
    path.join(primary.directory, "postgresql.conf"),
    [
      `port = ${primary.port}`,
      "listen_addresses = '127.0.0.1'",
      `unix_socket_directories = '${root}'`,
      "wal_level = replica",
      "max_wal_senders = 4",
      "max_connections = 200",
      "timezone = 'UTC'",
      // Synchronous: a commit returns once the standby has flushed it (CloudNativePG's synchronous
      // replication with one required standby). Asynchronous: as soon as the primary has.
      `synchronous_standby_names = '${replication === "synchronous" ? "standby" : ""}'`,
      "",
    ].join("\n"),
  );
  primaryPid = await startServer(primary);
  const killedPid = primaryPid;
  // The standby replicates through a link of its own (a TCP relay), which the run can stall: a
  // replica that has fallen behind (a slow network between zones, a busy replica).
  const link = await startTcpSwitch(primary.port);
  closeLink = () => link.close();
  await tool("pg_basebackup", [
    "-d",
    `host=127.0.0.1 port=${link.port} user=postgres application_name=standby`,
    "-D",
    standby.directory,
    "-R",
    "-X",
    "stream",
  ]);
  await appendFile(path.join(standby.directory, "postgresql.conf"), `port = ${standby.port}\n`);
  await startServer(standby);
  const query = async (port: number, statement: string) => {
    const client = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/postgres` });
    await client.connect();
    try {
      return (await client.query(statement)).rows as Record<string, unknown>[];
    } finally {
      await client.end();
    }
  };
  return {
    primaryPort: primary.port,
    standbyPort: standby.port,
    syncState: async () =>
      (await query(primary.port, "SELECT sync_state FROM pg_stat_replication WHERE application_name = 'standby'"))[0]
        ?.sync_state as string | undefined,
    stallReplication: () => link.hold(),
    killPrimary: async () => {
      process.kill(killedPid, "SIGKILL");
      // The dead primary's connections end (whatever a stalled link still held is gone with them).
      link.moveTo(primary.port);
      const deadline = Date.now() + 30_000;
      while (alive(killedPid) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    promoteStandby: async () => {
      await query(standby.port, "SELECT pg_promote(wait => true, wait_seconds => 60)");
      // The standby's configuration came from the primary's (pg_basebackup), naming itself as the
      // synchronous standby: as the new primary, with no standby left here, every commit would wait
      // for ever. CloudNativePG's third instance becomes the new primary's standby; here there is none.
      await query(standby.port, "ALTER SYSTEM SET synchronous_standby_names = ''");
      await query(standby.port, "SELECT pg_reload_conf()");
    },
    stop,
  };
}

export type TcpSwitch = {
  port: number;
  moveTo: (port: number) => void;
  /** Stops forwarding what the target sends on the connections open now (a link that stalls). */
  hold: () => void;
  close: () => Promise<void>;
};

/**
 * The read-write Service: forwards each connection to the current target. Moving it cuts every
 * connection it carries (as the endpoints' change and the dead primary's pod do) and sends new ones to
 * the new target.
 */
export async function startTcpSwitch(targetPort: number): Promise<TcpSwitch> {
  let target = targetPort;
  const open = new Set<Socket>();
  const links = new Set<{ client: Socket; upstream: Socket }>();
  const server = createServer((client) => {
    const upstream = tcpConnect(target, "127.0.0.1");
    const link = { client, upstream };
    links.add(link);
    upstream.on("close", () => links.delete(link));
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on("close", () => open.delete(socket));
      socket.on("error", () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    port,
    moveTo: (to) => {
      target = to;
      for (const socket of open) {
        socket.destroy();
      }
    },
    hold: () => {
      for (const { client, upstream } of links) {
        upstream.unpipe(client);
        upstream.pause();
      }
    },
    close: () =>
      new Promise((resolve) => {
        for (const socket of open) {
          socket.destroy();
        }
        server.close(() => resolve());
      }),
  };
}
