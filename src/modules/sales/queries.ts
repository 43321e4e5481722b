import type { FragmentSqlToken, IdentifierSqlToken } from "slonik";
import { z } from "zod";
import { currencies } from "../../kernel/money.ts";
import type { World } from "../../kernel/world.ts";
import { type NewestFirstFilter, newestFirstConditions } from "../../platform/db/newest-first.ts";
import { type Queryable, sql } from "../../platform/db/pool.ts";
import { type ResponseToStore, storeResponsesStatement } from "../../platform/idempotency/service.ts";
import { type SaleRow, type SaleStatus, saleRowSchema, tenders } from "./schemas.ts";

export const SALE_COLUMNS = sql.fragment`merchant_id, id, livemode, status, tender, currency, total_cents, items, cashier, note,
  payment_id, actor_type, actor_id, client_sale_id, taken_at, till_id, shift_id, receipt_token, created_at, completed_at, cancelled_at`;

/** A sale as the API answers it before writing it, with the fingerprint of the request that names it. */
export type SaleToInsert = SaleRow & { client_request_fingerprint: Buffer | null };

const INSERTED_COLUMNS = sql.fragment`merchant_id, id, livemode, status, tender, currency, total_cents, items, cashier,
  note, payment_id, actor_type, actor_id, client_sale_id, client_request_fingerprint, taken_at, till_id, shift_id,
  receipt_token, created_at, completed_at`;

const timestamp = (value: Date | null) => (value === null ? null : value.toISOString());

/** Text values bound as one array parameter (`::text[]`). */
const text = (values: readonly (string | null)[]) => sql.array(values as string[], "text");

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
        )}::int8[], ${saleText((sale) => JSON.stringify(sale.items))}::text[], ${saleText((sale) => sale.cashier)}::text[],
        ${saleText((sale) => sale.note)}::text[], ${saleText((sale) => sale.payment_id)}::text[],
        ${saleText((sale) => sale.actor_type)}::text[], ${saleText((sale) => sale.actor_id)}::text[],
        ${saleText((sale) => sale.client_sale_id)}::text[],
        ${saleText((sale) => sale.client_request_fingerprint?.toString("hex") ?? null)}::text[],
        ${saleText((sale) => timestamp(sale.taken_at))}::text[], ${saleText((sale) => sale.till_id)}::text[],
        ${saleText((sale) => sale.shift_id)}::text[], ${saleText((sale) => sale.receipt_token)}::text[],
        ${saleText((sale) => sale.created_at.toISOString())}::text[], ${saleText((sale) => timestamp(sale.completed_at))}::text[],
        ${responseText((response) => response.key)}::text[], ${responseText((response) => response.ownerToken)}::text[],
        ${sql.array(
          rows.map((row) => row.response?.status ?? null),
          "int4",
        )}::int4[], ${responseText((response) => response.body)}::text[])
        WITH ORDINALITY AS p (merchant_id, id, livemode, status, tender, currency, total_cents, items, cashier, note,
          payment_id, actor_type, actor_id, client_sale_id, client_request_fingerprint, taken_at, till_id, shift_id,
          receipt_token, created_at, completed_at, idempotency_key, owner_token, response_status, response_body, position)`;
}

/** `INSERTED_COLUMNS`' values from a row `p` of `salesWithResponses`. */
const INSERTED_VALUES_OF_P = sql.fragment`p.merchant_id, p.id, p.livemode, p.status, p.tender, p.currency,
  p.total_cents, p.items::jsonb, p.cashier, p.note, p.payment_id, p.actor_type, p.actor_id, p.client_sale_id,
  decode(p.client_request_fingerprint, 'hex'), p.taken_at::timestamptz, p.till_id, p.shift_id, p.receipt_token,
  p.created_at::timestamptz, p.completed_at::timestamptz`;

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

/** The pending sales paid by `payments` (none for an ordinary payment, or one whose sale is final), in no order. */
export async function selectPendingSalesOfPayments(
  database: Queryable,
  payments: readonly { merchantId: string; livemode: boolean; paymentId: string }[],
): Promise<readonly SaleRow[]> {
  return database.any(sql.type(saleRowSchema)`
    SELECT ${SALE_COLUMNS} FROM sales
    WHERE (merchant_id, livemode, payment_id) IN (
        SELECT * FROM unnest(
          ${text(payments.map((payment) => payment.merchantId))}::text[],
          ${sql.array(
            payments.map((payment) => payment.livemode),
            "bool",
          )}::bool[],
          ${text(payments.map((payment) => payment.paymentId))}::text[]))
      AND status = 'pending'`);
}

/**
 * Wallet sales' ends as common table expressions of another statement, the one that ends their
 * payments (`completeSalesCtes`, `cancelSalesCtes`): `ctes(ended)`, each sale written only when
 * `ended(paymentId)` holds for its payment; `finished`, the number of sales it ended; `shape`, which
 * tells statements of different SQL text apart (they are prepared). Each sale ended is announced to
 * the requests waiting on it (`SALE_FINISHED_CHANNEL`) by its update's own row.
 */
export type SalesEnd = {
  ctes: (ended: (paymentId: FragmentSqlToken) => FragmentSqlToken) => FragmentSqlToken;
  finished: FragmentSqlToken;
  shape: string;
};

/**
 * Pending wallet sales' completion (`SalesEnd`): the guarded update to `completed` at each sale's
 * `completed_at` (`sales_completed`: only while the sale is pending and its payment ended), then,
 * each gated on its own sale's update (`completed(saleId)`), their `sale.completed` (`effects.events`,
 * an insert) and stock moves (`effects.stockMoves`, CTE entries). Its SQL text is the same whatever
 * the sales (arrays).
 */
export function completeSalesCtes(
  sales: readonly (Pick<SaleRow, "merchant_id" | "id" | "payment_id"> & { completed_at: Date })[],
  effects: {
    events: (completed: (saleId: FragmentSqlToken) => FragmentSqlToken) => FragmentSqlToken;
    stockMoves: (completed: (saleId: FragmentSqlToken) => FragmentSqlToken) => FragmentSqlToken;
  },
): SalesEnd {
  const completed = (saleId: FragmentSqlToken) => sql.fragment`${saleId} IN (SELECT id FROM sales_completed)`;
  return {
    ctes: (ended) => sql.fragment`
      sales_completed AS (
        UPDATE sales sl SET status = 'completed', completed_at = c.completed_at
        FROM unnest(
          ${text(sales.map((sale) => sale.merchant_id))}::text[], ${text(sales.map((sale) => sale.id))}::text[],
          ${text(sales.map((sale) => sale.payment_id))}::text[],
          ${text(sales.map((sale) => sale.completed_at.toISOString()))}::timestamptz[])
          AS c (merchant_id, id, payment_id, completed_at)
        WHERE sl.merchant_id = c.merchant_id AND sl.id = c.id AND sl.status = 'pending'
          AND ${ended(sql.fragment`c.payment_id`)}
        RETURNING sl.id, pg_notify(${SALE_FINISHED_CHANNEL}, sl.id)),
      sales_completed_events AS (${effects.events(completed)}),
      ${effects.stockMoves(completed)}`,
    finished: sql.fragment`(SELECT count(*)::int FROM sales_completed)`,
    shape: "sales_completed",
  };
}

/** Pending wallet sales' cancellation (`SalesEnd`), with their payments' unpaid end: nothing moves. */
export function cancelSalesCtes(sales: readonly Pick<SaleRow, "merchant_id" | "id" | "payment_id">[]): SalesEnd {
  return {
    ctes: (ended) => sql.fragment`
      sales_cancelled AS (
        UPDATE sales sl SET status = 'cancelled', cancelled_at = now()
        FROM unnest(
          ${text(sales.map((sale) => sale.merchant_id))}::text[], ${text(sales.map((sale) => sale.id))}::text[],
          ${text(sales.map((sale) => sale.payment_id))}::text[])
          AS c (merchant_id, id, payment_id)
        WHERE sl.merchant_id = c.merchant_id AND sl.id = c.id AND sl.status = 'pending'
          AND ${ended(sql.fragment`c.payment_id`)}
        RETURNING sl.id, pg_notify(${SALE_FINISHED_CHANNEL}, sl.id))`,
    finished: sql.fragment`(SELECT count(*)::int FROM sales_cancelled)`,
    shape: "sales_cancelled",
  };
}

/** Sales' end on its own (their payments ended without it): true when any sale was ended. */
export async function endSales(database: Queryable, end: SalesEnd): Promise<boolean> {
  const finished = await database.oneFirst(sql.prepared(`sales_end_${end.shape}`, finishedSchema)`
    WITH ${end.ctes(() => sql.fragment`TRUE`)}
    SELECT ${end.finished} AS finished`);
  return finished > 0;
}

const finishedSchema = z.object({ finished: z.number().int() });

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

const dayRowSchema = z.object({ day_start: z.date(), day_end: z.date() });

/** Today in the merchant's time zone, as instants (on the database clock and its tz database). */
export async function selectToday(database: Queryable, timezone: string): Promise<z.infer<typeof dayRowSchema>> {
  return database.one(sql.type(dayRowSchema)`
    SELECT date_trunc('day', now() AT TIME ZONE ${timezone}) AT TIME ZONE ${timezone} AS day_start,
      (date_trunc('day', now() AT TIME ZONE ${timezone}) + interval '1 day') AT TIME ZONE ${timezone} AS day_end`);
}

/** Only one cashier's sales (the cashier switched in on the till that recorded them), when given. */
const byCashier = (alias: IdentifierSqlToken, cashierId: string | undefined) =>
  cashierId === undefined
    ? sql.fragment`TRUE`
    : sql.fragment`${alias}.actor_type = 'till_user' AND ${alias}.actor_id = ${cashierId}`;

/** Only the sale a receipt link shows: the sale's own receipt or one of its returns' (the merchant's own). */
const byReceiptToken = (token: string | undefined) =>
  token === undefined
    ? sql.fragment`TRUE`
    : sql.fragment`(sales.receipt_token = ${token} OR sales.id IN (
        SELECT sale_id FROM sale_returns WHERE receipt_token = ${token} AND merchant_id = sales.merchant_id))`;

type Period = World & { from: Date; to: Date; cashierId: string | undefined };

/** Only completed sales count, by completion time: the report index's range. */
const completedIn = (period: Period) => sql.fragment`
  s.merchant_id = ${period.merchantId} AND s.livemode = ${period.livemode} AND s.status = 'completed'
  AND s.completed_at >= ${period.from.toISOString()}::timestamptz AND s.completed_at < ${period.to.toISOString()}::timestamptz
  AND ${byCashier(sql.identifier(["s"]), period.cashierId)}`;

const tenderTotalsRowSchema = z.object({
  tender: z.enum(tenders),
  currency: z.enum(currencies),
  count: z.number().int(),
  total_cents: z.number().int(),
});

export async function selectTenderTotals(
  database: Queryable,
  period: Period,
): Promise<readonly z.infer<typeof tenderTotalsRowSchema>[]> {
  return database.any(sql.type(tenderTotalsRowSchema)`
    SELECT s.tender, s.currency, count(*)::int8 AS count, sum(s.total_cents)::int8 AS total_cents
    FROM sales s
    WHERE ${completedIn(period)}
    GROUP BY s.tender, s.currency`);
}

const topProductRowSchema = z.object({
  product_id: z.string().nullable(),
  name: z.string(),
  currency: z.enum(currencies),
  units: z.number().int(),
  revenue_cents: z.number().int(),
});

/**
 * Best sellers by revenue, `top` per currency: the lines of the period's completed sales, expanded from
 * their snapshots and summed in a hash aggregate (no sort of the lines), ranked, and only then named:
 * a product by its catalog name now, an ad hoc line by its own name (ad hoc lines group by name).
 */
export async function selectTopProducts(
  database: Queryable,
  period: Period & { top: number },
): Promise<readonly z.infer<typeof topProductRowSchema>[]> {
  return database.any(sql.type(topProductRowSchema)`
    WITH lines AS (
      SELECT s.currency, i.product_id, CASE WHEN i.product_id IS NULL THEN i.name END AS adhoc_name,
        sum(i.qty)::int8 AS units, sum(i.line_total_cents)::int8 AS revenue_cents
      FROM sales s
      CROSS JOIN LATERAL jsonb_to_recordset(s.items) AS i (product_id text, name text, qty int8, line_total_cents int8)
      WHERE ${completedIn(period)}
      GROUP BY 1, 2, 3),
    ranked AS (
      SELECT lines.*, row_number() OVER (PARTITION BY currency
        ORDER BY revenue_cents DESC, units DESC, product_id, adhoc_name) AS rank
      FROM lines)
    SELECT r.product_id, coalesce(p.name, r.adhoc_name, '') AS name, r.currency, r.units, r.revenue_cents
    FROM ranked r
    LEFT JOIN products p ON p.merchant_id = ${period.merchantId} AND p.id = r.product_id
    WHERE r.rank <= ${period.top}
    ORDER BY r.currency, r.rank`);
}

/** The channel a sale's end is announced on (payload: the sale id), for requests waiting on it. */
export const SALE_FINISHED_CHANNEL = "sale_finished";
