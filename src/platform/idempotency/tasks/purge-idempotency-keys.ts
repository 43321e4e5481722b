import type { TaskDefinition } from "../../queue/task.ts";
import { purgeExpired } from "../service.ts";

/** Hourly: deletes idempotency records older than the retention (48 hours by default). */
export const purgeIdempotencyKeys: TaskDefinition = {
  identifier: "purge_idempotency_keys",
  cron: "17 * * * *",
  build:
    ({ config, database, logger }) =>
    async () => {
      const deleted = await purgeExpired(database, { retentionMs: config.idempotency.retentionMs });
      logger.info({ task: "purge_idempotency_keys", deleted }, "purged expired idempotency keys");
    },
};
