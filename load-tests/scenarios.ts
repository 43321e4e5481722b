import { readFileSync } from "node:fs";
import { z } from "zod";

/**
 * The load scenarios, defined once in scenarios.json: the k6 scripts (load-tests/k6/) and the Node
 * runner (`npm run load -- <scenario>`) read the same definitions.
 */
const scenarioSchema = z.strictObject({
  description: z.string(),
  /**
   * me: GET /v1/me; create_payment: POST /v1/payments; paid_payment: a test payment, then its mockpay;
   * cash_sale: POST /v1/sales of three stock-tracked products in cash.
   */
  request: z.enum(["me", "create_payment", "paid_payment", "cash_sale"]),
  ratePerSecond: z.number().positive(),
  durationSeconds: z.number().positive(),
  merchants: z.number().int().positive(),
  /** Each merchant registers a webhook endpoint at the runner's sink; deliveries are awaited this long. */
  webhooks: z.strictObject({ deliveryDeadlineSeconds: z.number().positive() }).optional(),
  expect: z.strictObject({
    minRefusedRatio: z.number().min(0).max(1).optional(),
    maxRefusedRatio: z.number().min(0).max(1).optional(),
    maxErrorRatio: z.number().min(0).max(1).optional(),
    maxAcceptedPerWindow: z.number().int().positive().optional(),
    minDeliveredRatio: z.number().min(0).max(1).optional(),
    maxDeliveryP99Ms: z.number().positive().optional(),
  }),
});
export type Scenario = z.infer<typeof scenarioSchema>;

export const scenarios: Record<string, Scenario> = z
  .record(z.string(), scenarioSchema)
  .parse(JSON.parse(readFileSync(new URL("./scenarios.json", import.meta.url), "utf8")));
