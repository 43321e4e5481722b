import pg from "pg";

/** Drops every database this run created, then stops the embedded server if there is one. */
export default async function globalTeardown(): Promise<void> {
  const serverUrl = process.env.TEST_DATABASE_SERVER_URL;
  const runId = process.env.TEST_RUN_ID;
  if (serverUrl !== undefined && runId !== undefined) {
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    const { rows } = await admin.query<{ datname: string }>(
      "SELECT datname FROM pg_database WHERE datname LIKE $1 OR datname LIKE $2",
      [`pos_test_tpl_${runId}`, `pos_t_${runId}_%`],
    );
    for (const { datname } of rows) {
      await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    }
    await admin.end();
  }
  await (globalThis as { stopTestCluster?: () => Promise<void> }).stopTestCluster?.();
}
