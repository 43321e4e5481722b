import type { FragmentSqlToken, IdentifierSqlToken } from "slonik";
import { sql } from "./pool.ts";

/** The filter every newest-first list of a world's objects takes (payments, payouts, sales). */
export type NewestFirstFilter = {
  merchantId: string;
  livemode: boolean;
  status: string | undefined;
  /** `created_at` at or after. */
  from: Date | undefined;
  /** `created_at` before. */
  to: Date | undefined;
  /** The keyset of the previous page's last row. */
  after: { createdAt: string; id: string } | undefined;
};

/**
 * The WHERE conditions of such a list, for `table` with `merchant_id`, `livemode`, `status`,
 * `created_at` and `id`, ordered `created_at DESC, id DESC`. A caller adds its own filters to them.
 */
export function newestFirstConditions(table: IdentifierSqlToken, filter: NewestFirstFilter): FragmentSqlToken[] {
  const conditions = [sql.fragment`merchant_id = ${filter.merchantId}`, sql.fragment`livemode = ${filter.livemode}`];
  if (filter.status !== undefined) {
    conditions.push(sql.fragment`status = ${filter.status}`);
  }
  if (filter.from !== undefined) {
    conditions.push(sql.fragment`created_at >= ${filter.from.toISOString()}::timestamptz`);
  }
  if (filter.to !== undefined) {
    conditions.push(sql.fragment`created_at < ${filter.to.toISOString()}::timestamptz`);
  }
  if (filter.after !== undefined) {
    conditions.push(afterPreviousRow(table, filter.merchantId, filter.after));
  }
  return conditions;
}

/**
 * `(created_at, id)` before the previous page's last row. The cursor's time has milliseconds while
 * `created_at` has microseconds, so the bound is that row's own `created_at`, read back by its id
 * (rows created within one millisecond were skipped otherwise); the cursor's time serves only when
 * the row is gone. Scoped to the merchant, so a forged cursor learns nothing of another's rows.
 */
export function afterPreviousRow(
  table: IdentifierSqlToken,
  merchantId: string,
  after: { createdAt: string; id: string },
): FragmentSqlToken {
  return sql.fragment`(created_at, id) < (
    coalesce(
      (SELECT previous.created_at FROM ${table} AS previous
        WHERE previous.id = ${after.id} AND previous.merchant_id = ${merchantId}),
      ${after.createdAt}::timestamptz
    ),
    ${after.id}
  )`;
}

/** `AND` the condition of `afterPreviousRow` when there is a previous page; nothing on the first page. */
export function andAfterPreviousRow(
  table: IdentifierSqlToken,
  merchantId: string,
  after: { createdAt: string; id: string } | undefined,
): FragmentSqlToken {
  return after === undefined ? sql.fragment`` : sql.fragment`AND ${afterPreviousRow(table, merchantId, after)}`;
}
