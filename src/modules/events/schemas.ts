import { z } from "zod";
import { limitSchema, pageSchema } from "../../platform/http/pagination.ts";
import { eventTypesMatching, storedEventTypes } from "./event-types.ts";

export const eventRowSchema = z.object({
  merchant_id: z.string(),
  id: z.string(),
  livemode: z.boolean(),
  type: z.enum(storedEventTypes),
  data: z.record(z.string(), z.unknown()),
  created_at: z.date(),
  /** The inserting transaction's id as text (xid8): with `seq`, the feed's order. */
  transaction_xid: z.string(),
  seq: z.number().int(),
});
export type EventRow = z.infer<typeof eventRowSchema>;

/** The event as polled and as delivered: exactly the specification's five fields. */
export const eventSchema = z
  .object({
    id: z.string(),
    type: z.enum(storedEventTypes),
    livemode: z.boolean(),
    created_at: z.iso.datetime(),
    data: z.record(z.string(), z.unknown()),
  })
  .meta({ id: "Event" });

export const eventPageSchema = pageSchema(eventSchema);

export const listEventsQuery = z.strictObject({
  order: z
    .enum(["oldest_first", "newest_first"])
    .default("oldest_first")
    .meta({
      description:
        "oldest_first (default): the feed to process, `since` the last event processed. newest_first: for reading " +
        "a log, `since` then the last event shown (the page goes on with older ones).",
    }),
  since: z
    .string()
    .max(100)
    .optional()
    .meta({ description: "The id of the last event already processed; absent: from the oldest retained event." }),
  type: z
    .string()
    .max(100)
    .optional()
    .transform((filter, context) => {
      if (filter === undefined) {
        return undefined;
      }
      const types = eventTypesMatching(filter);
      if (types === null) {
        context.addIssue({ code: "custom", message: "not an event type, nor a family such as payment.*" });
        return z.NEVER;
      }
      return types;
    })
    .meta({ description: "Only events of this type (`payment.paid`), or of this family (`payment.*`)." }),
  payment_id: z
    .string()
    .max(100)
    .optional()
    .meta({ description: "Only events about this payment (their `data.payment_id`): a payment's timeline." }),
  limit: limitSchema({ max: 100, fallback: 100 }),
});

export const eventIdParams = z.strictObject({ id: z.string().max(100) });
