import { z } from "zod";
import type { TaskDefinition } from "../../../platform/queue/task.ts";
import { SCHEDULE_PAYMENT_JOBS_TASK, schedulePaymentJobs } from "../service.ts";

const payloadSchema = z.object({
  payments: z.array(z.object({ merchant_id: z.string(), id: z.string(), traceparent: z.string().optional() })).min(1),
});

/**
 * gateway-poller: the payments one statement created get their first poll and their expiry job
 * (committed with them as this one job, whatever their number). Each job continues its own
 * request's trace.
 */
export const schedulePaymentJobsTask: TaskDefinition = {
  identifier: SCHEDULE_PAYMENT_JOBS_TASK,
  build:
    ({ config, database }) =>
    async (payload) => {
      const job = payloadSchema.parse(payload);
      await schedulePaymentJobs(
        database,
        config,
        job.payments.map((payment) => ({ ...payment, traceparent: payment.traceparent ?? null })),
      );
    },
};
