import { api } from "../session.ts";
import type { ApiClient, RequestOptions } from "./client.ts";
import type { components, paths } from "./generated.ts";

/**
 * The API as docs/openapi.json describes it, checked by the compiler: `call` takes a documented path
 * and method, that route's path parameters, query and body, and answers its success type. The
 * resource modules beside this file are written with it; screens call those, never paths.
 */

/** A named object of the API (`Sale`, `Payout`…). */
export type Schema<Name extends keyof components["schemas"]> = components["schemas"][Name];

type Method = "get" | "post" | "patch" | "delete";
/** The methods a path documents (the generated `put?: never` and the like are not). */
type MethodOf<P extends keyof paths> = { [M in Method]: paths[P][M] extends undefined ? never : M }[Method];
type Operation<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;
type JsonOf<R> = R extends { content: { "application/json": infer Body } } ? Body : undefined;
type Success<Responses> = Responses[Extract<keyof Responses, 200 | 201 | 202 | 204>];

/** What a route answers on success (undefined: no JSON body). */
export type AnswerOf<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { responses: infer Responses } ? JsonOf<Success<Responses>> : never;
export type QueryOf<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { parameters: { query?: infer Query } } ? NonNullable<Query> : never;
export type BodyOf<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { requestBody?: { content: { "application/json": infer Body } } } ? Body : never;
type PathParametersOf<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { parameters: { path: infer Parameters } } ? Parameters : never;

/** The transport's own options (world, Idempotency-Key, signal, manager approval). */
export type CallOptions = Omit<RequestOptions, "query" | "body">;

type CallParameters<P extends keyof paths, M extends Method> = CallOptions & {
  /** Another client than the session's (a till pairing with an owner's short-lived session). */
  client?: ApiClient;
  path?: PathParametersOf<P, M>;
  query?: QueryOf<P, M>;
  body?: BodyOf<P, M>;
};

/** One request to a documented route; `{name}` in the path is filled from `parameters.path`, encoded. */
export function call<P extends keyof paths, M extends MethodOf<P>>(
  method: M,
  path: P,
  parameters: CallParameters<P, M> = {},
): Promise<AnswerOf<P, M>> {
  const { path: pathParameters, client = api, ...options } = parameters;
  const values = (pathParameters ?? {}) as Record<string, string>;
  const url = path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? ""));
  return client.request(method.toUpperCase() as Uppercase<Method>, url, options as RequestOptions);
}

/** A select's value as a query filter: "" (everything) is no filter; the options are the API's values. */
export const chosen = <Value extends string>(value: string): Value | undefined =>
  value === "" ? undefined : (value as Value);
