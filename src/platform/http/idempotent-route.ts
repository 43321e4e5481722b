import type { Response } from "express";
import type { Config } from "../config.ts";
import type { Database, Transaction } from "../db/pool.ts";
import * as idempotency from "../idempotency/service.ts";
import type { Metrics } from "../telemetry/metrics.ts";
import type { Tenant } from "../tenant.ts";
import { toApiError } from "./error-mapping.ts";
import type { AnsweredWrite, AnyRoute, JsonReply } from "./route.ts";

/**
 * How the platform commits a write of one statement with its answer: `write` runs that statement,
 * storing the answer in it (with `storeResponsesStatement`, its effects conditional on the store; on a
 * route that is not idempotent `response` is null: nothing to store, the effects unconditional), and
 * tells whether it wrote. Under `answeredWrite(present).commit`; handlers never see it.
 */
export type StatementCommit = (
  reply: JsonReply,
  write: (response: idempotency.ResponseToStore | null) => Promise<boolean>,
) => Promise<JsonReply>;

export type TransactionWithReply = (effects: (tx: Transaction) => Promise<JsonReply>) => Promise<JsonReply>;

export type ContextFactory = (
  transaction: TransactionWithReply,
  statementCommit: StatementCommit,
) => Parameters<AnyRoute["handler"]>[0];

type Scope = idempotency.IdempotencyScope;

/**
 * The context's `answeredWrite` over its `transaction` and `statementCommit` (idempotent or plain):
 * the answer is made once, from the service's result, stored with the write and kept for the route
 * to return.
 */
export const answeredWriteOf =
  (transaction: TransactionWithReply, statementCommit: StatementCommit) =>
  <Result>(present: (result: Result) => JsonReply): AnsweredWrite<Result> => {
    let committed: JsonReply | undefined;
    return {
      commit: async (result, write) => {
        committed = await statementCommit(present(result), write);
      },
      transaction: async (effects) => {
        let result: Result | undefined;
        committed = await transaction(async (tx) => {
          result = await effects(tx);
          return present(result);
        });
        return result as Result;
      },
      reply: () => {
        if (committed === undefined) {
          throw new TypeError("an answered write was replied to before it committed");
        }
        return committed;
      },
    };
  };

/**
 * Runs an idempotent route: claim the key, execute, and store the response with the effects.
 * Validation happens after the claim, so a 4xx for a bad body is stored and replayed like any other
 * answer (the specification asks the client to use a new key after a 4xx).
 */
export async function handleIdempotent(
  route: AnyRoute,
  response: Response,
  dependencies: { config: Config; database: Database; metrics: Metrics },
  request: {
    tenant: Tenant;
    claimRequest: idempotency.ClaimRequest;
    claimedInAuthentication: boolean;
    context: ContextFactory;
  },
): Promise<void> {
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
  const store = answerStore(route, database, scope, claim.ownerToken);
  // The handler's own headers go with its first answer (a stored replay carries Idempotent-Replayed).
  let headers: Record<string, string> | undefined;
  try {
    const reply = await route.handler(context(store.transaction, store.commit) as never);
    if (!("body" in reply)) {
      throw new TypeError(`Idempotent route ${route.operationId} must answer JSON`);
    }
    headers = reply.headers;
    if (store.stored() === undefined) {
      // A handler without database effects: store its answer on its own.
      await database.transaction((transaction) => store.storeWith(transaction, reply));
    }
  } catch (error) {
    await storeErrorOrRelease(error, database, store, { scope, ownerToken: claim.ownerToken });
  }
  const stored = store.stored();
  if (stored === undefined) {
    throw new TypeError("idempotent response was not stored");
  }
  response.status(stored.status);
  if (headers !== undefined) {
    response.set(headers);
  }
  response.type("application/json").send(stored.body);
}

type AnswerStore = {
  /** A transaction whose effects commit with the stored answer. */
  transaction: TransactionWithReply;
  /** For a route that writes in one statement: the statement writes the answer too. */
  commit: StatementCommit;
  /** Stores an answer in `transaction`. */
  storeWith: (transaction: Transaction, reply: JsonReply) => Promise<void>;
  /** The answer sent, once its record is written. */
  stored: () => { status: number; body: string } | undefined;
};

/** The ways a claimed key's answer is written with the route's effects; each remembers what it wrote. */
function answerStore(route: AnyRoute, database: Database, scope: Scope, ownerToken: string): AnswerStore {
  // The answer sent, once its record is written; the record holds it without the route's derived field.
  let stored: { status: number; body: string } | undefined;
  const completionOf = (reply: JsonReply) => {
    const status = reply.status ?? 200;
    const sent = { status, body: JSON.stringify(reply.body) };
    return { sent, record: { status, body: storedBody(route, status, reply.body) ?? sent.body } };
  };
  const storeWith = async (transaction: Transaction, reply: JsonReply) => {
    const { sent, record } = completionOf(reply);
    await idempotency.complete(transaction, { ...scope, ownerToken, ...record });
    stored = sent;
  };
  const transaction: TransactionWithReply = (effects) =>
    database.transaction(async (tx) => {
      const reply = await effects(tx);
      await storeWith(tx, reply);
      return reply;
    });
  const commit: StatementCommit = async (reply, write) => {
    const { sent, record } = completionOf(reply);
    if (!(await write({ ...scope, ownerToken, ...record }))) {
      throw idempotency.takenOver();
    }
    stored = sent;
    return reply;
  };
  return { transaction, commit, storeWith, stored: () => stored };
}

/**
 * A handler failed. When nothing was committed and the client's retry with the same key should run
 * again, the key is freed and the error rethrown; otherwise the error's answer is stored as the answer.
 */
async function storeErrorOrRelease(
  error: unknown,
  database: Database,
  store: AnswerStore,
  claimed: { scope: Scope; ownerToken: string },
): Promise<void> {
  const apiError = toApiError(error);
  // Nothing was committed: free the key so the client's retry with the same key runs again.
  if (apiError.status >= 500 || apiError.retryWithSameKey) {
    await idempotency.release(database, claimed.scope, claimed.ownerToken).catch(() => {});
    throw error;
  }
  await database.transaction((transaction) =>
    store.storeWith(transaction, { status: apiError.status, body: apiError.toEnvelope() }),
  );
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
