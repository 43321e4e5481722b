import DataLoader from "dataloader";
import type { Config } from "../../platform/config.ts";
import type { Queryable } from "../../platform/db/pool.ts";
import { enqueuePaymentJobs, type PaymentToSchedule } from "./queries.ts";
import { paymentJobsOf } from "./service.ts";

export type PaymentJobScheduler = (payment: PaymentToSchedule) => Promise<void>;

// Bounds one statement's arrays; far above one API process's concurrent creations.
const BATCH_SIZE_MAX = 500;

/**
 * Enqueues the jobs of just-committed payments, those of one turn of the event loop in one statement
 * (one NOTIFY, one commit that does not wait for its flush). A payment whose enqueue is lost (crash,
 * failed statement) is found by the `schedule_unscheduled_payments` sweep.
 */
export function createPaymentJobScheduler(database: Queryable, config: Config): PaymentJobScheduler {
  const jobs = paymentJobsOf(config);
  const batches = new DataLoader<PaymentToSchedule, void>(
    async (payments) => {
      await enqueuePaymentJobs(database, payments, jobs, { asynchronousCommit: true });
      return payments.map(() => undefined);
    },
    { cache: false, maxBatchSize: BATCH_SIZE_MAX, batchScheduleFn: setImmediate },
  );
  return (payment) => batches.load(payment);
}
