import { z } from "zod";
import { type Queryable, sql, type Transaction } from "../../platform/db/pool.ts";

const user = (merchantId: string, userId: string) => sql.fragment`merchant_id = ${merchantId} AND id = ${userId}`;

/** Starts an enrolment: a new pending secret, replacing an unconfirmed one; false when 2FA is already on. */
export async function writePendingSecret(
  database: Queryable,
  input: { merchantId: string; userId: string; sealed: Buffer },
): Promise<boolean> {
  const result = await database.query(sql.unsafe`
    UPDATE dashboard_users SET two_factor_secret_ciphertext = ${sql.binary(input.sealed)}, two_factor_last_step = NULL
    WHERE ${user(input.merchantId, input.userId)} AND two_factor_enabled_at IS NULL`);
  return result.rowCount === 1;
}

/**
 * Turns 2FA on with the pending secret that was checked (the same ciphertext: an enrolment started again
 * meanwhile is not turned on by the older code), and replaces the recovery codes. False when it was not
 * pending with that secret any more.
 */
export async function enable(
  transaction: Transaction,
  input: { merchantId: string; userId: string; sealed: Buffer; step: number; recoveryCodeHashes: readonly Buffer[] },
): Promise<boolean> {
  const result = await transaction.query(sql.unsafe`
    UPDATE dashboard_users SET two_factor_enabled_at = now(), two_factor_last_step = ${input.step}
    WHERE ${user(input.merchantId, input.userId)} AND two_factor_enabled_at IS NULL
      AND two_factor_secret_ciphertext = ${sql.binary(input.sealed)}`);
  if (result.rowCount !== 1) {
    return false;
  }
  await transaction.query(sql.unsafe`
    DELETE FROM two_factor_recovery_codes WHERE merchant_id = ${input.merchantId} AND user_id = ${input.userId}`);
  await transaction.query(sql.unsafe`
    INSERT INTO two_factor_recovery_codes (merchant_id, user_id, code_hash)
    SELECT ${input.merchantId}, ${input.userId}, decode(h, 'hex')
    FROM unnest(${sql.array(
      input.recoveryCodeHashes.map((hash) => hash.toString("hex")),
      "text",
    )}) AS h`);
  return true;
}

/** Turns 2FA off: the secret, its last step and the recovery codes go; false when it was not on. */
export async function disable(transaction: Transaction, merchantId: string, userId: string): Promise<boolean> {
  const result = await transaction.query(sql.unsafe`
    UPDATE dashboard_users
    SET two_factor_secret_ciphertext = NULL, two_factor_enabled_at = NULL, two_factor_last_step = NULL
    WHERE ${user(merchantId, userId)} AND two_factor_enabled_at IS NOT NULL`);
  await transaction.query(sql.unsafe`
    DELETE FROM two_factor_recovery_codes WHERE merchant_id = ${merchantId} AND user_id = ${userId}`);
  return result.rowCount === 1;
}

/**
 * Accepts a TOTP time step only if it is later than the last accepted one: one conditional update, so
 * two requests with the same code cannot both pass (the second finds the step taken).
 */
export async function takeStep(
  database: Queryable,
  input: { merchantId: string; userId: string; step: number },
): Promise<boolean> {
  const result = await database.query(sql.unsafe`
    UPDATE dashboard_users SET two_factor_last_step = ${input.step}
    WHERE ${user(input.merchantId, input.userId)} AND two_factor_enabled_at IS NOT NULL
      AND (two_factor_last_step IS NULL OR two_factor_last_step < ${input.step})`);
  return result.rowCount === 1;
}

/** Spends a recovery code: true only for the one request that marks it used. */
export async function spendRecoveryCode(
  database: Queryable,
  input: { merchantId: string; userId: string; codeHash: Buffer },
): Promise<boolean> {
  const result = await database.query(sql.unsafe`
    UPDATE two_factor_recovery_codes SET used_at = now()
    WHERE merchant_id = ${input.merchantId} AND user_id = ${input.userId}
      AND code_hash = ${sql.binary(input.codeHash)} AND used_at IS NULL`);
  return result.rowCount === 1;
}

export async function countUnusedRecoveryCodes(database: Queryable, merchantId: string, userId: string) {
  return database.oneFirst(sql.type(z.object({ n: z.number().int() }))`
    SELECT count(*)::integer AS n FROM two_factor_recovery_codes
    WHERE merchant_id = ${merchantId} AND user_id = ${userId} AND used_at IS NULL`);
}

const sealedSecretSchema = z.object({ merchant_id: z.string(), id: z.string(), sealed: z.instanceof(Buffer) });

/** The users with a sealed TOTP secret (pending or on), in key order after `after`, a batch at a time. */
export async function selectSealedSecrets(
  database: Queryable,
  page: { after: { merchantId: string; id: string } | undefined; limit: number },
): Promise<readonly z.infer<typeof sealedSecretSchema>[]> {
  const after = page.after ?? { merchantId: "", id: "" };
  return database.any(sql.type(sealedSecretSchema)`
    SELECT merchant_id, id, two_factor_secret_ciphertext AS sealed FROM dashboard_users
    WHERE two_factor_secret_ciphertext IS NOT NULL AND (merchant_id, id) > (${after.merchantId}, ${after.id})
    ORDER BY merchant_id, id LIMIT ${page.limit}`);
}

/** Replaces a sealed secret with the same secret sealed under the current key, unless it changed meanwhile. */
export async function updateSealedSecret(
  database: Queryable,
  user: { merchantId: string; id: string; read: Buffer; resealed: Buffer },
): Promise<boolean> {
  const result = await database.query(sql.unsafe`
    UPDATE dashboard_users SET two_factor_secret_ciphertext = ${sql.binary(user.resealed)}
    WHERE merchant_id = ${user.merchantId} AND id = ${user.id}
      AND two_factor_secret_ciphertext = ${sql.binary(user.read)}`);
  return result.rowCount === 1;
}
