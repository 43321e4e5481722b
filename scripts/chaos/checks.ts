import type pg from "pg";

/**
 * What must hold after the run, read from the database itself: money, payments, payouts and events.
 * Each check answers a line of the report; `ok: false` fails the run.
 */

export type Check = { name: string; ok: boolean; detail: string };

const count = async (pool: pg.Pool, text: string, values: unknown[] = []) =>
  Number((await pool.query<{ n: string }>(text, values)).rows[0]?.n ?? 0);

/** Every paid payment has exactly one settlement transaction; a payment not paid has none. */
export async function paymentsSettledOnce(pool: pg.Pool, paymentIds: readonly string[]): Promise<Check> {
  const { rows } = await pool.query<{ status: string; transactions: number; n: string }>(
    `SELECT p.status, t.transactions, count(*) AS n
     FROM payments p
     CROSS JOIN LATERAL (SELECT count(*)::int AS transactions FROM ledger_transactions t
                         WHERE t.source_type = 'payment' AND t.source_id = p.id) t
     WHERE p.id = ANY($1::text[])
     GROUP BY 1, 2 ORDER BY 1, 2`,
    [paymentIds],
  );
  const wrong = rows.filter((row) => (row.status === "paid" ? row.transactions !== 1 : row.transactions !== 0));
  const paid = rows.filter((row) => row.status === "paid").reduce((sum, row) => sum + Number(row.n), 0);
  return {
    name: "every paid payment settled exactly once",
    ok: wrong.length === 0 && paid > 0,
    detail:
      `${paid} of ${paymentIds.length} payments paid` +
      (wrong.length === 0
        ? ", each with one settlement"
        : `; wrong: ${wrong.map((row) => `${row.n} ${row.status} with ${row.transactions} settlements`).join(", ")}`),
  };
}

/** Every ledger transaction sums to zero per currency, and each balance equals its postings' sum. */
export async function ledgerBalanced(pool: pg.Pool): Promise<Check> {
  const unbalanced = await count(
    pool,
    `SELECT count(*) AS n FROM (SELECT 1 FROM ledger_postings GROUP BY transaction_id, currency
                                HAVING sum(amount_cents) <> 0) unbalanced`,
  );
  const drifted = await count(
    pool,
    `SELECT count(*) AS n FROM ledger_balances b
     WHERE b.balance_cents <> (SELECT coalesce(sum(p.amount_cents), 0) FROM ledger_postings p
                               WHERE p.merchant_id = b.merchant_id AND p.livemode = b.livemode
                                 AND p.account = b.account AND p.currency = b.currency)`,
  );
  const transactions = await count(pool, "SELECT count(*) AS n FROM ledger_transactions");
  return {
    name: "the ledger is balanced",
    ok: unbalanced === 0 && drifted === 0,
    detail: `${transactions} transactions, ${unbalanced} unbalanced, ${drifted} balances differing from their postings`,
  };
}

/** No payout was executed twice: one request debit each, at most one confirmation and one outcome event. */
export async function payoutsOnce(pool: pg.Pool, payoutIds: readonly string[]): Promise<Check> {
  const doubled = await count(
    pool,
    `SELECT count(*) AS n FROM (SELECT 1 FROM ledger_transactions WHERE source_type = 'payout'
                                GROUP BY source_id, posting_key HAVING count(*) > 1) doubled`,
  );
  const doubleEvents = await count(
    pool,
    `SELECT count(*) AS n FROM (SELECT 1 FROM events WHERE type IN ('payout.confirmed', 'payout.failed')
                                GROUP BY data->>'payout_id' HAVING count(*) > 1) doubled`,
  );
  const { rows } = await pool.query<{ status: string; n: string }>(
    "SELECT status, count(*) AS n FROM payouts WHERE id = ANY($1::text[]) GROUP BY 1 ORDER BY 1",
    [payoutIds],
  );
  const unfinished = rows
    .filter((row) => row.status !== "confirmed" && row.status !== "failed")
    .reduce((sum, row) => sum + Number(row.n), 0);
  return {
    name: "no payout executed twice (and every payout finished)",
    ok: doubled === 0 && doubleEvents === 0 && unfinished === 0 && payoutIds.length > 0,
    detail: `${payoutIds.length} payouts (${rows.map((row) => `${row.n} ${row.status}`).join(", ")}); ${doubled} doubled ledger postings, ${doubleEvents} doubled outcome events`,
  };
}

/** No payment is still pending past its expiry (with a grace for the expiry job's own schedule). */
export async function noPaymentPastDeadline(pool: pg.Pool, graceSeconds: number): Promise<Check> {
  const stuck = await count(
    pool,
    `SELECT count(*) AS n FROM payments WHERE status = 'pending'
     AND expires_at < now() - make_interval(secs => $1)`,
    [graceSeconds],
  );
  return {
    name: "no payment stuck past its deadline",
    ok: stuck === 0,
    detail: `${stuck} pending more than ${graceSeconds} s past expires_at`,
  };
}

/** The events the webhook endpoints subscribe to, which must each arrive at least once, signed. */
export async function subscribedEventIds(pool: pg.Pool, types: readonly string[]): Promise<string[]> {
  const { rows } = await pool.query<{ id: string }>("SELECT id FROM events WHERE type = ANY($1::text[])", [types]);
  return rows.map((row) => row.id);
}

/** Jobs of the given tasks that are due and unlocked, and how long the oldest has waited. */
export async function dueJobs(
  pool: pg.Pool,
  taskIdentifiers: readonly string[],
): Promise<{ count: number; oldestSeconds: number }> {
  const { rows } = await pool.query<{ n: number; oldest: number }>(
    `SELECT count(*)::int AS n, coalesce(extract(epoch FROM now() - min(j.run_at)), 0)::float8 AS oldest
     FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id
     WHERE t.identifier = ANY($1::text[]) AND j.locked_at IS NULL AND j.run_at <= now()
       AND j.attempts < j.max_attempts`,
    [taskIdentifiers],
  );
  return { count: rows[0]?.n ?? 0, oldestSeconds: rows[0]?.oldest ?? 0 };
}
