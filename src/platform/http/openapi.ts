import { z } from "zod";
import {
  createDocument,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
  type ZodOpenApiResponseObject,
} from "zod-openapi";
import { acceptsSessions } from "./access.ts";
import type { AnyRoute } from "./route.ts";

export const API_VERSION = "1.0.0";

export const errorEnvelopeSchema = z
  .object({
    error: z.object({
      type: z.enum([
        "invalid_request",
        "auth_error",
        "insufficient_funds",
        "rate_limited",
        "api_error",
        "gateway_error",
      ]),
      code: z.string(),
      message: z.string(),
    }),
  })
  .meta({ id: "ErrorEnvelope", description: "The one error shape of the API." });

const FORBIDDEN =
  "Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, " +
  "`cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin.";

/** The 403 of a route where a till acts only on its own drawer (`requireOwnTill`): the common refusals and `till_mismatch`. */
export const tillMismatchResponse = (what: string) => ({
  description: `${FORBIDDEN} \`till_mismatch\`: a till session ${what}.`,
  schema: errorEnvelopeSchema,
});

/** Errors every route of a kind can answer, added to each operation so the document is complete. */
function commonErrors(route: AnyRoute): Record<number, string> {
  const errors: Record<number, string> = { 400: "Invalid request.", 500: "Platform fault; retry." };
  if (route.auth === "admin") {
    errors[401] = "Missing or wrong operator token.";
    errors[403] = "Operator API disabled.";
  } else if (route.auth !== "none") {
    errors[401] = "Missing, unknown or revoked API key; or no session, or an expired or revoked one.";
    errors[403] = FORBIDDEN;
    errors[429] = "Rate limit exceeded (60 requests per 10 seconds per merchant).";
  }
  if (route.idempotent) {
    errors[409] = "Idempotency conflict: different body, or the original still in flight.";
  }
  return errors;
}

function operationFor(route: AnyRoute): ZodOpenApiOperationObject {
  const responses: Record<string, ZodOpenApiResponseObject> = {};
  for (const [status, text] of Object.entries(commonErrors(route))) {
    responses[status] = { description: text, content: { "application/json": { schema: errorEnvelopeSchema } } };
  }
  for (const [status, response] of Object.entries(route.responses)) {
    const contentType = response.contentType ?? "application/json";
    responses[status] = {
      description: response.description,
      ...(response.schema === undefined ? {} : { content: { [contentType]: { schema: response.schema } } }),
    };
  }
  const parameters: ZodOpenApiOperationObject["requestParams"] = {};
  if (route.request?.query !== undefined) {
    parameters.query = route.request.query as never;
  }
  if (route.request?.params !== undefined) {
    parameters.path = route.request.params as never;
  }
  if (route.idempotent === true) {
    parameters.header = z.object({
      "idempotency-key": z.string().min(1).max(255).meta({ description: "Required on money-moving POSTs." }),
    });
  } else if (route.idempotent === "optional") {
    parameters.header = z.object({
      "idempotency-key": z.string().min(1).max(255).optional().meta({
        description: "Optional: when sent, a retry with the same key replays the first answer and moves nothing twice.",
      }),
    });
  }
  return {
    operationId: route.operationId,
    summary: route.summary,
    tags: route.tags,
    security: securityOf(route),
    // Who may call it (src/platform/http/access.ts; the table in docs/security.md).
    ...(typeof route.auth === "object" ? { "x-pos-access": route.auth } : {}),
    requestParams: parameters,
    ...(route.request?.body === undefined
      ? {}
      : {
          requestBody: {
            required: true,
            content: { [route.textBody?.mediaType ?? "application/json"]: { schema: route.request.body } },
          },
        }),
    responses,
  };
}

function securityOf(route: AnyRoute): Record<string, string[]>[] {
  if (route.auth === "none") {
    return [];
  }
  if (route.auth === "admin") {
    return [{ adminToken: [] }];
  }
  const schemes: Record<string, string[]>[] = route.auth.keys === undefined ? [] : [{ apiKey: [] }];
  return acceptsSessions(route.auth) ? [...schemes, { session: [], csrfToken: [] }] : schemes;
}

/** The document as `GET /v1/openapi.json` sends it, byte for byte (`docs/openapi.json` is its indented form). */
export function openApiJson(routes: readonly AnyRoute[], options: { serverUrl: string }): string {
  return JSON.stringify(buildOpenApiDocument(routes, options));
}

/** The OpenAPI 3.1 description of every route, generated from the same zod schemas that validate. */
export function buildOpenApiDocument(routes: readonly AnyRoute[], options: { serverUrl: string }): object {
  const paths: ZodOpenApiPathsObject = {};
  for (const route of routes) {
    const openApiPath = route.path.replace(/:([A-Za-z_]+)/g, "{$1}");
    paths[openApiPath] = { ...paths[openApiPath], [route.method]: operationFor(route) };
  }
  return createDocument({
    openapi: "3.1.0",
    info: {
      title: "Point-of-Sale and Wallet Payment API",
      version: API_VERSION,
      description:
        "Mobile-wallet payments, point of sale, balances, payouts and events. The key prefix (sk_test_ or sk_live_) selects the world.",
    },
    servers: [{ url: options.serverUrl }],
    components: {
      securitySchemes: {
        apiKey: { type: "http", scheme: "bearer", description: "A secret key: sk_test_… or sk_live_…." },
        adminToken: { type: "http", scheme: "bearer", description: "The operator's ADMIN_TOKEN." },
        session: {
          type: "apiKey",
          in: "cookie",
          name: "pos_session",
          description:
            "A dashboard or till session (POST /v1/session); `__Host-pos_session` when the API is served over https. The world is the Pos-World header (test or live; test when absent).",
        },
        csrfToken: {
          type: "apiKey",
          in: "header",
          name: "Pos-Csrf-Token",
          description: "The session's CSRF token, required with the session on POST, PATCH and DELETE.",
        },
      },
    },
    paths,
  });
}
