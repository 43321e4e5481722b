import { z } from "zod";
import { type Queryable, sql } from "../../platform/db/pool.ts";

/**
 * The statements of a key rotation's second step (`resealSecrets`): read every endpoint's sealed
 * secrets in key order, and replace them with their re-encryption unless they changed meanwhile.
 */

const sealedSecretSchema = z.object({
  merchant_id: z.string(),
  id: z.string(),
  secret_ciphertext: z.instanceof(Buffer),
  previous_secret_ciphertext: z.instanceof(Buffer).nullable(),
});

/** Every endpoint's sealed secret, in key order after `after`: for re-encryption under a new key. */
export async function selectSealedSecrets(
  database: Queryable,
  options: { after: { merchantId: string; id: string } | undefined; limit: number },
): Promise<readonly z.infer<typeof sealedSecretSchema>[]> {
  const after =
    options.after === undefined
      ? sql.fragment``
      : sql.fragment`WHERE (merchant_id, id) > (${options.after.merchantId}, ${options.after.id})`;
  return database.any(sql.type(sealedSecretSchema)`
    SELECT merchant_id, id, secret_ciphertext, previous_secret_ciphertext FROM webhook_endpoints ${after}
    ORDER BY merchant_id, id
    LIMIT ${options.limit}`);
}

/**
 * Replaces an endpoint's sealed secrets with their re-encryption, only if they are still those that
 * were read: a secret rolled meanwhile is not reverted. False when they changed (read them again).
 */
export async function updateSealedSecrets(
  database: Queryable,
  endpoint: {
    merchantId: string;
    id: string;
    read: { current: Buffer; previous: Buffer | null };
    resealed: { current: Buffer; previous: Buffer | null };
  },
): Promise<boolean> {
  const binaryOrNull = (value: Buffer | null) => (value === null ? null : sql.binary(value));
  const updated = await database.query(sql.unsafe`
    UPDATE webhook_endpoints
    SET secret_ciphertext = ${sql.binary(endpoint.resealed.current)},
      previous_secret_ciphertext = ${binaryOrNull(endpoint.resealed.previous)}
    WHERE merchant_id = ${endpoint.merchantId} AND id = ${endpoint.id}
      AND secret_ciphertext = ${sql.binary(endpoint.read.current)}
      AND previous_secret_ciphertext IS NOT DISTINCT FROM ${binaryOrNull(endpoint.read.previous)}::bytea`);
  return updated.rowCount === 1;
}
