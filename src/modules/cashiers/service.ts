import { UniqueIntegrityConstraintViolationError } from "slonik";
import type { Database, Queryable } from "../../platform/db/pool.ts";
import { conflict, forbidden, notFound, unauthenticated } from "../../platform/errors.ts";
import { newId } from "../../platform/ids.ts";
import type { Tenant } from "../../platform/tenant.ts";
import { hashPassword, verifyPassword } from "../merchants/passwords.ts";
import { requireDashboardSession, setSessionCashier, tillSessionOf } from "../sessions/index.ts";
import * as queries from "./queries.ts";
import { type CashierRow, PIN_ATTEMPTS_MAX } from "./schemas.ts";

/**
 * Cashiers: people who work a till the owner signed in (a till session), each switching in with a PIN.
 *
 * Invariants (tested in `cashiers.test.ts`):
 * - only the owner's dashboard session creates, disables and unlocks cashiers; the PIN is stored as a
 *   scrypt hash and never answered;
 * - switching in needs a till session and the right PIN; requests of the session then act as the
 *   cashier (`actor: {type: "till_user", id: "csh_…"}` on sales, returns and shifts);
 * - wrong PINs are counted atomically; the `PIN_ATTEMPTS_MAX`th in a row locks the cashier (no PIN is
 *   even checked while locked) until the owner unlocks; a right PIN resets the count;
 * - a disabled cashier cannot switch in, and a session it was switched in on stops acting as it at
 *   its next request (the session lookup ignores disabled cashiers).
 *
 * Error codes: `dashboard_session_required`, `till_session_required`, `cashier_locked`,
 * `cashier_disabled` (403), `invalid_pin` (401), `resource_missing` (404), `cashier_name_taken` (409:
 * a shop's cashier names differ, case and outer spaces aside).
 */

export async function createCashier(
  database: Database,
  tenant: Tenant,
  input: { name: string; pin: string },
): Promise<CashierRow> {
  requireDashboardSession(tenant);
  const pinHash = await hashPassword(input.pin);
  try {
    return await queries.insertCashier(database, {
      merchantId: tenant.merchantId,
      id: newId("csh"),
      name: input.name.trim(),
      pinHash,
    });
  } catch (error) {
    // The index decides (two owners adding the same name at once cannot both win).
    if (error instanceof UniqueIntegrityConstraintViolationError && error.constraint === queries.NAME_CONSTRAINT) {
      throw conflict("cashier_name_taken", `A cashier named ${input.name.trim()} already exists: use another name.`);
    }
    throw error;
  }
}

export async function listCashiers(database: Queryable, tenant: Tenant): Promise<readonly CashierRow[]> {
  if (tenant.sessionKind === undefined) {
    throw forbidden("session_required", "Cashiers are listed to a signed-in dashboard or till only.");
  }
  return queries.selectCashiers(database, tenant.merchantId);
}

const missing = (id: string) => notFound(`No such cashier: ${id}.`);

function found(cashier: CashierRow | null, id: string): CashierRow {
  if (cashier === null) {
    throw missing(id);
  }
  return cashier;
}

export async function disableCashier(database: Queryable, tenant: Tenant, id: string): Promise<CashierRow> {
  requireDashboardSession(tenant);
  return found(await queries.disableCashier(database, tenant.merchantId, id), id);
}

export async function unlockCashier(database: Queryable, tenant: Tenant, id: string): Promise<CashierRow> {
  requireDashboardSession(tenant);
  return found(await queries.unlockCashier(database, tenant.merchantId, id), id);
}

/** Switches a cashier in on the till session by PIN, counting wrong PINs towards the lock. */
export async function switchCashier(
  database: Database,
  tenant: Tenant,
  input: { cashier_id: string; pin: string },
): Promise<CashierRow> {
  tillSessionOf(tenant);
  const cashier = found(await queries.selectCashier(database, tenant.merchantId, input.cashier_id), input.cashier_id);
  if (cashier.disabled_at !== null) {
    throw forbidden("cashier_disabled", `${cashier.name} is disabled.`);
  }
  if (cashier.locked_at !== null) {
    throw lockedError(cashier);
  }
  const { matches, upgradedHash } = await verifyPassword(input.pin, cashier.pin_hash);
  if (!matches) {
    const counted = await queries.recordWrongPin(database, tenant.merchantId, cashier.id);
    if (counted.locked_at !== null) {
      throw lockedError(counted);
    }
    throw unauthenticated(
      "invalid_pin",
      `Wrong PIN: ${PIN_ATTEMPTS_MAX - counted.failed_pin_attempts} more wrong PINs lock ${cashier.name}.`,
    );
  }
  const switched = await queries.recordRightPin(database, tenant.merchantId, cashier.id, upgradedHash);
  if (switched === null) {
    throw lockedError(cashier);
  }
  await setSessionCashier(database, tenant, switched.id);
  return switched;
}

const lockedError = (cashier: CashierRow) =>
  forbidden("cashier_locked", `${cashier.name} is locked after ${PIN_ATTEMPTS_MAX} wrong PINs: the owner must unlock.`);

/** Nobody switched in: the till shows the PIN screen (the session acts as the owner's till user again). */
export async function switchOut(database: Queryable, tenant: Tenant): Promise<void> {
  await setSessionCashier(database, tenant, null);
}
