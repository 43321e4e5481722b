import { z } from "zod";
import { type Queryable, sql } from "../../platform/db/pool.ts";

export const deviceRowSchema = z.object({
  merchant_id: z.string(),
  id: z.string(),
  name: z.string(),
  user_id: z.string(),
  created_at: z.date(),
  last_used_at: z.date().nullable(),
  revoked_at: z.date().nullable(),
});
export type DeviceRow = z.infer<typeof deviceRowSchema>;

const COLUMNS = sql.fragment`merchant_id, id, name, user_id, created_at, last_used_at, revoked_at`;

export async function insertDevice(
  database: Queryable,
  device: { merchantId: string; id: string; name: string; userId: string; tokenHash: Buffer },
): Promise<DeviceRow> {
  return database.one(sql.type(deviceRowSchema)`
    INSERT INTO till_devices (merchant_id, id, name, user_id, token_hash)
    VALUES (${device.merchantId}, ${device.id}, ${device.name}, ${device.userId}, ${sql.binary(device.tokenHash)})
    RETURNING ${COLUMNS}`);
}

/** The live device a token names, marked used. */
export async function useDevice(database: Queryable, tokenHash: Buffer): Promise<DeviceRow | null> {
  return database.maybeOne(sql.type(deviceRowSchema)`
    UPDATE till_devices SET last_used_at = now()
    WHERE token_hash = ${sql.binary(tokenHash)} AND revoked_at IS NULL
    RETURNING ${COLUMNS}`);
}

export async function selectDevices(database: Queryable, merchantId: string): Promise<readonly DeviceRow[]> {
  return database.any(sql.type(deviceRowSchema)`
    SELECT ${COLUMNS} FROM till_devices WHERE merchant_id = ${merchantId} ORDER BY created_at, id`);
}

/** Revokes the device and every session it opened (the session lookup also refuses them). */
export async function revokeDevice(database: Queryable, merchantId: string, id: string): Promise<DeviceRow | null> {
  const device = await database.maybeOne(sql.type(deviceRowSchema)`
    UPDATE till_devices SET revoked_at = coalesce(revoked_at, now())
    WHERE merchant_id = ${merchantId} AND id = ${id}
    RETURNING ${COLUMNS}`);
  if (device !== null) {
    await database.query(sql.unsafe`
      UPDATE sessions SET revoked_at = now()
      WHERE merchant_id = ${merchantId} AND device_id = ${id} AND revoked_at IS NULL`);
  }
  return device;
}

/** Unpairs every paired device of the merchant and ends their sessions; how many devices it unpaired. */
export async function revokeAllDevices(database: Queryable, merchantId: string): Promise<number> {
  const rows = await database.any(sql.type(z.object({ id: z.string() }))`
    UPDATE till_devices SET revoked_at = now()
    WHERE merchant_id = ${merchantId} AND revoked_at IS NULL
    RETURNING id`);
  const unpaired = rows.map((row) => row.id);
  if (unpaired.length > 0) {
    await database.query(sql.unsafe`
      UPDATE sessions SET revoked_at = now()
      WHERE merchant_id = ${merchantId} AND device_id = ANY(${sql.array(unpaired, "text")}) AND revoked_at IS NULL`);
  }
  return unpaired.length;
}
