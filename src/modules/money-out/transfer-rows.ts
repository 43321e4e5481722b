import type { FragmentSqlToken } from "slonik";
import type { z } from "zod";
import type { World } from "../../kernel/world.ts";
import { type Queryable, sql, type Transaction } from "../../platform/db/pool.ts";

/** A row as jobs name it: its merchant and id (the id implies the world). */
export type RowKey = { merchantId: string; id: string };

/**
 * The statements an instant transfer's table answers alike (bank changes, utility payments): rows
 * keyed `(merchant_id, id)` with `idempotency_key`, `status`, the lease (`lease_until`), the attempt
 * count and the failure columns. Each module keeps its own insert and completion (their columns differ).
 */
export function transferRowQueries<Shape extends z.ZodRawShape>(table: {
  name: "bank_changes" | "utility_payments";
  columns: FragmentSqlToken;
  row: z.ZodObject<Shape>;
}) {
  type Row = z.infer<z.ZodObject<Shape>>;
  const { columns, row } = table;
  const name = sql.identifier([table.name]);
  const processing = (key: RowKey) =>
    sql.fragment`merchant_id = ${key.merchantId} AND id = ${key.id} AND status = 'processing'`;
  return {
    select: (database: Queryable, world: World, id: string): Promise<Row | null> =>
      database.maybeOne(sql.type(row)`
        SELECT ${columns} FROM ${name}
        WHERE merchant_id = ${world.merchantId} AND livemode = ${world.livemode} AND id = ${id}`),
    selectByKey: (database: Queryable, key: RowKey): Promise<Row | null> =>
      database.maybeOne(sql.type(row)`
        SELECT ${columns} FROM ${name} WHERE merchant_id = ${key.merchantId} AND id = ${key.id}`),
    selectByIdempotencyKey: (database: Queryable, world: World & { idempotencyKey: string }): Promise<Row | null> =>
      database.maybeOne(sql.type(row)`
        SELECT ${columns} FROM ${name}
        WHERE merchant_id = ${world.merchantId} AND livemode = ${world.livemode}
          AND idempotency_key = ${world.idempotencyKey}`),
    /** Takes the lease of a `processing` row whose lease is free or lapsed. */
    claimLease: (database: Queryable, key: RowKey & { leaseMs: number }): Promise<Row | null> =>
      database.maybeOne(sql.type(row)`
        UPDATE ${name} SET lease_until = now() + ${key.leaseMs} * interval '1 millisecond', updated_at = now()
        WHERE ${processing(key)} AND (lease_until IS NULL OR lease_until <= now())
        RETURNING ${columns}`),
    recordAttempt: (database: Queryable, key: RowKey): Promise<Row | null> =>
      database.maybeOne(sql.type(row)`
        UPDATE ${name} SET attempts = attempts + 1, last_attempt_at = now(), updated_at = now()
        WHERE ${processing(key)}
        RETURNING ${columns}`),
    releaseLease: async (database: Queryable, key: RowKey): Promise<void> => {
      await database.query(
        sql.unsafe`UPDATE ${name} SET lease_until = NULL, updated_at = now() WHERE ${processing(key)}`,
      );
    },
    fail: (transaction: Transaction, key: RowKey & { reason: string }): Promise<Row | null> =>
      transaction.maybeOne(sql.type(row)`
        UPDATE ${name} SET status = 'failed', failure_reason = ${key.reason}, failed_at = now(),
          lease_until = NULL, updated_at = now()
        WHERE ${processing(key)}
        RETURNING ${columns}`),
  };
}
