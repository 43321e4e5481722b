import type { IdentifierSqlToken } from "slonik";
import { z } from "zod";
import type { World } from "../../kernel/world.ts";
import { type NewestFirstFilter, newestFirstConditions } from "../../platform/db/newest-first.ts";
import { type Queryable, sql } from "../../platform/db/pool.ts";
import { type SaleRow, type SaleStatus, saleRowSchema } from "./schemas.ts";

/**
 * Reading sales (get, list, receipts, the client_sale_id of a replay). The statements that write
 * sales are by use case: `ring-up-queries.ts` (a moment's cash or wallet sales), `payment-end-queries.ts`
 * (wallet sales ended with their payments), `report-queries.ts` (takings), `return-queries.ts`.
 */

export const SALE_COLUMNS = sql.fragment`merchant_id, id, livemode, status, tender, currency, total_cents, items,
  discount_cents, tax_cents, taxes, discount_reason, cashier, note, payment_id, actor_type, actor_id, client_sale_id, taken_at, till_id, shift_id, receipt_token, created_at, completed_at, cancelled_at,
  tendered_cents`;

/** Text values bound as one array parameter (`::text[]`). */
export const text = (values: readonly (string | null)[]) => sql.array(values as string[], "text");

const clientSaleRowSchema = saleRowSchema.extend({ client_request_fingerprint: z.instanceof(Buffer) });

/** The sale a till named `clientSaleId`, with the fingerprint of the request that recorded it. */
export async function selectSaleByClientId(
  database: Queryable,
  world: World,
  clientSaleId: string,
): Promise<z.infer<typeof clientSaleRowSchema> | null> {
  return database.maybeOne(sql.type(clientSaleRowSchema)`
    SELECT ${SALE_COLUMNS}, client_request_fingerprint FROM sales
    WHERE merchant_id = ${world.merchantId} AND livemode = ${world.livemode} AND client_sale_id = ${clientSaleId}`);
}

export async function selectSale(database: Queryable, world: World, saleId: string): Promise<SaleRow | null> {
  return database.maybeOne(sql.type(saleRowSchema)`
    SELECT ${SALE_COLUMNS} FROM sales
    WHERE merchant_id = ${world.merchantId} AND livemode = ${world.livemode} AND id = ${saleId}`);
}

export async function selectSales(
  database: Queryable,
  filter: NewestFirstFilter & {
    status: SaleStatus | undefined;
    cashierId: string | undefined;
    receiptToken: string | undefined;
    limit: number;
  },
): Promise<readonly SaleRow[]> {
  const conditions = [
    ...newestFirstConditions(sql.identifier(["sales"]), filter),
    byCashier(sql.identifier(["sales"]), filter.cashierId),
    byReceiptToken(filter.receiptToken),
  ];
  return database.any(sql.type(saleRowSchema)`
    SELECT ${SALE_COLUMNS} FROM sales
    WHERE ${sql.join(conditions, sql.fragment` AND `)}
    ORDER BY created_at DESC, id DESC
    LIMIT ${filter.limit}`);
}

/** Only one cashier's sales (the cashier switched in on the till that recorded them), when given. */
export const byCashier = (alias: IdentifierSqlToken, cashierId: string | undefined) =>
  cashierId === undefined
    ? sql.fragment`TRUE`
    : sql.fragment`${alias}.actor_type = 'till_user' AND ${alias}.actor_id = ${cashierId}`;

/** Only the sale a receipt link shows: the sale's own receipt or one of its returns' (the merchant's own). */
const byReceiptToken = (token: string | undefined) =>
  token === undefined
    ? sql.fragment`TRUE`
    : sql.fragment`(sales.receipt_token = ${token} OR sales.id IN (
        SELECT sale_id FROM sale_returns WHERE receipt_token = ${token} AND merchant_id = sales.merchant_id))`;

/** The sale whose own receipt link this is (any merchant's: the token is the capability). */
export async function selectSaleByReceiptToken(database: Queryable, token: string): Promise<SaleRow | null> {
  return database.maybeOne(sql.type(saleRowSchema)`
    SELECT ${SALE_COLUMNS} FROM sales WHERE receipt_token = ${token}`);
}

/** Whether a sale or a return has this receipt token. */
export async function selectReceiptTokenExists(database: Queryable, token: string): Promise<boolean> {
  return database.oneFirst(sql.type(z.object({ found: z.boolean() }))`
    SELECT EXISTS (SELECT 1 FROM sales WHERE receipt_token = ${token})
      OR EXISTS (SELECT 1 FROM sale_returns WHERE receipt_token = ${token}) AS found`);
}

/** The channel a sale's end is announced on (payload: the sale id), for requests waiting on it. */
export const SALE_FINISHED_CHANNEL = "sale_finished";
