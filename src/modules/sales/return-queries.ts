import type { World } from "../../kernel/world.ts";
import { type Queryable, sql, type Transaction } from "../../platform/db/pool.ts";
import { SALE_COLUMNS } from "./queries.ts";
import { type SaleReturnRow, saleReturnRowSchema } from "./return-schemas.ts";
import { type SaleRow, saleRowSchema } from "./schemas.ts";

const RETURN_COLUMNS = sql.fragment`merchant_id, id, livemode, sale_id, currency, refund_cents, refund_tender, refunds, items,
  till_id, shift_id, reason, actor_type, actor_id, receipt_token, created_at`;

/** The sale, locked until the transaction ends: returns of one sale are decided one at a time. */
export async function lockSale(transaction: Transaction, world: World, saleId: string): Promise<SaleRow | null> {
  return transaction.maybeOne(sql.type(saleRowSchema)`
    SELECT ${SALE_COLUMNS} FROM sales
    WHERE merchant_id = ${world.merchantId} AND livemode = ${world.livemode} AND id = ${saleId}
    FOR UPDATE`);
}

export async function insertReturn(
  transaction: Transaction,
  row: Omit<SaleReturnRow, "created_at">,
): Promise<SaleReturnRow> {
  return transaction.one(sql.type(saleReturnRowSchema)`
    INSERT INTO sale_returns (merchant_id, id, livemode, sale_id, currency, refund_cents, refund_tender, refunds, items,
      till_id, shift_id, reason, actor_type, actor_id, receipt_token)
    VALUES (${row.merchant_id}, ${row.id}, ${row.livemode}, ${row.sale_id}, ${row.currency}, ${row.refund_cents},
      ${row.refund_tender}, ${row.refunds === null ? null : sql.jsonb(row.refunds)}, ${sql.jsonb(row.items)}, ${row.till_id}, ${row.shift_id}, ${row.reason}, ${row.actor_type},
      ${row.actor_id}, ${row.receipt_token})
    RETURNING ${RETURN_COLUMNS}`);
}

/** The returns of some sales of one merchant, oldest first. */
export async function selectReturnsOfSales(
  database: Queryable,
  merchantId: string,
  saleIds: readonly string[],
): Promise<readonly SaleReturnRow[]> {
  if (saleIds.length === 0) {
    return [];
  }
  return database.any(sql.type(saleReturnRowSchema)`
    SELECT ${RETURN_COLUMNS} FROM sale_returns
    WHERE merchant_id = ${merchantId} AND sale_id = ANY(${sql.array(saleIds, "text")})
    ORDER BY created_at, id`);
}

/** The return whose receipt link this is (any merchant's: the token is the capability). */
export async function selectReturnByReceiptToken(database: Queryable, token: string): Promise<SaleReturnRow | null> {
  return database.maybeOne(sql.type(saleReturnRowSchema)`
    SELECT ${RETURN_COLUMNS} FROM sale_returns WHERE receipt_token = ${token}`);
}
