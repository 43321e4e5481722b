import type { FragmentSqlToken } from "slonik";
import { z } from "zod";
import { type Queryable, sql } from "../../platform/db/pool.ts";
import { type ResponseToStore, storeResponsesStatement } from "../../platform/idempotency/service.ts";
import { text } from "./queries.ts";
import type { SaleRow } from "./schemas.ts";

/** A sale as the API answers it before writing it, with the fingerprint of the request that names it. */
export type SaleToInsert = SaleRow & { client_request_fingerprint: Buffer | null };

const INSERTED_COLUMNS = sql.fragment`merchant_id, id, livemode, status, tender, currency, total_cents, items,
  discount_cents, tax_cents, taxes, discount_reason, cashier, note, payment_id, actor_type, actor_id, client_sale_id, client_request_fingerprint, taken_at, till_id, shift_id,
  receipt_token, created_at, completed_at, tendered_cents`;

const timestamp = (value: Date | null) => (value === null ? null : value.toISOString());

/** The unique index on a till's client_sale_id: a cash sale whose id a concurrent request recorded first. */
export const CLIENT_SALE_ID_KEY = "sales_client_sale_id_key";

/** A completed cash sale to record with its request's stored answer (null: a route that stores none). */
export type CashSaleToInsert = SaleWithResponse;

/**
 * What the other modules write beside the cash sales of `insertCashSales`, given the gate
 * `recorded(sale)` (true in the statement once the sale whose id is the SQL value `sale` was recorded):
 * `events` (`sale.completed`, an insert), `stockMoves` (CTE entries) and `shifts` (`held`: the query of
 * the sales' shifts still open, share-locked; `cashMoves`: an insert).
 */
export type CashSaleEffects = (recorded: (sale: FragmentSqlToken) => FragmentSqlToken) => {
  events: FragmentSqlToken;
  stockMoves: FragmentSqlToken;
  shifts: { held: FragmentSqlToken; cashMoves: FragmentSqlToken };
};

/**
 * Completed cash sales and everything each does, in one statement for all of them (the requests'
 * whole transaction: one round trip, one commit for the sales of a moment): each request's stored
 * answer, its sale and its effects (`effects`: `sale.completed`, its stock moves, its cash in the
 * till's shift), as data-modifying common table expressions, each effect gated on its own sale's
 * insert. A sale is written only while its request still owns its Idempotency-Key and, on a till,
 * while the shift read before is still open (held by `held` as `lockOpenShiftOfTill` holds it);
 * otherwise nothing of it is (not its answer either). One row's failure fails the statement whole
 * (a client_sale_id recorded concurrently: `CLIENT_SALE_ID_KEY`), having written nothing. Returns the
 * ids of the sales recorded and of those whose shift had closed. The effects are gated on the
 * aggregate of the inserted ids (`sales_recorded`), so every sale is inserted (and every wait on
 * another transaction's client_sale_id is over) before any product row is locked: a batch never
 * holds a product while it waits for another's commit. One SQL text whatever the sales (arrays),
 * prepared: planning it costs more than running it.
 */
export async function insertCashSales(
  database: Queryable,
  rows: readonly CashSaleToInsert[],
  effects: CashSaleEffects,
): Promise<{ recorded: ReadonlySet<string>; shiftClosed: ReadonlySet<string> }> {
  const { events, stockMoves, shifts } = effects(
    (sale) => sql.fragment`EXISTS (SELECT 1 FROM sales_recorded r WHERE ${sale} = ANY (r.ids))`,
  );
  const outcome = await database.one(sql.prepared("sales_insert_cash_batch", cashSalesOutcomeSchema)`
    WITH held_shift AS MATERIALIZED (${shifts.held}),
    pending AS (
      SELECT p.*, (p.shift_id IS NULL OR EXISTS (SELECT 1 FROM held_shift h
          WHERE h.merchant_id = p.merchant_id AND h.livemode = p.livemode AND h.id = p.shift_id)) AS shift_open
      FROM ${salesWithResponses(rows)}),
    stored AS (${storeResponsesStatement(sql.fragment`
      SELECT merchant_id, livemode, idempotency_key AS key, owner_token, response_status, response_body
      FROM pending WHERE idempotency_key IS NOT NULL AND shift_open`)}),
    sale_inserted AS (
      INSERT INTO sales (${INSERTED_COLUMNS})
      SELECT ${INSERTED_VALUES_OF_P}
      FROM pending p
      WHERE p.shift_open AND (p.idempotency_key IS NULL OR EXISTS (SELECT 1 FROM stored s
        WHERE s.merchant_id = p.merchant_id AND s.livemode = p.livemode AND s.key = p.idempotency_key))
      ORDER BY p.position
      RETURNING id),
    sales_recorded AS (SELECT coalesce(array_agg(id), '{}') AS ids FROM sale_inserted),
    sale_event AS (${events}),
    ${stockMoves},
    sale_cash AS (${shifts.cashMoves})
    SELECT (SELECT ids FROM sales_recorded) AS recorded,
      coalesce((SELECT array_agg(id) FROM pending WHERE NOT shift_open), '{}') AS "shiftClosed"`);
  return { recorded: new Set(outcome.recorded), shiftClosed: new Set(outcome.shiftClosed) };
}

/** A sale and its request's response to store (null: nothing to store), as `salesWithResponses` lists them. */
type SaleWithResponse = { sale: SaleToInsert; response: ResponseToStore | null };

/**
 * Sales and their responses as a table `p`, in the order given (`p.position`): `FROM` this in a
 * statement that writes them (`INSERTED_VALUES_OF_P` are a row's sale columns). Bound as arrays: the
 * SQL text is the same for any number of sales.
 */
function salesWithResponses(rows: readonly SaleWithResponse[]): FragmentSqlToken {
  const sales = rows.map((row) => row.sale);
  const responseText = (pick: (response: ResponseToStore) => string) =>
    text(rows.map((row) => (row.response === null ? null : pick(row.response))));
  const saleText = (pick: (sale: SaleToInsert) => string | null) => text(sales.map(pick));
  return sql.fragment`unnest(
        ${saleText((sale) => sale.merchant_id)}::text[], ${saleText((sale) => sale.id)}::text[],
        ${sql.array(
          sales.map((sale) => sale.livemode),
          "bool",
        )}::bool[], ${saleText((sale) => sale.status)}::text[], ${saleText((sale) => sale.tender)}::text[],
        ${saleText((sale) => sale.currency)}::text[], ${sql.array(
          sales.map((sale) => sale.total_cents),
          "int8",
        )}::int8[], ${saleText((sale) => JSON.stringify(sale.items))}::text[],
        ${sql.array(
          sales.map((sale) => sale.discount_cents),
          "int8",
        )}::int8[], ${sql.array(
          sales.map((sale) => sale.tax_cents),
          "int8",
        )}::int8[], ${saleText((sale) => JSON.stringify(sale.taxes))}::text[],
        ${saleText((sale) => sale.discount_reason)}::text[], ${saleText((sale) => sale.cashier)}::text[],
        ${saleText((sale) => sale.note)}::text[], ${saleText((sale) => sale.payment_id)}::text[],
        ${saleText((sale) => sale.actor_type)}::text[], ${saleText((sale) => sale.actor_id)}::text[],
        ${saleText((sale) => sale.client_sale_id)}::text[],
        ${saleText((sale) => sale.client_request_fingerprint?.toString("hex") ?? null)}::text[],
        ${saleText((sale) => timestamp(sale.taken_at))}::text[], ${saleText((sale) => sale.till_id)}::text[],
        ${saleText((sale) => sale.shift_id)}::text[], ${saleText((sale) => sale.receipt_token)}::text[],
        ${saleText((sale) => sale.created_at.toISOString())}::text[], ${saleText((sale) => timestamp(sale.completed_at))}::text[],
        ${sql.array(
          sales.map((sale) => sale.tendered_cents),
          "int8",
        )}::int8[],
        ${responseText((response) => response.key)}::text[], ${responseText((response) => response.ownerToken)}::text[],
        ${sql.array(
          rows.map((row) => row.response?.status ?? null),
          "int4",
        )}::int4[], ${responseText((response) => response.body)}::text[])
        WITH ORDINALITY AS p (merchant_id, id, livemode, status, tender, currency, total_cents, items, discount_cents,
          tax_cents, taxes, discount_reason, cashier, note,
          payment_id, actor_type, actor_id, client_sale_id, client_request_fingerprint, taken_at, till_id, shift_id,
          receipt_token, created_at, completed_at, tendered_cents, idempotency_key, owner_token, response_status, response_body, position)`;
}

/** `INSERTED_COLUMNS`' values from a row `p` of `salesWithResponses`. */
const INSERTED_VALUES_OF_P = sql.fragment`p.merchant_id, p.id, p.livemode, p.status, p.tender, p.currency,
  p.total_cents, p.items::jsonb, p.discount_cents, p.tax_cents, p.taxes::jsonb, p.discount_reason, p.cashier, p.note, p.payment_id, p.actor_type, p.actor_id, p.client_sale_id,
  decode(p.client_request_fingerprint, 'hex'), p.taken_at::timestamptz, p.till_id, p.shift_id, p.receipt_token,
  p.created_at::timestamptz, p.completed_at::timestamptz, p.tendered_cents`;

/** A pending wallet sale to record with its request's stored answer (null: a route that stores none). */
export type WalletSaleToInsert = SaleWithResponse;

/**
 * Pending wallet sales with their payments, in one statement for all of them (the requests' whole
 * transaction: one round trip, one commit for the wallet sales of a moment): each request's stored
 * answer, its payment (`payments`, given by the payments module: an insert of all of them returning
 * their ids, each gated on `owned(paymentId)`, true while its sale's request still owns its
 * Idempotency-Key) and its sale, gated on its payment's insert. Nothing of a sale is written when its
 * request no longer owns its key. A client_sale_id recorded concurrently fails the statement whole
 * (`CLIENT_SALE_ID_KEY`), and so does a payment's code still live for another payment (the payments
 * module names that failure), having written nothing. Returns the ids of the sales recorded. One SQL
 * text whatever the sales, prepared (planning it costs more than running it).
 */
export async function insertWalletSales(
  database: Queryable,
  rows: readonly WalletSaleToInsert[],
  payments: (owned: (paymentId: FragmentSqlToken) => FragmentSqlToken) => FragmentSqlToken,
): Promise<ReadonlySet<string>> {
  const recorded = await database.oneFirst(sql.prepared("sales_insert_wallet_batch", walletSalesRecordedSchema)`
    WITH pending AS (SELECT * FROM ${salesWithResponses(rows)}),
    stored AS (${storeResponsesStatement(sql.fragment`
      SELECT merchant_id, livemode, idempotency_key AS key, owner_token, response_status, response_body
      FROM pending WHERE idempotency_key IS NOT NULL`)}),
    payment_inserted AS (${payments(
      (paymentId) => sql.fragment`EXISTS (SELECT 1 FROM pending w WHERE w.payment_id = ${paymentId}
        AND (w.idempotency_key IS NULL OR EXISTS (SELECT 1 FROM stored s
          WHERE s.merchant_id = w.merchant_id AND s.livemode = w.livemode AND s.key = w.idempotency_key)))`,
    )}),
    sale_inserted AS (
      INSERT INTO sales (${INSERTED_COLUMNS})
      SELECT ${INSERTED_VALUES_OF_P}
      FROM pending p
      WHERE p.payment_id IN (SELECT id FROM payment_inserted)
      ORDER BY p.position
      RETURNING id)
    SELECT coalesce((SELECT array_agg(id) FROM sale_inserted), '{}') AS recorded`);
  return new Set(recorded);
}

const walletSalesRecordedSchema = z.object({ recorded: z.array(z.string()) });

const cashSalesOutcomeSchema = z.object({ recorded: z.array(z.string()), shiftClosed: z.array(z.string()) });

/** One sale on its own, in a transaction of plain calls (a split sale: `split-sale.ts`). */
export async function insertSale(transaction: Queryable, sale: SaleToInsert): Promise<void> {
  await transaction.query(sql.unsafe`
    INSERT INTO sales (${INSERTED_COLUMNS})
    SELECT ${INSERTED_VALUES_OF_P} FROM ${salesWithResponses([{ sale, response: null }])}`);
}
