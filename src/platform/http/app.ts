import { randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import express, { type NextFunction, type Request, type Response } from "express";
import helmet from "helmet";
import { pinoHttp } from "pino-http";
import type { Config } from "../config.ts";
import { type Database, sql, type Transaction } from "../db/pool.ts";
import { databaseUnavailableError } from "../db/unavailable.ts";
import { ApiError, internalError, invalidRequest } from "../errors.ts";
import * as idempotency from "../idempotency/service.ts";
import type { Logger } from "../telemetry/logger.ts";
import type { Metrics } from "../telemetry/metrics.ts";
import type { Tenant } from "../tenant.ts";
import type { ApiKeyAuthenticator } from "./authentication.ts";
import { jsonBodyOf, jsonBodyParser } from "./json-body.ts";
import { openApiJson } from "./openapi.ts";
import { clientOf, resolvePrincipal, type SessionAuthenticator } from "./principal.ts";
import { refuseUnsafeValues } from "./request-strings.ts";
import { refuseMalformedTarget } from "./request-target.ts";
import type { AnyRoute, JsonReply, Reply } from "./route.ts";
import { parseRequestPart } from "./validation.ts";

export type AppDependencies = {
  config: Config;
  logger: Logger;
  database: Database;
  metrics: Metrics;
  routes: readonly AnyRoute[];
  authenticate: ApiKeyAuthenticator;
  /** Browser sessions (the sessions module); without it, `session` routes answer 401 and `either` takes keys only. */
  sessions?: SessionAuthenticator;
  /** Flipped by the server on SIGTERM so /readyz takes the replica out of rotation while it drains. */
  readiness?: { draining: boolean };
};

declare module "express-serve-static-core" {
  interface Request {
    id: string;
  }
}

const REQUEST_ID_PATTERN = /^[\w.:-]{1,128}$/;
const IDEMPOTENCY_KEY_LENGTH_MAX = 255;

export function createApp(dependencies: AppDependencies): express.Express {
  const { config, logger, database, metrics, routes } = dependencies;
  const app = express();
  app.disable("x-powered-by");
  // Responses are live state (a payment's status): no weak ETags and 304s from a stale view.
  app.set("etag", false);
  // Opt-in only: X-Forwarded-For is whatever the client wrote unless a proxy we run rewrites it, so
  // the client address (the per-address sign-in limit keys on it) comes from the header only when
  // the deployment says how many of its own proxies append to it.
  if (config.trustProxyHops > 0) {
    app.set("trust proxy", config.trustProxyHops);
  }

  app.use((request, response, next) => {
    const incoming = request.get("x-request-id");
    // randomUUID draws from a cached entropy pool: a fresh random read per request was a visible share
    // of the API's CPU under load (docs/performance.md).
    request.id =
      incoming !== undefined && REQUEST_ID_PATTERN.test(incoming)
        ? incoming
        : `req_${randomUUID().replaceAll("-", "")}`;
    response.set("X-Request-Id", request.id);
    next();
  });
  app.use(
    pinoHttp({
      logger,
      genReqId: (request) => (request as Request).id,
      customLogLevel: (_request, response, error) =>
        error !== undefined || response.statusCode >= 500 ? "error" : "info",
      serializers: {
        req: (request: { id: string; method: string; url: string }) => ({
          id: request.id,
          method: request.method,
          url: request.url,
        }),
        res: (response: { statusCode: number }) => ({ statusCode: response.statusCode }),
      },
    }),
  );
  app.use(helmet());
  app.use((request, response, next) => {
    const stopTimer = metrics.httpRequestDurationSeconds.startTimer();
    response.on("finish", () => {
      // The route template, never the concrete path: ids must not become label values.
      const route = request.route?.path === undefined ? "unmatched" : `${request.baseUrl}${String(request.route.path)}`;
      stopTimer({ method: request.method, route, status_code: String(response.statusCode) });
    });
    next();
  });
  app.use(refuseMalformedTarget);

  app.get("/healthz", (_request, response) => {
    response.json({ status: "ok" });
  });
  app.get("/readyz", async (_request, response) => {
    if (dependencies.readiness?.draining === true) {
      response.status(503).json(unavailable("The server is shutting down.").toEnvelope());
      return;
    }
    try {
      await database.oneFirst(sql.unsafe`SELECT 1`);
      response.json({ status: "ready" });
    } catch (error) {
      logger.warn({ err: error }, "readiness check failed");
      response.status(503).json(unavailable("The database is unreachable.").toEnvelope());
    }
  });

  app.use(jsonBodyParser({ limitBytes: config.httpBodyLimitBytes }));
  // Before authentication, so a refused string writes nothing (not even a stored idempotent answer).
  app.use((request, _response, next) => {
    refuseUnsafeValues(request.body, "body");
    refuseUnsafeValues(request.query, "query");
    next();
  });

  let openApiDocument: string | undefined;
  app.get("/v1/openapi.json", (_request, response) => {
    openApiDocument ??= openApiJson(routes, { serverUrl: config.publicBaseUrl });
    response.type("application/json").send(openApiDocument);
  });

  for (const route of routes) {
    app[route.method](route.path, async (request: Request, response: Response) => {
      await handle(route, request, response, dependencies);
    });
  }

  app.use((request: Request) => {
    throw new ApiError({
      status: 404,
      type: "invalid_request",
      code: "route_not_found",
      message: `No route ${request.method} ${request.path}.`,
    });
  });
  app.use((error: unknown, request: Request, response: Response, _next: NextFunction) => {
    const apiError = toApiError(error);
    if (apiError.status >= 500) {
      request.log.error({ err: error, requestId: request.id }, "request failed");
    }
    if (response.headersSent) {
      response.destroy();
      return;
    }
    response.status(apiError.status).set(apiError.headers).json(apiError.toEnvelope());
  });
  return app;
}

const unavailable = (message: string) =>
  new ApiError({ status: 503, type: "api_error", code: "service_unavailable", message });

async function handle(route: AnyRoute, request: Request, response: Response, dependencies: AppDependencies) {
  const { config, database } = dependencies;
  // A money POST claims its Idempotency-Key in authentication's round trip (checked after it, so a
  // bad key still answers 401 first).
  const idempotencyKey =
    route.idempotent === undefined || route.idempotent === false ? undefined : request.get("idempotency-key");
  // An optional key that was sent makes the request idempotent exactly as a required one does.
  const idempotent = route.idempotent === true || (route.idempotent === "optional" && idempotencyKey !== undefined);
  const claimRequest =
    idempotencyKey === undefined || idempotencyKey.trim() === "" || idempotencyKey.length > IDEMPOTENCY_KEY_LENGTH_MAX
      ? undefined
      : idempotency.claimRequestOf(
          { key: idempotencyKey, method: request.method, path: request.path, body: request.body },
          config.idempotency.lockTimeoutMs,
        );
  const { tenant, claimed: claimedInAuthentication } = await resolvePrincipal(
    route.auth,
    request,
    response,
    dependencies,
    claimRequest,
  );
  const abandoned = new AbortController();
  response.on("close", () => {
    if (!response.writableFinished) abandoned.abort();
  });
  const context = (
    transaction: (effects: (tx: Transaction) => Promise<JsonReply>) => Promise<JsonReply>,
    commitWithResponse: CommitWithResponse,
  ) => ({
    body:
      route.request?.body === undefined ? undefined : parseRequestPart(route.request.body, jsonBodyOf(request), "body"),
    query: parseRequestPart(route.request?.query, request.query, "query"),
    params: parseRequestPart(route.request?.params, request.params, "path"),
    tenant,
    config,
    database,
    logger: request.log,
    requestId: request.id,
    client: clientOf(request, config.publicBaseUrl),
    aborted: abandoned.signal,
    idempotencyKey,
    transaction,
    commitWithResponse,
  });

  if (idempotent && tenant !== undefined) {
    if (idempotencyKey === undefined || idempotencyKey.trim() === "") {
      throw invalidRequest("missing_idempotency_key", "This request moves money: send an Idempotency-Key header.");
    }
    if (claimRequest === undefined) {
      throw invalidRequest(
        "parameter_invalid",
        `The Idempotency-Key header must be at most ${IDEMPOTENCY_KEY_LENGTH_MAX} characters.`,
      );
    }
    await handleIdempotent(route, response, dependencies, {
      tenant,
      claimRequest,
      claimedInAuthentication,
      context,
    });
    return;
  }
  const plainTransaction = (effects: (tx: Transaction) => Promise<JsonReply>) => database.transaction(effects);
  const plainCommit: CommitWithResponse = async (reply, write) => {
    if (!(await write(null))) {
      throw new TypeError(`${route.operationId}: the effects statement wrote nothing`);
    }
    return reply;
  };
  const reply = await route.handler(context(plainTransaction, plainCommit) as never);
  sendReply(response, reply);
}

type CommitWithResponse = Parameters<AnyRoute["handler"]>[0]["commitWithResponse"];

type ContextFactory = (
  transaction: (effects: (tx: Transaction) => Promise<JsonReply>) => Promise<JsonReply>,
  commitWithResponse: CommitWithResponse,
) => Parameters<AnyRoute["handler"]>[0];

/**
 * Runs an idempotent route: claim the key, execute, and store the response with the effects.
 * Validation happens after the claim, so a 4xx for a bad body is stored and replayed like any other
 * answer (the specification asks the client to use a new key after a 4xx).
 */
async function handleIdempotent(
  route: AnyRoute,
  response: Response,
  dependencies: AppDependencies,
  request: {
    tenant: Tenant;
    claimRequest: idempotency.ClaimRequest;
    claimedInAuthentication: boolean;
    context: ContextFactory;
  },
) {
  const { database, metrics } = dependencies;
  const { tenant, claimRequest, context } = request;
  const scope = { merchantId: tenant.merchantId, livemode: tenant.livemode, key: claimRequest.key };
  const claim = await idempotency.claim(database, scope, claimRequest, {
    alreadyInserted: request.claimedInAuthentication,
  });
  if (claim.kind === "replay") {
    metrics.idempotentReplaysTotal.inc();
    response
      .status(claim.status)
      .set("Idempotent-Replayed", "true")
      .type("application/json")
      .send(replayedBody(route, claim, dependencies.config));
    return;
  }

  // The answer sent, once its record is written; the record holds it without the route's derived field.
  let stored: { status: number; body: string } | undefined;
  const completionOf = (reply: JsonReply) => {
    const status = reply.status ?? 200;
    const sent = { status, body: JSON.stringify(reply.body) };
    return { sent, record: { status, body: storedBody(route, status, reply.body) ?? sent.body } };
  };
  const storeWith = async (transaction: Transaction, reply: JsonReply) => {
    const { sent, record } = completionOf(reply);
    await idempotency.complete(transaction, { ...scope, ownerToken: claim.ownerToken, ...record });
    stored = sent;
  };
  const idempotentTransaction = (effects: (tx: Transaction) => Promise<JsonReply>) =>
    database.transaction(async (transaction) => {
      const reply = await effects(transaction);
      await storeWith(transaction, reply);
      return reply;
    });

  const idempotentCommit: CommitWithResponse = async (reply, write) => {
    const { sent, record } = completionOf(reply);
    if (!(await write({ ...scope, ownerToken: claim.ownerToken, ...record }))) {
      throw idempotency.takenOver();
    }
    stored = sent;
    return reply;
  };

  // The handler's own headers go with its first answer (a stored replay carries Idempotent-Replayed).
  let headers: Record<string, string> | undefined;
  try {
    const reply = await route.handler(context(idempotentTransaction, idempotentCommit) as never);
    if (!("body" in reply)) {
      throw new TypeError(`Idempotent route ${route.operationId} must answer JSON`);
    }
    headers = reply.headers;
    if (stored === undefined) {
      // A handler without database effects: store its answer on its own.
      await database.transaction((transaction) => storeWith(transaction, reply));
    }
  } catch (error) {
    const apiError = toApiError(error);
    // Nothing was committed: free the key so the client's retry with the same key runs again. A
    // `manager_required` refusal is lifted by a manager's approval, which the till sends with its retry.
    if (apiError.status >= 500 || apiError.code === "idempotency_in_flight" || apiError.code === "manager_required") {
      await idempotency.release(database, scope, claim.ownerToken).catch(() => {});
      throw error;
    }
    await database.transaction((transaction) =>
      storeWith(transaction, { status: apiError.status, body: apiError.toEnvelope() }),
    );
  }
  if (stored === undefined) {
    throw new TypeError("idempotent response was not stored");
  }
  response.status(stored.status);
  if (headers !== undefined) {
    response.set(headers);
  }
  response.type("application/json").send(stored.body);
}

/** A success answer as stored: its derived field emptied, in place (the keys keep their order). */
function storedBody(route: AnyRoute, status: number, body: unknown): string | undefined {
  const derived = route.derivedOnReplay;
  if (derived === undefined || status >= 300 || !isObject(body)) {
    return undefined;
  }
  const holder = derived.in === undefined ? body : body[derived.in];
  if (!isObject(holder) || !(derived.field in holder)) {
    return undefined;
  }
  const emptied = { ...holder, [derived.field]: "" };
  return JSON.stringify(derived.in === undefined ? emptied : { ...body, [derived.in]: emptied });
}

/** A stored answer as first sent: its derived field drawn again. */
function replayedBody(route: AnyRoute, stored: { status: number; body: string }, config: Config): string {
  const derived = route.derivedOnReplay;
  if (derived === undefined || stored.status >= 300) {
    return stored.body;
  }
  const body = JSON.parse(stored.body) as Record<string, unknown>;
  const holder = derived.in === undefined ? body : body[derived.in];
  if (!isObject(holder) || holder[derived.field] !== "") {
    return stored.body;
  }
  holder[derived.field] = derived.derive(holder, config);
  return JSON.stringify(body);
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function sendReply(response: Response, reply: Reply): void {
  response.status(reply.status ?? 200);
  if (reply.headers !== undefined) {
    response.set(reply.headers);
  }
  if ("body" in reply) {
    response.type("application/json").send(JSON.stringify(reply.body));
    return;
  }
  response.type(reply.contentType);
  if (reply.payload instanceof Readable) {
    reply.payload.on("error", (error) => response.destroy(error));
    reply.payload.pipe(response);
    return;
  }
  response.send(reply.payload);
}

/** Maps anything thrown to the API's error: our own errors, body-parser's, or an unexpected fault. */
function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) {
    return error;
  }
  const bodyParserError = error as { type?: string; status?: number };
  switch (bodyParserError.type) {
    case "entity.parse.failed":
      return invalidRequest("invalid_json", "The request body is not valid JSON.");
    case "entity.too.large":
      return new ApiError({
        status: 413,
        type: "invalid_request",
        code: "body_too_large",
        message: "The request body is too large.",
      });
    case "encoding.unsupported":
    case "charset.unsupported":
      return new ApiError({
        status: 415,
        type: "invalid_request",
        code: "unsupported_encoding",
        message: "The request body's encoding is not supported; send UTF-8 JSON.",
      });
    default:
      if (
        bodyParserError.type !== undefined &&
        typeof bodyParserError.status === "number" &&
        bodyParserError.status < 500
      ) {
        return invalidRequest("invalid_body", "The request body could not be read.");
      }
      return databaseUnavailableError(error) ?? internalError();
  }
}
