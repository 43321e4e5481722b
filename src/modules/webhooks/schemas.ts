import { z } from "zod";
import { ERROR_CODE_META_KEY } from "../../kernel/error-code.ts";
import { cursorSchema, limitSchema, pageSchema, timestampQuerySchema } from "../../platform/http/pagination.ts";
import { eventTypes } from "../events/index.ts";

/** How much of a receiver's response body an attempt keeps for the delivery log. */
export const RESPONSE_EXCERPT_BYTES_MAX = 512;

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
  /** When the previous secret stops signing; null when there is none, or it has expired. */
  previous_secret_expires_at: z.date().nullable(),
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
  response_excerpt: z.string().nullable(),
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
    previous_secret_expires_at: z.iso.datetime().nullable().meta({
      description: "Until then deliveries are signed with the previous secret too (after a roll); else null.",
    }),
    created_at: z.iso.datetime(),
    deactivated_at: z.iso.datetime().nullable(),
  })
  .meta({ id: "WebhookEndpoint" });

export const createdEndpointSchema = endpointSchema
  .extend({ secret: z.string().meta({ description: "whsec_…; returned only in this response." }) })
  .meta({ id: "CreatedWebhookEndpoint" });

export const endpointPageSchema = pageSchema(endpointSchema);

export const deliverySchema = z
  .object({ id: z.string(), object: z.literal("webhook_delivery"), livemode: z.boolean() })
  .extend(
    deliveryRowSchema.pick({ endpoint_id: true, event_id: true, event_type: true, status: true, attempt_count: true })
      .shape,
  )
  .extend({
    next_attempt_at: z.iso.datetime().nullable(),
    delivered_at: z.iso.datetime().nullable(),
    created_at: z.iso.datetime(),
    attempts: z.array(
      z.object({
        attempt: z.number().int(),
        started_at: z.iso.datetime(),
        duration_ms: z.number().int().meta({ description: "Latency: from the request's start to the response's end." }),
        response_status: z.number().int().nullable(),
        response_excerpt: z
          .string()
          .nullable()
          .meta({
            description: `The first ${RESPONSE_EXCERPT_BYTES_MAX} bytes of the response body (UTF-8); null without a response.`,
          }),
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

export const listEventDeliveriesQuery = z.strictObject({
  event_id: z.string().max(100).meta({ description: "The event whose deliveries (one per endpoint) to list." }),
  status: z.enum(deliveryStatuses).optional(),
  limit: limitSchema({ max: 100, fallback: 20 }),
  cursor: cursorSchema,
});

/** The longest overlap of a secret roll (7 days), and its default (24 hours). */
export const SECRET_OVERLAP_SECONDS_MAX = 7 * 24 * 3600;
const SECRET_OVERLAP_SECONDS_DEFAULT = 24 * 3600;

export const rollSecretBody = z.strictObject({
  expires_in_seconds: z
    .number()
    .int()
    .min(0)
    .max(SECRET_OVERLAP_SECONDS_MAX)
    .default(SECRET_OVERLAP_SECONDS_DEFAULT)
    .meta({
      description:
        "How long the previous secret keeps signing too, 0 to 604800 s (7 days); default 86400 (24 h). 0 ends it now.",
    }),
});

export const rolledEndpointSchema = endpointSchema
  .extend({ secret: z.string().meta({ description: "The new whsec_…; returned only in this response." }) })
  .meta({ id: "RolledWebhookEndpoint" });

/** How far back a recovery may reach (30 days). */
export const RECOVERY_WINDOW_MS = 30 * 24 * 3600 * 1000;

export const recoverBody = z.strictObject({
  since: timestampQuerySchema.meta({
    description: "Recover the dead deliveries created (with their event) at or after this time; at most 30 days ago.",
  }),
});

export const recoverySchema = z
  .object({
    object: z.literal("webhook_recovery"),
    endpoint_id: z.string(),
    since: z.iso.datetime(),
    recovered_count: z.number().int().meta({ description: "Dead deliveries scheduled for an attempt now." }),
    has_more: z.boolean().meta({ description: "More remain (the batch is bounded): call again with the same since." }),
  })
  .meta({ id: "WebhookRecovery" });
