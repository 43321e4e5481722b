import { type BodyOf, type CallOptions, call, type Schema } from "./call.ts";

/**
 * Secret API keys of each world (the dashboard lists both; `options.world` names the key's own). Only
 * the API keys page calls these: it imports this file directly, not through web/lib/api.ts, so they
 * stay in that page's lazily loaded chunk.
 */
export type ApiKey = Schema<"ApiKey">;

export const listApiKeys = (options: CallOptions) => call("get", "/v1/api_keys", { ...options, query: { limit: 100 } });

export const createApiKey = (body: BodyOf<"/v1/api_keys", "post">) => call("post", "/v1/api_keys", { body });

export const rollApiKey = (id: string, body: BodyOf<"/v1/api_keys/{id}/roll", "post">, options: CallOptions) =>
  call("post", "/v1/api_keys/{id}/roll", { ...options, path: { id }, body });

export const revokeApiKey = (id: string, options: CallOptions) =>
  call("delete", "/v1/api_keys/{id}", { ...options, path: { id } });

/** How long a rolled key keeps working: the API's few choices (web/dashboard/components/overlaps.ts offers them). */
export type KeyOverlapSeconds = NonNullable<BodyOf<"/v1/api_keys/{id}/roll", "post">["expires_in_seconds"]>;
