import { randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import express, { type Request, type Response } from "express";
import helmet from "helmet";
import { pinoHttp } from "pino-http";
import type { Config } from "../config.ts";
import { type Database, sql } from "../db/pool.ts";
import { ApiError, invalidRequest } from "../errors.ts";
import * as idempotency from "../idempotency/service.ts";
import type { Logger } from "../telemetry/logger.ts";
import type { Metrics } from "../telemetry/metrics.ts";
import type { Tenant } from "../tenant.ts";
import type { ApiKeyAuthenticator } from "./authentication.ts";
import { answerError, routeNotFound } from "./error-mapping.ts";
import {
  answeredWriteOf,
  type ContextFactory,
  handleIdempotent,
  type StatementCommit,
  type TransactionWithReply,
} from "./idempotent-route.ts";
import { jsonBodyOf, jsonBodyParser, textBodyParser } from "./json-body.ts";
import { openApiJson } from "./openapi.ts";
import { clientOf, resolvePrincipal, type SessionAuthenticator } from "./principal.ts";
import { refuseUnsafeValues } from "./request-strings.ts";
import { refuseMalformedTarget } from "./request-target.ts";
import type { AnyRoute, Reply } from "./route.ts";
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
  const { config } = dependencies;
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
  identifyAndLogRequests(app, dependencies.logger);
  app.use(helmet());
  measureRequests(app, dependencies.metrics);
  app.use(refuseMalformedTarget);
  addProbes(app, dependencies);
  app.use(jsonBodyParser({ limitBytes: config.httpBodyLimitBytes }));
  // Before authentication, so a refused string writes nothing (not even a stored idempotent answer).
  app.use((request, _response, next) => {
    refuseUnsafeValues(request.body, "body");
    refuseUnsafeValues(request.query, "query");
    next();
  });
  addRoutes(app, dependencies);
  app.use(routeNotFound);
  app.use(answerError);
  return app;
}

/** Gives each request an id (the caller's X-Request-Id when well formed) and logs it with pino-http. */
function identifyAndLogRequests(app: express.Express, logger: Logger): void {
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
}

/** Times each request into the duration histogram, labelled by route template and status. */
function measureRequests(app: express.Express, metrics: Metrics): void {
  app.use((request, response, next) => {
    const stopTimer = metrics.httpRequestDurationSeconds.startTimer();
    response.on("finish", () => {
      // The route template, never the concrete path: ids must not become label values.
      const route = request.route?.path === undefined ? "unmatched" : `${request.baseUrl}${String(request.route.path)}`;
      stopTimer({ method: request.method, route, status_code: String(response.statusCode) });
    });
    next();
  });
}

/** /healthz (the process answers) and /readyz (not draining, and the database answers). */
function addProbes(app: express.Express, dependencies: AppDependencies): void {
  const { database, logger } = dependencies;
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
}

/** The OpenAPI document (built on first request) and every route of the modules. */
function addRoutes(app: express.Express, dependencies: AppDependencies): void {
  const { config, routes } = dependencies;
  let openApiDocument: string | undefined;
  app.get("/v1/openapi.json", (_request, response) => {
    openApiDocument ??= openApiJson(routes, { serverUrl: config.publicBaseUrl });
    response.type("application/json").send(openApiDocument);
  });
  for (const route of routes) {
    const bodyParsers = route.textBody === undefined ? [] : textBodyParser(route.textBody);
    app[route.method](route.path, ...bodyParsers, async (request: Request, response: Response) => {
      await handle(route, request, response, dependencies);
    });
  }
}

const unavailable = (message: string) =>
  new ApiError({ status: 503, type: "api_error", code: "service_unavailable", message });

async function handle(route: AnyRoute, request: Request, response: Response, dependencies: AppDependencies) {
  const { idempotencyKey, idempotent, claimRequest } = idempotencyOf(route, request, dependencies.config);
  const { tenant, claimed: claimedInAuthentication } = await resolvePrincipal(
    route.auth,
    request,
    response,
    dependencies,
    claimRequest,
  );
  const context = contextFactory(route, request, response, dependencies, { tenant, idempotencyKey });
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
  const plainTransaction: TransactionWithReply = (effects) => dependencies.database.transaction(effects);
  const plainCommit: StatementCommit = async (reply, write) => {
    if (!(await write(null))) {
      throw new TypeError(`${route.operationId}: the effects statement wrote nothing`);
    }
    return reply;
  };
  const reply = await route.handler(context(plainTransaction, plainCommit) as never);
  sendReply(response, reply);
}

/**
 * The request's Idempotency-Key, whether it makes the request idempotent, and the claim to make. A
 * money POST claims its key in authentication's round trip (checked after it, so a bad key still
 * answers 401 first).
 */
function idempotencyOf(route: AnyRoute, request: Request, config: Config) {
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
  return { idempotencyKey, idempotent, claimRequest };
}

/**
 * Builds the handler's context for a given way of committing; the request parts are parsed when the
 * context is built, after the key's claim (see handleIdempotent). The request counts as abandoned once
 * its connection closes before the answer is written.
 */
function contextFactory(
  route: AnyRoute,
  request: Request,
  response: Response,
  dependencies: AppDependencies,
  principal: { tenant: Tenant | undefined; idempotencyKey: string | undefined },
): ContextFactory {
  const { config, database } = dependencies;
  const abandoned = new AbortController();
  response.on("close", () => {
    if (!response.writableFinished) abandoned.abort();
  });
  return (transaction, statementCommit) =>
    ({
      body:
        route.request?.body === undefined
          ? undefined
          : parseRequestPart(route.request.body, jsonBodyOf(request), "body"),
      query: parseRequestPart(route.request?.query, request.query, "query"),
      params: parseRequestPart(route.request?.params, request.params, "path"),
      tenant: principal.tenant,
      config,
      database,
      logger: request.log,
      requestId: request.id,
      client: clientOf(request, config.publicBaseUrl),
      aborted: abandoned.signal,
      idempotencyKey: principal.idempotencyKey,
      transaction,
      answeredWrite: answeredWriteOf(transaction, statementCommit),
    }) as never;
}

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
