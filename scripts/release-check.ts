import { randomBytes } from "node:crypto";
import pg from "pg";
import { postgresServer } from "../src/platform/db/embedded.ts";
import { smokeTest } from "./release/smoke.ts";
import { stageRelease } from "./release/stage.ts";

/**
 * `make release-check`: builds the release as the Dockerfile does (scripts/release/stage.ts) and runs
 * the migration job, the API and one pool from it against a throwaway database on DATABASE_URL's
 * server, or on an embedded PostgreSQL when DATABASE_URL is unset.
 */
const log = (line: string) => process.stdout.write(`release-check: ${line}\n`);
const { serverUrl, stop } = await postgresServer(process.env.DATABASE_URL);
const name = `pos_release_${randomBytes(4).toString("hex")}`;
const admin = new pg.Client({ connectionString: serverUrl });
await admin.connect();
const release = await stageRelease({ log });
try {
  await admin.query(`CREATE DATABASE "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const result = await smokeTest(release, url.toString());
  log(`ready: ${result.ready.join(", ")}; exit codes on SIGTERM: ${JSON.stringify(result.stopExits)}`);
  if (Object.values(result.stopExits).some((code) => code !== 0)) {
    throw new Error("a service did not exit 0 on SIGTERM");
  }
  log("ok");
} finally {
  await release.remove();
  await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin.end();
  await stop();
}
