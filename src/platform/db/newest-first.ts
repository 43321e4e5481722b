import type { FragmentSqlToken } from "slonik";
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
 * The WHERE conditions of such a list, for a table with `merchant_id`, `livemode`, `status`,
 * `created_at` and `id`, ordered `created_at DESC, id DESC`. A caller adds its own filters to them.
 */
export function newestFirstConditions(filter: NewestFirstFilter): FragmentSqlToken[] {
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
    conditions.push(sql.fragment`(created_at, id) < (${filter.after.createdAt}::timestamptz, ${filter.after.id})`);
  }
  return conditions;
}
