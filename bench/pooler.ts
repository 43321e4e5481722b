import pg from "pg";
import { type PgBouncer, startPgBouncer } from "../tests/support/pgbouncer.ts";
import { cpuSecondsOf } from "./cpu-usage.ts";

/**
 * bench:deploy --pooler: the API through Debian's PgBouncer in `pool_mode = transaction` (1.18, which
 * keeps no prepared statements across transactions), as operators run it with a pooler of that kind:
 * the API's DATABASE_URL through it with DATABASE_PREPARED_STATEMENTS=false, its LISTEN connection
 * (NOTIFICATIONS_DATABASE_URL) and the pools direct, standing in for the chart's session path
 * (WORKER_DATABASE_URL). The pooler is the test tier's (tests/support/pgbouncer.ts).
 */

export type ApiPooler = {
  /** The API's environment over the deployment's: its database through the pooler, unnamed statements. */
  apiEnvironment: Record<string, string>;
  /** One line for the report: the pooler, its pool size and the CPU it used so far. */
  describe: () => Promise<string>;
  stop: () => Promise<void>;
};

/**
 * Starts the pooler in front of `databaseUrl`'s server with `poolSize` server connections for the
 * API's clients. What the API sets when it connects, a transaction pooler drops
 * (ignore_startup_parameters), so the database provides it, as k8s/base/cnpg/cluster.yaml does.
 */
export async function startApiPooler(databaseUrl: string, poolSize: number): Promise<ApiPooler> {
  const url = new URL(databaseUrl);
  const database = decodeURIComponent(url.pathname.slice(1));
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  try {
    await admin.query(`ALTER DATABASE "${database}" SET timezone = 'UTC'`);
    await admin.query(`ALTER DATABASE "${database}" SET statement_timeout = '30s'`);
    await admin.query(`ALTER DATABASE "${database}" SET idle_in_transaction_session_timeout = '60s'`);
  } finally {
    await admin.end();
  }
  const serverUrl = new URL(databaseUrl);
  serverUrl.pathname = "/postgres";
  const bouncer: PgBouncer = await startPgBouncer({ serverUrl: serverUrl.toString(), poolSize });
  return {
    apiEnvironment: {
      DATABASE_URL: bouncer.urlFor(database),
      DATABASE_PREPARED_STATEMENTS: "false",
      NOTIFICATIONS_DATABASE_URL: databaseUrl,
    },
    describe: async () =>
      `API through PgBouncer (transaction mode, ${poolSize} server connections, DATABASE_PREPARED_STATEMENTS=false; LISTEN and pools direct): the pooler's CPU ${((await cpuSecondsOf(bouncer.pid)) ?? Number.NaN).toFixed(1)} s over the run`,
    stop: bouncer.stop,
  };
}
