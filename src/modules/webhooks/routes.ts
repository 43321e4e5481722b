import { requireStepUpOfSession } from "../../platform/http/access.ts";
import { type AnyRoute, defineRoute } from "../../platform/http/route.ts";
import {
  createdEndpointSchema,
  createEndpointBody,
  deliveryIdParams,
  deliveryPageSchema,
  deliverySchema,
  type EndpointRow,
  endpointIdParams,
  endpointPageSchema,
  endpointSchema,
  listDeliveriesQuery,
  listEndpointsQuery,
  listEventDeliveriesQuery,
  recoverBody,
  recoverySchema,
  rolledEndpointSchema,
  rollSecretBody,
} from "./schemas.ts";
import * as webhooks from "./service.ts";

function presentEndpoint(endpoint: EndpointRow) {
  return {
    id: endpoint.id,
    object: "webhook_endpoint" as const,
    livemode: endpoint.livemode,
    url: endpoint.url,
    event_types: endpoint.event_types,
    active: endpoint.active,
    secret_last4: endpoint.secret_last4,
    previous_secret_expires_at: endpoint.previous_secret_expires_at?.toISOString() ?? null,
    created_at: endpoint.created_at.toISOString(),
    deactivated_at: endpoint.deactivated_at?.toISOString() ?? null,
  };
}

function presentDelivery(delivery: webhooks.DeliveryWithAttempts) {
  return {
    id: delivery.id,
    object: "webhook_delivery" as const,
    livemode: delivery.livemode,
    endpoint_id: delivery.endpoint_id,
    event_id: delivery.event_id,
    event_type: delivery.event_type,
    status: delivery.status,
    attempt_count: delivery.attempt_count,
    next_attempt_at: delivery.next_attempt_at?.toISOString() ?? null,
    delivered_at: delivery.delivered_at?.toISOString() ?? null,
    created_at: delivery.created_at.toISOString(),
    attempts: delivery.attempts.map((attempt) => ({
      attempt: attempt.attempt,
      started_at: attempt.started_at.toISOString(),
      duration_ms: attempt.duration_ms,
      response_status: attempt.response_status,
      response_excerpt: attempt.response_excerpt,
      error: attempt.error,
      succeeded: attempt.succeeded,
    })),
  };
}

export const webhookRoutes: AnyRoute[] = [
  defineRoute({
    method: "post",
    path: "/v1/webhook_endpoints",
    operationId: "createWebhookEndpoint",
    summary: "Register a webhook endpoint for the key's world; its secret is returned only here",
    tags: ["Webhooks"],
    auth: { keys: "both", owner: "session" },
    request: { body: createEndpointBody },
    responses: { 201: { description: "The endpoint with its signing secret.", schema: createdEndpointSchema } },
    handler: async ({ database, config, tenant, body, client }) => {
      // Events leaving the merchant for a new live address: from a session, a password typed just now.
      if (tenant.livemode) {
        requireStepUpOfSession(tenant);
      }
      const created = await webhooks.createEndpoint(database, config, tenant, body, { actor: tenant.actor, client });
      return { status: 201, body: { ...presentEndpoint(created.endpoint), secret: created.secret } };
    },
  }),
  defineRoute({
    method: "get",
    path: "/v1/webhook_endpoints",
    operationId: "listWebhookEndpoints",
    summary: "The key's world's webhook endpoints, newest first (secrets are never shown again)",
    tags: ["Webhooks"],
    auth: { keys: "both", owner: "session" },
    request: { query: listEndpointsQuery },
    responses: { 200: { description: "A page of endpoints.", schema: endpointPageSchema } },
    handler: async ({ database, tenant, query }) => {
      const page = await webhooks.listEndpoints(database, { ...tenant, limit: query.limit, cursor: query.cursor });
      return { body: { ...page, data: page.data.map(presentEndpoint) } };
    },
  }),
  defineRoute({
    method: "get",
    path: "/v1/webhook_endpoints/:id",
    operationId: "getWebhookEndpoint",
    summary: "One webhook endpoint",
    tags: ["Webhooks"],
    auth: { keys: "both", owner: "session" },
    request: { params: endpointIdParams },
    responses: { 200: { description: "The endpoint.", schema: endpointSchema } },
    handler: async ({ database, tenant, params }) => ({
      body: presentEndpoint(await webhooks.getEndpoint(database, tenant, params.id)),
    }),
  }),
  defineRoute({
    method: "delete",
    path: "/v1/webhook_endpoints/:id",
    operationId: "deactivateWebhookEndpoint",
    summary: "Deactivate a webhook endpoint: it receives nothing more, pending retries included",
    tags: ["Webhooks"],
    auth: { keys: "both", owner: "session" },
    request: { params: endpointIdParams },
    responses: { 200: { description: "The deactivated endpoint.", schema: endpointSchema } },
    handler: async ({ database, tenant, params, client }) => ({
      body: presentEndpoint(
        await webhooks.deactivateEndpoint(database, tenant, params.id, { actor: tenant.actor, client }),
      ),
    }),
  }),
  defineRoute({
    method: "get",
    path: "/v1/webhook_endpoints/:id/deliveries",
    operationId: "listWebhookDeliveries",
    summary: "An endpoint's deliveries with their attempt log, newest first",
    tags: ["Webhooks"],
    auth: { keys: "both", owner: "session" },
    request: { params: endpointIdParams, query: listDeliveriesQuery },
    responses: { 200: { description: "A page of deliveries.", schema: deliveryPageSchema } },
    handler: async ({ database, tenant, params, query }) => {
      const page = await webhooks.listDeliveries(database, {
        ...tenant,
        of: { endpointId: params.id },
        status: query.status,
        limit: query.limit,
        cursor: query.cursor,
      });
      return { body: { ...page, data: page.data.map(presentDelivery) } };
    },
  }),
  defineRoute({
    method: "post",
    path: "/v1/webhook_endpoints/:id/roll_secret",
    operationId: "rollWebhookEndpointSecret",
    summary: "Replace the signing secret; the previous one keeps signing too during the overlap",
    tags: ["Webhooks"],
    auth: { keys: "both", owner: "step_up" },
    request: { params: endpointIdParams, body: rollSecretBody },
    responses: {
      200: { description: "The endpoint with its new signing secret (shown only here).", schema: rolledEndpointSchema },
      403: {
        description: "`step_up_required`: with a session, the password must have been entered in the last 5 minutes.",
      },
    },
    handler: async ({ database, config, tenant, params, body, client }) => {
      const rolled = await webhooks.rollSecret(
        database,
        config,
        tenant,
        { endpointId: params.id, overlapSeconds: body.expires_in_seconds },
        { actor: tenant.actor, client },
      );
      return { body: { ...presentEndpoint(rolled.endpoint), secret: rolled.secret } };
    },
  }),
  defineRoute({
    method: "post",
    path: "/v1/webhook_endpoints/:id/recover",
    operationId: "recoverWebhookDeliveries",
    summary: "Attempt again now every dead delivery of the endpoint created since a time (at most 30 days ago)",
    tags: ["Webhooks"],
    auth: { keys: "both", owner: "session" },
    request: { params: endpointIdParams, body: recoverBody },
    responses: { 200: { description: "How many dead deliveries were scheduled.", schema: recoverySchema } },
    handler: async ({ database, tenant, params, body }) => {
      const recovery = await webhooks.recoverDeliveries(database, tenant, { endpointId: params.id, since: body.since });
      return {
        body: {
          object: "webhook_recovery" as const,
          endpoint_id: params.id,
          since: body.since.toISOString(),
          ...recovery,
        },
      };
    },
  }),
  defineRoute({
    method: "post",
    path: "/v1/webhook_endpoints/:id/test",
    operationId: "sendWebhookTestEvent",
    summary: "Send a webhook.test event to this endpoint only (it is not in the event feed)",
    tags: ["Webhooks"],
    auth: { keys: "both", owner: "session" },
    request: { params: endpointIdParams },
    responses: { 201: { description: "The test event's delivery, due now.", schema: deliverySchema } },
    handler: async ({ database, tenant, params }) => ({
      status: 201,
      body: presentDelivery(await webhooks.sendTestEvent(database, tenant, params.id)),
    }),
  }),
  defineRoute({
    method: "get",
    path: "/v1/webhook_deliveries",
    operationId: "listEventWebhookDeliveries",
    summary: "An event's deliveries (one per endpoint) with their attempt log, newest first",
    tags: ["Webhooks"],
    auth: { keys: "both", owner: "session" },
    request: { query: listEventDeliveriesQuery },
    responses: { 200: { description: "A page of deliveries.", schema: deliveryPageSchema } },
    handler: async ({ database, tenant, query }) => {
      const page = await webhooks.listDeliveries(database, {
        ...tenant,
        of: { eventId: query.event_id },
        status: query.status,
        limit: query.limit,
        cursor: query.cursor,
      });
      return { body: { ...page, data: page.data.map(presentDelivery) } };
    },
  }),
  defineRoute({
    method: "get",
    path: "/v1/webhook_deliveries/:id",
    operationId: "getWebhookDelivery",
    summary: "One delivery with its attempt log",
    tags: ["Webhooks"],
    auth: { keys: "both", owner: "session" },
    request: { params: deliveryIdParams },
    responses: { 200: { description: "The delivery.", schema: deliverySchema } },
    handler: async ({ database, tenant, params }) => ({
      body: presentDelivery(await webhooks.getDelivery(database, tenant, params.id)),
    }),
  }),
  defineRoute({
    method: "post",
    path: "/v1/webhook_deliveries/:id/retry",
    operationId: "retryWebhookDelivery",
    summary: "Attempt a delivery again now, also a dead or succeeded one",
    tags: ["Webhooks"],
    auth: { keys: "both", owner: "session" },
    request: { params: deliveryIdParams },
    responses: { 200: { description: "The delivery, due now.", schema: deliverySchema } },
    handler: async ({ database, tenant, params }) => ({
      body: presentDelivery(await webhooks.retryDelivery(database, tenant, params.id)),
    }),
  }),
];
