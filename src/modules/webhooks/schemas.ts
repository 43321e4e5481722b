import { z } from "zod";
import { cursorSchema, limitSchema, pageSchema } from "../../platform/http/pagination.ts";
import { ERROR_CODE_META_KEY } from "../../platform/http/validation.ts";
import { eventTypes } from "../events/event-types.ts";

export const deliveryStatuses = ["pending", "succeeded", "dead", "canceled"] as const;
export type DeliveryStatus = (typeof deliveryStatuses)[number];

export const endpointRowSchema = z.object({
  merchant_id: z.string(),
  id: z.string(),
  livemode: z.boolean(),
  url: z.string(),
  event_types: z.array(z.string()),
  secret_ciphertext: z.instanceof(Buffer),
  secret_last4: z.string(),
  active: z.boolean(),
  created_at: z.date(),
  deactivated_at: z.date().nullable(),
});
export type EndpointRow = z.infer<typeof endpointRowSchema>;

export const deliveryRowSchema = z.object({
  merchant_id: z.string(),
  id: z.string(),
  livemode: z.boolean(),
  endpoint_id: z.string(),
  event_id: z.string(),
  event_type: z.string(),
  status: z.enum(deliveryStatuses),
  attempt_count: z.number().int(),
  next_attempt_at: z.date().nullable(),
  lease_expires_at: z.date().nullable(),
  delivered_at: z.date().nullable(),
  created_at: z.date(),
  updated_at: z.date(),
});
export type DeliveryRow = z.infer<typeof deliveryRowSchema>;

export const attemptRowSchema = z.object({
  attempt: z.number().int(),
  started_at: z.date(),
  duration_ms: z.number().int(),
  response_status: z.number().int().nullable(),
  error: z.string().nullable(),
  succeeded: z.boolean(),
});
export type AttemptRow = z.infer<typeof attemptRowSchema>;

export const createEndpointBody = z.strictObject({
  url: z
    .string()
    .max(2048)
    .meta({
      [ERROR_CODE_META_KEY]: "invalid_url",
      description: "Absolute URL; https in live mode, http also allowed in test mode.",
    }),
  event_types: z
    .array(z.enum(["*", ...eventTypes]))
    .min(1)
    .max(50)
    .default(["*"])
    .meta({ description: "Event types to deliver; `*` (the default) means all." }),
});
export type CreateEndpointInput = z.infer<typeof createEndpointBody>;

export const endpointSchema = z
  .object({
    id: z.string(),
    object: z.literal("webhook_endpoint"),
    livemode: z.boolean(),
    url: z.string(),
    event_types: z.array(z.string()),
    active: z.boolean(),
    secret_last4: z.string(),
    created_at: z.iso.datetime(),
    deactivated_at: z.iso.datetime().nullable(),
  })
  .meta({ id: "WebhookEndpoint" });

export const createdEndpointSchema = endpointSchema
  .extend({ secret: z.string().meta({ description: "whsec_…; returned only in this response." }) })
  .meta({ id: "CreatedWebhookEndpoint" });

export const endpointPageSchema = pageSchema(endpointSchema);

export const deliverySchema = z
  .object({
    id: z.string(),
    object: z.literal("webhook_delivery"),
    livemode: z.boolean(),
    endpoint_id: z.string(),
    event_id: z.string(),
    event_type: z.string(),
    status: z.enum(deliveryStatuses),
    attempt_count: z.number().int(),
    next_attempt_at: z.iso.datetime().nullable(),
    delivered_at: z.iso.datetime().nullable(),
    created_at: z.iso.datetime(),
    attempts: z.array(
      z.object({
        attempt: z.number().int(),
        started_at: z.iso.datetime(),
        duration_ms: z.number().int(),
        response_status: z.number().int().nullable(),
        error: z.string().nullable(),
        succeeded: z.boolean(),
      }),
    ),
  })
  .meta({ id: "WebhookDelivery" });

export const deliveryPageSchema = pageSchema(deliverySchema);

export const endpointIdParams = z.strictObject({ id: z.string().max(100) });
export const deliveryIdParams = z.strictObject({ id: z.string().max(100) });

export const listEndpointsQuery = z.strictObject({
  limit: limitSchema({ max: 100, fallback: 20 }),
  cursor: cursorSchema,
});

export const listDeliveriesQuery = z.strictObject({
  status: z.enum(deliveryStatuses).optional(),
  limit: limitSchema({ max: 100, fallback: 20 }),
  cursor: cursorSchema,
});
