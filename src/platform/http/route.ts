import type { Readable } from "node:stream";
import type { z } from "zod";
import type { Config } from "../config.ts";
import type { Database } from "../db/pool.ts";
import type { CommitWithAnswer, TransactionWithAnswer } from "../idempotency/service.ts";
import type { Logger } from "../telemetry/logger.ts";
import type { Tenant } from "../tenant.ts";
import type { Access } from "./access.ts";

/** A JSON response. `status` defaults to 200. */
export type JsonReply = { status?: number; body: unknown; headers?: Record<string, string> };
/** A non-JSON response (an HTML page, a CSV stream, a script). */
export type RawReply = {
  status?: number;
  contentType: string;
  payload: string | Buffer | Readable;
  headers?: Record<string, string>;
};
export type Reply = JsonReply | RawReply;

/**
 * A write committed with its answer (`HandlerContext.answeredWrite`): `commit` or `transaction` for
 * the service, `reply` for the route.
 */
export type AnsweredWrite<Result> = {
  /** Makes the answer of the service's result and stores it in the service's one statement. */
  commit: CommitWithAnswer<Result>;
  /** Runs the service's statements in one transaction and stores the answer of their result in it. */
  transaction: TransactionWithAnswer<Result>;
  /** The answer committed (the route returns it); a TypeError before `commit` has written. */
  reply: () => JsonReply;
};

/** The sender of a request: its address, browser, origin and cookies. */
export type RequestClient = {
  address: string | undefined;
  userAgent: string | undefined;
  /** The Origin header, and whether it is the API's own origin. */
  origin: string | undefined;
  sameOrigin: boolean;
  cookie: (name: string) => string | undefined;
};

type Schema = z.ZodType;
type Infer<S> = S extends Schema ? z.output<S> : undefined;

/**
 * Who may call a route: nobody needs to be signed in (`none`), the operator token (`admin`), or the
 * merchant principals its `Access` names (`./access.ts`), anything else refused.
 */
export type RouteAuth = "none" | "admin" | Access;

export type HandlerContext<B, Q, P, A extends RouteAuth> = {
  body: B;
  query: Q;
  params: P;
  /** The authenticated merchant, world and actor; present on the routes of merchant principals. */
  tenant: A extends "admin" | "none" ? undefined : Tenant;
  config: Config;
  database: Database;
  logger: Logger;
  requestId: string;
  /** Who sent the request, as the browser-facing routes (sign-in, sessions) need it. */
  client: RequestClient;
  /** Aborts when the client goes away before the answer is sent (a waiting request then stops waiting). */
  aborted: AbortSignal;
  /**
   * The Idempotency-Key of an idempotent route (undefined elsewhere). A handler whose work spans
   * several transactions (reserve money, call the gateway, settle) records it, so that a retry after
   * a crash resumes the same operation instead of starting another.
   */
  idempotencyKey: string | undefined;
  /**
   * One idempotent write (docs/conventions.md): the service writes, the route answers. The route gives
   * the service `answeredWrite(present).commit` (effects of one statement, which stores the answer
   * too, so both commit in one round trip instead of four and concurrent requests' statements may be
   * batched into one) or `.transaction` (several, in one transaction; on idempotent routes the stored
   * answer commits in it, so effects and replayable answer never diverge), through which the answer
   * `present` makes of the service's result is stored with its effects, and returns `reply()`, that
   * answer, once the service returns its outcome. The service never sees the HTTP answer.
   */
  answeredWrite: <Result>(present: (result: Result) => JsonReply) => AnsweredWrite<Result>;
};

/** A large field of an idempotent answer that a replay derives again (`derivedOnReplay` below). */
export type DerivedOnReplay = {
  in?: string;
  field: string;
  derive: (holder: Record<string, unknown>, config: Config) => string;
};

export type RouteDefinition<
  B extends Schema | undefined = Schema | undefined,
  Q extends Schema | undefined = Schema | undefined,
  P extends Schema | undefined = Schema | undefined,
  A extends RouteAuth = RouteAuth,
> = {
  method: "get" | "post" | "patch" | "delete";
  /** Express path syntax (`/v1/things/:id`). */
  path: string;
  operationId: string;
  summary: string;
  tags: string[];
  auth: A;
  /**
   * true, money-moving POSTs: the Idempotency-Key header is required and responses are replayed.
   * "optional" (stock operations): the same guarantees when the client sends the header, a plain
   * request when it does not (the specification does not require it there).
   */
  idempotent?: boolean | "optional";
  /**
   * A field of an idempotent route's success answer that is derived from the rest of it and large (the
   * QR image of a code): its stored response keeps the field empty and a replay derives it again, so
   * the record stays small while the replay is still the first answer, byte for byte. The field is the
   * answer's own, or that of the object under its key `in` (a wallet sale's `payment`; an answer whose
   * `in` is null has nothing to derive); `derive` reads the object that holds the field.
   */
  derivedOnReplay?: DerivedOnReplay;
  /**
   * A body that is not JSON (a CSV upload): UTF-8 text of this media type, read up to `limitBytes`
   * (which may exceed the JSON limit), then validated by `request.body` as a string.
   */
  textBody?: { mediaType: string; limitBytes: number };
  request?: { body?: B; query?: Q; params?: P };
  responses: Record<number, { description: string; schema?: Schema; contentType?: string }>;
  handler: (context: HandlerContext<Infer<B>, Infer<Q>, Infer<P>, A>) => Promise<Reply>;
};

// biome-ignore lint/suspicious/noExplicitAny: routes of every input type are held in one list.
export type AnyRoute = RouteDefinition<any, any, any, RouteAuth>;

/** Declares a route; the identity function exists so TypeScript infers the handler's input types. */
export function defineRoute<
  B extends Schema | undefined = undefined,
  Q extends Schema | undefined = undefined,
  P extends Schema | undefined = undefined,
  A extends RouteAuth = RouteAuth,
>(definition: RouteDefinition<B, Q, P, A>): AnyRoute {
  return definition as AnyRoute;
}
