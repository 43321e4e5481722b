import { type Queryable, sql } from "../../platform/db/pool.ts";
import type { CashierRole } from "../../platform/tenant.ts";
import { type CashierRow, cashierRowSchema, PIN_ATTEMPTS_MAX } from "./schemas.ts";

const COLUMNS = sql.fragment`merchant_id, id, name, role, pin_hash, failed_pin_attempts, locked_at, disabled_at, created_at`;

/** The cashier, while neither locked nor disabled. */
const usable = (merchantId: string, id: string) =>
  sql.fragment`merchant_id = ${merchantId} AND id = ${id} AND locked_at IS NULL AND disabled_at IS NULL`;

/** The unique index that keeps a shop's cashier names apart (case and outer spaces aside). */
export const NAME_CONSTRAINT = "cashiers_name_unique";

export async function insertCashier(
  database: Queryable,
  cashier: { merchantId: string; id: string; name: string; role: CashierRole; pinHash: string },
): Promise<CashierRow> {
  return database.one(sql.type(cashierRowSchema)`
    INSERT INTO cashiers (merchant_id, id, name, role, pin_hash)
    VALUES (${cashier.merchantId}, ${cashier.id}, ${cashier.name}, ${cashier.role}, ${cashier.pinHash})
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

/**
 * Takes one PIN attempt's slot before the PIN is checked: an atomic increment that only an unlocked,
 * enabled cashier with attempts left gets, so a burst of guesses sent at once gets at most
 * `PIN_ATTEMPTS_MAX` checks (the row lock orders them). Null: no slot (locked, disabled, spent or unknown).
 */
export async function takePinAttempt(database: Queryable, merchantId: string, id: string): Promise<CashierRow | null> {
  return database.maybeOne(sql.type(cashierRowSchema)`
    UPDATE cashiers SET failed_pin_attempts = failed_pin_attempts + 1
    WHERE ${usable(merchantId, id)}
      AND failed_pin_attempts < ${PIN_ATTEMPTS_MAX}
    RETURNING ${COLUMNS}`);
}

/** A wrong PIN keeps its slot; when the slots are spent the cashier is locked until the owner unlocks. */
export async function lockWhenSpent(database: Queryable, merchantId: string, id: string): Promise<boolean> {
  const locked = await database.maybeOne(sql.type(cashierRowSchema)`
    UPDATE cashiers SET locked_at = coalesce(locked_at, now())
    WHERE merchant_id = ${merchantId} AND id = ${id} AND failed_pin_attempts >= ${PIN_ATTEMPTS_MAX}
    RETURNING ${COLUMNS}`);
  return locked !== null;
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
    WHERE ${usable(merchantId, id)}
    RETURNING ${COLUMNS}`);
}

/** A new PIN (the cashier's own change): only while they are neither locked nor disabled. */
export async function updatePin(
  database: Queryable,
  merchantId: string,
  id: string,
  pinHash: string,
): Promise<CashierRow | null> {
  return database.maybeOne(sql.type(cashierRowSchema)`
    UPDATE cashiers SET pin_hash = ${pinHash}, failed_pin_attempts = 0
    WHERE ${usable(merchantId, id)}
    RETURNING ${COLUMNS}`);
}

export async function updateCashier(
  database: Queryable,
  merchantId: string,
  id: string,
  change: { name: string | undefined; role: CashierRole | undefined },
): Promise<CashierRow | null> {
  return database.maybeOne(sql.type(cashierRowSchema)`
    UPDATE cashiers SET name = coalesce(${change.name ?? null}, name), role = coalesce(${change.role ?? null}, role)
    WHERE merchant_id = ${merchantId} AND id = ${id}
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
