import { UniqueIntegrityConstraintViolationError } from "slonik";
import type { Database, Queryable } from "../../platform/db/pool.ts";
import { conflict, forbidden, notFound, unauthenticated } from "../../platform/errors.ts";
import { newId } from "../../platform/ids.ts";
import type { CashierRole, Tenant } from "../../platform/tenant.ts";
import { hashPassword, verifyPassword } from "../merchants/index.ts";
import { setSessionCashier, tillSessionOf } from "../sessions/index.ts";
import * as queries from "./queries.ts";
import { type CashierRow, PIN_ATTEMPTS_MAX } from "./schemas.ts";

/**
 * Cashiers: people who work a till the owner signed in (a till session), each switching in with a PIN.
 *
 * Invariants (tested in `cashiers.test.ts`):
 * - only the owner's dashboard session creates, disables and unlocks cashiers (the routes' access); the PIN is stored as a
 *   scrypt hash and never answered;
 * - switching in needs a till session and the right PIN; requests of the session then act as the
 *   cashier (`actor: {type: "till_user", id: "csh_…"}` on sales, returns and shifts);
 * - every PIN attempt is counted before its check, atomically; the `PIN_ATTEMPTS_MAX`th wrong one in a
 *   row locks the cashier (no PIN is even checked while locked or with the attempts spent) until the
 *   owner unlocks; a right PIN resets the count; a burst of guesses gets at most the limit's checks;
 * - roles: `cashier` (default) or `manager`; a manager's PIN approves one restricted request at a till
 *   (approvals.ts); a cashier switched in changes their own PIN with the current one;
 * - a disabled cashier cannot switch in, and a session it was switched in on stops acting as it at
 *   its next request (the session lookup ignores disabled cashiers).
 *
 * Error codes: `principal_not_allowed` (the routes' access), `cashier_locked`,
 * `cashier_disabled`, `cashier_required`, `not_a_manager`, `manager_required` (403), `invalid_pin` (401),
 * `resource_missing` (404), `cashier_name_taken` (409: a shop's cashier names differ, case and outer
 * spaces aside).
 */

export async function createCashier(
  database: Database,
  tenant: Tenant,
  input: { name: string; pin: string; role: CashierRole },
): Promise<CashierRow> {
  const pinHash = await hashPassword(input.pin);
  try {
    return await queries.insertCashier(database, {
      merchantId: tenant.merchantId,
      id: newId("csh"),
      name: input.name.trim(),
      role: input.role,
      pinHash,
    });
  } catch (error) {
    throw nameTakenOr(error, input.name);
  }
}

export async function listCashiers(database: Queryable, tenant: Tenant): Promise<readonly CashierRow[]> {
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
  return found(await queries.disableCashier(database, tenant.merchantId, id), id);
}

/** The owner renames a cashier or changes their role (a manager's PIN approves restricted requests). */
export async function updateCashier(
  database: Queryable,
  tenant: Tenant,
  id: string,
  change: { name?: string | undefined; role?: CashierRole | undefined },
): Promise<CashierRow> {
  try {
    return found(
      await queries.updateCashier(database, tenant.merchantId, id, { name: change.name?.trim(), role: change.role }),
      id,
    );
  } catch (error) {
    throw nameTakenOr(error, change.name ?? "");
  }
}

/** The unique index decides a name's owner (two owners adding the same name at once cannot both win). */
function nameTakenOr(error: unknown, name: string): unknown {
  if (error instanceof UniqueIntegrityConstraintViolationError && error.constraint === queries.NAME_CONSTRAINT) {
    return conflict("cashier_name_taken", `A cashier named ${name.trim()} already exists: use another name.`);
  }
  return error;
}

export async function unlockCashier(database: Queryable, tenant: Tenant, id: string): Promise<CashierRow> {
  return found(await queries.unlockCashier(database, tenant.merchantId, id), id);
}

/**
 * Checks a cashier's PIN under the attempt limit: the attempt is counted before the PIN is checked
 * (`queries.takePinAttempt`), so concurrent guesses cannot all be checked before any is counted; a
 * right PIN resets the count, the wrong one that spends the last attempt locks the cashier.
 */
export async function checkPin(
  database: Queryable,
  merchantId: string,
  cashierId: string,
  pin: string,
): Promise<CashierRow> {
  const taken = await queries.takePinAttempt(database, merchantId, cashierId);
  if (taken === null) {
    const cashier = found(await queries.selectCashier(database, merchantId, cashierId), cashierId);
    if (cashier.disabled_at !== null) {
      throw forbidden("cashier_disabled", `${cashier.name} is disabled.`);
    }
    throw lockedError(cashier);
  }
  const { matches, upgradedHash } = await verifyPassword(pin, taken.pin_hash);
  if (!matches) {
    // The wrong PIN that took the last slot locks: exactly the slots before it are warned.
    if (
      taken.failed_pin_attempts >= PIN_ATTEMPTS_MAX &&
      (await queries.lockWhenSpent(database, merchantId, taken.id))
    ) {
      throw lockedError(taken);
    }
    throw unauthenticated(
      "invalid_pin",
      `Wrong PIN: ${Math.max(0, PIN_ATTEMPTS_MAX - taken.failed_pin_attempts)} more wrong PINs lock ${taken.name}.`,
    );
  }
  const checked = await queries.recordRightPin(database, merchantId, taken.id, upgradedHash);
  if (checked === null) {
    throw lockedError(taken);
  }
  return checked;
}

/** Switches a cashier in on the till session by PIN, counting wrong PINs towards the lock. */
export async function switchCashier(
  database: Database,
  tenant: Tenant,
  input: { cashier_id: string; pin: string },
): Promise<CashierRow> {
  tillSessionOf(tenant);
  const switched = await checkPin(database, tenant.merchantId, input.cashier_id, input.pin);
  await setSessionCashier(database, tenant, switched.id);
  return switched;
}

/** The cashier switched in changes their own PIN: the current one is checked (and counted) first. */
export async function changeOwnPin(
  database: Database,
  tenant: Tenant,
  input: { current_pin: string; new_pin: string },
): Promise<CashierRow> {
  tillSessionOf(tenant);
  const cashier = tenant.session?.cashier ?? null;
  if (cashier === null) {
    throw forbidden("cashier_required", "Switch a cashier in with their PIN first: a cashier changes their own PIN.");
  }
  await checkPin(database, tenant.merchantId, cashier.id, input.current_pin);
  const changed = await queries.updatePin(database, tenant.merchantId, cashier.id, await hashPassword(input.new_pin));
  if (changed === null) {
    throw forbidden("cashier_locked", "This cashier was locked or disabled meanwhile.");
  }
  return changed;
}

const lockedError = (cashier: CashierRow) =>
  forbidden("cashier_locked", `${cashier.name} is locked after ${PIN_ATTEMPTS_MAX} wrong PINs: the owner must unlock.`);

/** Nobody switched in: the till shows the PIN screen (the session acts as the owner's till user again). */
export async function switchOut(database: Queryable, tenant: Tenant): Promise<void> {
  await setSessionCashier(database, tenant, null);
}
