import { type Queryable, sql } from "../../platform/db/pool.ts";
import { type CashierRow, cashierRowSchema, PIN_ATTEMPTS_MAX } from "./schemas.ts";

const COLUMNS = sql.fragment`merchant_id, id, name, pin_hash, failed_pin_attempts, locked_at, disabled_at, created_at`;

/** The unique index that keeps a shop's cashier names apart (case and outer spaces aside). */
export const NAME_CONSTRAINT = "cashiers_name_unique";

export async function insertCashier(
  database: Queryable,
  cashier: { merchantId: string; id: string; name: string; pinHash: string },
): Promise<CashierRow> {
  return database.one(sql.type(cashierRowSchema)`
    INSERT INTO cashiers (merchant_id, id, name, pin_hash)
    VALUES (${cashier.merchantId}, ${cashier.id}, ${cashier.name}, ${cashier.pinHash})
    RETURNING ${COLUMNS}`);
}

export async function selectCashier(database: Queryable, merchantId: string, id: string): Promise<CashierRow | null> {
  return database.maybeOne(sql.type(cashierRowSchema)`
    SELECT ${COLUMNS} FROM cashiers WHERE merchant_id = ${merchantId} AND id = ${id}`);
}

export async function selectCashiers(database: Queryable, merchantId: string): Promise<readonly CashierRow[]> {
  return database.any(sql.type(cashierRowSchema)`
    SELECT ${COLUMNS} FROM cashiers WHERE merchant_id = ${merchantId} ORDER BY created_at, id`);
}

/** One more wrong PIN, counted atomically; the attempt that reaches the limit locks the cashier. */
export async function recordWrongPin(database: Queryable, merchantId: string, id: string): Promise<CashierRow> {
  return database.one(sql.type(cashierRowSchema)`
    UPDATE cashiers SET failed_pin_attempts = failed_pin_attempts + 1,
      locked_at = coalesce(locked_at, CASE WHEN failed_pin_attempts + 1 >= ${PIN_ATTEMPTS_MAX} THEN now() END)
    WHERE merchant_id = ${merchantId} AND id = ${id}
    RETURNING ${COLUMNS}`);
}

/**
 * A right PIN clears the count, unless the cashier was locked or disabled meanwhile (then null), and
 * stores the PIN's upgraded hash when its stored one was made with older parameters.
 */
export async function recordRightPin(
  database: Queryable,
  merchantId: string,
  id: string,
  upgradedPinHash: string | null,
): Promise<CashierRow | null> {
  return database.maybeOne(sql.type(cashierRowSchema)`
    UPDATE cashiers SET failed_pin_attempts = 0, pin_hash = coalesce(${upgradedPinHash}, pin_hash)
    WHERE merchant_id = ${merchantId} AND id = ${id} AND locked_at IS NULL AND disabled_at IS NULL
    RETURNING ${COLUMNS}`);
}

export async function unlockCashier(database: Queryable, merchantId: string, id: string): Promise<CashierRow | null> {
  return database.maybeOne(sql.type(cashierRowSchema)`
    UPDATE cashiers SET failed_pin_attempts = 0, locked_at = NULL
    WHERE merchant_id = ${merchantId} AND id = ${id}
    RETURNING ${COLUMNS}`);
}

export async function disableCashier(database: Queryable, merchantId: string, id: string): Promise<CashierRow | null> {
  return database.maybeOne(sql.type(cashierRowSchema)`
    UPDATE cashiers SET disabled_at = coalesce(disabled_at, now())
    WHERE merchant_id = ${merchantId} AND id = ${id}
    RETURNING ${COLUMNS}`);
}
