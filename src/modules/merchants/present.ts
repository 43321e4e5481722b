import type { ApiKeyRow } from "./queries.ts";

/**
 * An API key as every answer shows it (the key list, the operator API, the dashboard's mint, roll and
 * revoke): its secret only when given, which is in the answer that minted it.
 */
export function presentApiKey(key: ApiKeyRow, secretKey?: string) {
  return {
    id: key.id,
    object: "api_key" as const,
    livemode: key.livemode,
    prefix: key.livemode ? ("sk_live_" as const) : ("sk_test_" as const),
    last4: key.secret_last4,
    created_at: key.created_at.toISOString(),
    last_used_at: key.last_used_at?.toISOString() ?? null,
    expires_at: key.expires_at?.toISOString() ?? null,
    revoked_at: key.revoked_at?.toISOString() ?? null,
    ...(secretKey === undefined ? {} : { secret_key: secretKey }),
  };
}
