import { z } from "zod";
import { type Database, sql } from "../../src/platform/db/pool.ts";

/**
 * Reading money back in tests: balances per ledger account, the events about an object, the ledger
 * transactions an object caused. Assertions are on these outcomes, never on which functions ran.
 */

const balanceRow = z.object({ account: z.string(), currency: z.string(), balance_cents: z.number() });

/** Every account's balance in a world: `{merchant_available: {USD: 1000}, payouts_in_transit: {…}}`. */
export async function accountBalances(
  database: Database,
  merchantId: string,
  livemode: boolean,
): Promise<Record<string, Record<string, number>>> {
  const rows = await database.any(sql.type(balanceRow)`
    SELECT account, currency, balance_cents FROM ledger_balances
    WHERE merchant_id = ${merchantId} AND livemode = ${livemode}`);
  const balances: Record<string, Record<string, number>> = {};
  for (const row of rows) {
    balances[row.account] = { ...balances[row.account], [row.currency]: row.balance_cents };
  }
  return balances;
}

/** The merchant's available balance in one currency (0 before any posting). */
export async function available(
  database: Database,
  merchantId: string,
  livemode: boolean,
  currency: "USD" | "ZWG" = "USD",
): Promise<number> {
  return (await accountBalances(database, merchantId, livemode)).merchant_available?.[currency] ?? 0;
}

const eventRow = z.object({ type: z.string(), livemode: z.boolean(), data: z.record(z.string(), z.unknown()) });

/** Events whose data field `field` equals `value`, oldest first. */
export async function eventsAbout(database: Database, field: string, value: string) {
  return database.any(sql.type(eventRow)`
    SELECT type, livemode, data FROM events WHERE data->>${field} = ${value} ORDER BY seq`);
}

const transactionRow = z.object({
  id: z.string(),
  posting_key: z.string(),
  reverses_transaction_id: z.string().nullable(),
});

/** The ledger transactions an object caused (its source), in order. */
export async function ledgerTransactionsOf(database: Database, sourceId: string) {
  return database.any(sql.type(transactionRow)`
    SELECT id, posting_key, reverses_transaction_id FROM ledger_transactions
    WHERE source_id = ${sourceId} ORDER BY created_at, posting_key`);
}

const postingRow = z.object({
  account: z.string(),
  entry_type: z.string(),
  currency: z.string(),
  amount_cents: z.number(),
});

/** The postings of an object's ledger transactions, each transaction checked to sum to zero. */
export async function postingsOf(database: Database, sourceId: string) {
  const postings = await database.any(sql.type(postingRow.extend({ transaction_id: z.string() }))`
    SELECT p.transaction_id, p.account, p.entry_type, p.currency, p.amount_cents
    FROM ledger_postings p JOIN ledger_transactions t ON t.merchant_id = p.merchant_id AND t.id = p.transaction_id
    WHERE t.source_id = ${sourceId} ORDER BY p.seq`);
  const sums = new Map<string, number>();
  for (const posting of postings) {
    sums.set(posting.transaction_id, (sums.get(posting.transaction_id) ?? 0) + posting.amount_cents);
  }
  if ([...sums.values()].some((sum) => sum !== 0)) {
    throw new Error(`unbalanced ledger transactions for ${sourceId}`);
  }
  return postings.map(({ transaction_id: _transactionId, ...posting }) => posting);
}

/** Waits until `probe` returns true, polling every 50 ms, for at most `timeoutMs`. */
export async function eventually(probe: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) {
      throw new Error("condition not met in time");
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

const jobRow = z.object({ task_identifier: z.string(), payload: z.unknown(), run_at: z.date() });

/** The queued graphile-worker jobs with this job key (at most one, unless one is running). */
export async function jobsWithKey(database: Database, key: string) {
  return database.any(sql.type(jobRow)`
    SELECT t.identifier AS task_identifier, j.payload, j.run_at
    FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id
    WHERE j.key = ${key}`);
}

/** The queued graphile-worker jobs of a task (ids and payloads). */
export async function jobsOfTask(database: Database, task: string) {
  return database.any(sql.type(z.object({ id: z.coerce.string(), payload: z.unknown() }))`
    SELECT j.id, j.payload
    FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id
    WHERE t.identifier = ${task}
    ORDER BY j.id`);
}
