import type { FragmentSqlToken } from "slonik";
import { z } from "zod";
import { claimInDueOrder } from "./due-order.ts";
import { type Database, type Queryable, sql } from "./pool.ts";

/**
 * A table whose pending rows are polled and expired by pumps (payments, withdrawal codes): rows
 * keyed `(merchant_id, id)` with `status`, `expires_at`, the inquiry throttle (`last_inquiry_at`,
 * `inquiry_count`), the poll schedule's state (`next_poll_at`, `poll_count`), the expiry's backoff
 * (`expiry_retry_at`, `expiry_attempts`) and `traceparent`, with partial indexes on `next_poll_at`
 * and `expires_at` `WHERE status = 'pending'` (docs/performance.md).
 */
export type DueTable<Row extends z.ZodRawShape> = {
  table: "payments" | "withdrawal_codes";
  /** The columns a claim returns, each qualified `p.` (the bare names are ambiguous in an UPDATE … FROM). */
  columnsOfP: FragmentSqlToken;
  /** The schema of those columns. */
  row: z.ZodObject<Row>;
};

/** A row a pump claimed, with the trace of the request that created it and whether it may ask the gateway now. */
export type Claimed<Row extends z.ZodRawShape> = z.infer<z.ZodObject<Row>> & {
  id: string;
  traceparent: string | null;
  inquire: boolean;
};

const withClaimColumns = <Row extends z.ZodRawShape>(row: z.ZodObject<Row>) =>
  row.extend({ traceparent: z.string().nullable(), inquire: z.boolean() });
/**
 * Made once per table: zod compiles an object schema on its first parse, which per claim was a
 * measurable part of the gateway-poller's CPU.
 */
const claimedSchemas = new WeakMap<z.ZodObject, z.ZodObject>();
function claimedSchemaOf<Row extends z.ZodRawShape>(due: DueTable<Row>): ReturnType<typeof withClaimColumns<Row>> {
  let schema = claimedSchemas.get(due.row);
  if (schema === undefined) {
    schema = withClaimColumns(due.row);
    claimedSchemas.set(due.row, schema);
  }
  return schema as ReturnType<typeof withClaimColumns<Row>>;
}

/**
 * Claims up to `limit` pending rows whose poll is due, oldest due first, and moves each one's next
 * poll to the schedule's next delay (`scheduleMs[poll_count + 1]`, the last delay repeating; none
 * once it would fall after `expires_at`). The inquiry throttle is taken in the same statement
 * (`inquire`: one round trip less per poll). Rows another replica is claiming are skipped
 * (`SKIP LOCKED`), and a claimed row's next poll is already in the future when its claim commits:
 * two replicas never claim the same poll. Moving the time at the claim is also the lease: a poller
 * that dies mid-inquiry leaves the row to its next scheduled poll.
 */
export async function claimDuePolls<Row extends z.ZodRawShape>(
  database: Database,
  due: DueTable<Row>,
  options: { limit: number; scheduleMs: readonly number[]; inquiryMinIntervalMs: number },
): Promise<readonly Claimed<Row>[]> {
  const table = sql.identifier([due.table]);
  const rows = await claimInDueOrder(database, (transaction) =>
    transaction.any(sql.prepared(`${due.table}_claim_due_polls`, claimedSchemaOf(due))`
    WITH due AS (
      SELECT merchant_id, id, (last_inquiry_at IS NULL
          OR last_inquiry_at <= now() - ${options.inquiryMinIntervalMs} * interval '1 millisecond') AS inquire
      FROM ${table}
      WHERE status = 'pending' AND next_poll_at <= now()
      ORDER BY next_poll_at
      LIMIT ${options.limit}
      FOR UPDATE SKIP LOCKED),
    schedule AS (SELECT ${sql.array(options.scheduleMs as number[], "int4")} AS delays_ms)
    UPDATE ${table} p
    SET poll_count = p.poll_count + 1,
      last_inquiry_at = CASE WHEN due.inquire THEN now() ELSE p.last_inquiry_at END,
      inquiry_count = p.inquiry_count + CASE WHEN due.inquire THEN 1 ELSE 0 END,
      next_poll_at = (SELECT CASE WHEN next_at < p.expires_at THEN next_at END
        FROM (SELECT now() + delays_ms[least(p.poll_count + 2, cardinality(delays_ms))] * interval '1 millisecond'
          AS next_at FROM schedule) AS next)
    FROM due
    WHERE p.merchant_id = due.merchant_id AND p.id = due.id
    RETURNING ${due.columnsOfP}, p.traceparent, due.inquire`),
  );
  return rows as readonly Claimed<Row>[];
}

/**
 * Claims up to `limit` pending rows whose `expires_at` has passed (and whose last failed expiry has
 * waited its backoff), oldest first, skipping rows another replica is claiming. The claim sets the
 * time before which the row is not claimed again: its lease while the last inquiry runs, and its
 * backoff when the inquiry cannot decide (`retryMs` doubled per attempt, at most `retryMaxMs`). The
 * last inquiry is not throttled: the claim records it (`inquire` is always true).
 */
export async function claimDueExpiries<Row extends z.ZodRawShape>(
  database: Database,
  due: DueTable<Row>,
  options: { limit: number; retryMs: number; retryMaxMs: number },
): Promise<readonly Claimed<Row>[]> {
  const table = sql.identifier([due.table]);
  const rows = await claimInDueOrder(database, (transaction) =>
    transaction.any(sql.prepared(`${due.table}_claim_due_expiries`, claimedSchemaOf(due))`
    WITH due AS (
      SELECT merchant_id, id FROM ${table}
      WHERE status = 'pending' AND expires_at <= now() AND (expiry_retry_at IS NULL OR expiry_retry_at <= now())
      ORDER BY expires_at
      LIMIT ${options.limit}
      FOR UPDATE SKIP LOCKED)
    UPDATE ${table} p
    SET expiry_attempts = p.expiry_attempts + 1, last_inquiry_at = now(), inquiry_count = p.inquiry_count + 1,
      expiry_retry_at = now() + least(${options.retryMaxMs}::float8,
        ${options.retryMs}::float8 * power(2, least(p.expiry_attempts, 30))) * interval '1 millisecond'
    FROM due
    WHERE p.merchant_id = due.merchant_id AND p.id = due.id
    RETURNING ${due.columnsOfP}, p.traceparent, true AS inquire`),
  );
  return rows as readonly Claimed<Row>[];
}

/**
 * How many pending rows are due for a poll or an expiry now, and how long the oldest has waited: the
 * backlog of the pump that claims them (read through the due index's range).
 */
export async function dueBacklog(
  database: Queryable,
  table: DueTable<z.ZodRawShape>["table"],
  kind: "poll" | "expiry",
): Promise<{ runnableJobs: number; oldestRunnableAgeSeconds: number }> {
  const rows = sql.identifier([table]);
  const dueAt = kind === "poll" ? sql.fragment`next_poll_at` : sql.fragment`greatest(expires_at, expiry_retry_at)`;
  const due =
    kind === "poll"
      ? sql.fragment`next_poll_at <= now()`
      : sql.fragment`expires_at <= now() AND (expiry_retry_at IS NULL OR expiry_retry_at <= now())`;
  return database.one(sql.type(z.object({ runnableJobs: z.number().int(), oldestRunnableAgeSeconds: z.number() }))`
    SELECT count(*)::int AS "runnableJobs",
      coalesce(extract(epoch FROM now() - min(${dueAt})), 0)::float8 AS "oldestRunnableAgeSeconds"
    FROM ${rows} WHERE status = 'pending' AND ${due}`);
}
