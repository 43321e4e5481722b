import { runMain } from "../../src/platform/process.ts";

/** Applies migrations and the graphile-worker schema, then exits. Safe to run from several pods. */
await runMain("migrate", async (config) => (await import("../../src/wiring/migrate.ts")).migrateOnce(config));
