import { createHash } from "node:crypto";
import canonicalize from "canonicalize";
import { UniqueIntegrityConstraintViolationError } from "slonik";
import { withFreshCodes } from "../../gateway/code-collisions.ts";
import { type Currency, currencies } from "../../kernel/money.ts";
import type { World } from "../../kernel/world.ts";
import { requireDatabaseUrl } from "../../platform/config.ts";
import { writeTogetherOrAlone } from "../../platform/db/batch-per-turn.ts";
import { type Notifications, sharedNotifications } from "../../platform/db/notifications.ts";
import type { Queryable } from "../../platform/db/pool.ts";
import { conflict, invalidRequest, notFound } from "../../platform/errors.ts";
import { createdAtKey, decodeCreatedAtCursor, type Page, toPage } from "../../platform/http/pagination.ts";
import type { ResponseToStore } from "../../platform/idempotency/service.ts";
import { newId } from "../../platform/ids.ts";
import type { Tenant } from "../../platform/tenant.ts";
import type { catalog, ProductRow } from "../catalog/index.ts";
import { events } from "../events/index.ts";
import type { EndEffects, PaymentHook, PaymentRow } from "../payments/index.ts";
import { payments } from "../payments/index.ts";
import { shifts } from "../shifts/index.ts";
import { stock } from "../stock/index.ts";
import { salesTotal } from "./metrics.ts";
import * as queries from "./queries.ts";
import { newReceiptToken } from "./receipt-token.ts";
import * as returnQueries from "./return-queries.ts";
import type { SaleReturnRow } from "./return-schemas.ts";
import {
  type CreateSaleInput,
  REPORT_PERIOD_DAYS_MAX,
  SALE_ITEMS_MAX,
  SALE_TOTAL_CENTS_MAX,
  type SaleItem,
  type SaleRow,
  type SaleStatus,
  TAKEN_AT_AGE_DAYS_MAX,
  TAKEN_AT_FUTURE_SKEW_SECONDS,
  tenders,
} from "./schemas.ts";

/**
 * Sales: a basket of snapshotted lines and a tender.
 *
 * Invariants:
 * - a line snapshots name, unit price and line total at sale time; the database refuses any change
 *   to a sale other than its one status transition, so catalog edits never change a past sale;
 * - cash: the sale, its stock moves, `sale.completed` and the idempotent response commit together;
 *   it counts in takings and never touches the ledger (the payable balance);
 * - wallet: the sale is pending beside its payment (created through the payments service); it
 *   completes in the very transaction that settles the payment (stock moves, `sale.completed`), or is
 *   cancelled in the transaction that expires or fails it, with nothing moved. Both happen once,
 *   whoever observes the payment's end (poller, expiry job, mockpay, GET of the payment or the sale);
 * - stock: only live sales change on-hand (see the stock module); untracked products never move;
 * - sales are per world: a test key never sees a live sale, nor another merchant's.
 *
 * Error codes: `product_not_found` (404), `product_inactive`, `price_required`, `currency_mismatch`,
 * `invalid_quantity`, `invalid_amount`, `invalid_currency`, `too_many_items`, `parameter_missing`,
 * `parameter_invalid`, `taken_at_out_of_range` (400), `resource_missing` (404), `client_sale_id_mismatch` (409),
 * `gateway_error`, `code_generation_failed` (502).
 */

export type SaleDependencies = payments.PaymentDependencies;
/**
 * What ringing up a sale needs besides: the process's batching product reader
 * (`catalog.createProductReader`) and sale writers (`cash-sale-writer.ts` over `writeCashSales`,
 * `wallet-sale-writer.ts` over `writeWalletSales`).
 */
export type SaleCreationDependencies = SaleDependencies & {
  readProducts: catalog.ProductReader;
  writeCashSale: (row: CashSaleToWrite) => Promise<CashSaleOutcome>;
  writeWalletSale: (row: WalletSaleToWrite) => Promise<boolean>;
};
/** A sale as the API shows it: with its payment (null for cash) and its returns, oldest first. */
export type SaleView = { sale: SaleRow; payment: PaymentRow | null; returns: readonly SaleReturnRow[] };

const withReturns = async (
  database: Queryable,
  recorded: { sale: SaleRow; payment: PaymentRow | null },
): Promise<SaleView> => ({
  ...recorded,
  returns: await returnQueries.selectReturnsOfSales(database, recorded.sale.merchant_id, [recorded.sale.id]),
});

/** How a sale's answer is committed with its effects: the idempotent route's `commitWithResponse` and presenters. */
type SaleReply<Reply> = {
  commitWithResponse: (reply: Reply, write: (response: ResponseToStore | null) => Promise<boolean>) => Promise<Reply>;
  created: (view: SaleView) => Reply;
};

/**
 * `POST /v1/sales`. A till's queued sale replayed after its Idempotency-Key expired (its
 * client_sale_id already recorded) answers the sale it made (`replayed`). Otherwise the sale is
 * prepared outside any transaction, then recorded with its stored answer (`created`) in one statement
 * (`commitWithResponse`: sale, effects and answer in one round trip): a cash sale completed, a wallet
 * sale pending with its payment (a payment code still live elsewhere fails the statement and the sale
 * is prepared again with a fresh code). A concurrent request that recorded the same client_sale_id
 * first makes this one write nothing and answer that sale (`replayed`). A completion is counted once
 * committed (a replayed answer does not come through here).
 */
export async function createSale<Reply>(
  dependencies: SaleCreationDependencies,
  tenant: Tenant,
  input: CreateSaleInput,
  reply: SaleReply<Reply> & { replayed: (view: SaleView) => Reply },
): Promise<Reply> {
  const known = await findClientSale(dependencies, tenant, input);
  if (known !== null) {
    return reply.replayed(await withReturns(dependencies.database, known));
  }
  try {
    return input.tender === "cash"
      ? await createCashSale(dependencies, tenant, input, reply)
      : await createWalletSale(dependencies, tenant, input, reply);
  } catch (error) {
    if (!(error instanceof ClientSaleIdTaken)) {
      throw error;
    }
    const recorded = await findClientSale(dependencies, tenant, input);
    if (recorded === null) {
      throw error;
    }
    return reply.replayed(await withReturns(dependencies.database, recorded));
  }
}

/**
 * A cash sale: completed at once, written with its stored answer, `sale.completed`, its stock moves
 * and, on a till, its cash in the till's open shift (read first: 409 `shift_not_open` when there is
 * none, or when it closes before the statement holds it) by `writeCashSale`, the process's batching
 * writer: one statement and one commit for the cash sales of an event-loop turn (`writeCashSales`).
 */
async function createCashSale<Reply>(
  dependencies: SaleCreationDependencies,
  tenant: Tenant,
  input: CreateSaleInput,
  reply: SaleReply<Reply>,
): Promise<Reply> {
  const prepared = await prepareSale(dependencies, tenant, input);
  const tillId = input.till_id ?? null;
  const shift = tillId === null ? null : await shifts.openShiftOfTill(dependencies.database, tenant, tillId);
  const sale = saleToInsert(tenant, prepared, { status: "completed", paymentId: null, shiftId: shift?.id ?? null });
  const committed = await reply.commitWithResponse(
    reply.created({ sale, payment: null, returns: [] }),
    async (response) => {
      const outcome = await dependencies
        .writeCashSale({ sale, response, event: events.prepareEvent(saleCompletedEvent(sale)) })
        .catch((error: unknown) => {
          throw error instanceof UniqueIntegrityConstraintViolationError &&
            error.constraint === queries.CLIENT_SALE_ID_KEY
            ? new ClientSaleIdTaken(sale.client_sale_id ?? "")
            : error;
        });
      if (!outcome.shiftOpen && tillId !== null) {
        throw shifts.shiftNotOpen(tillId);
      }
      return outcome.recorded;
    },
  );
  countCompletion(sale);
  return committed;
}

/** A cash sale to write (`writeCashSales`): its row, its request's answer and its `sale.completed`, made in the request. */
export type CashSaleToWrite = queries.CashSaleToInsert & { event: events.PreparedEvent };

/** What writing a cash sale did: recorded (false: its request had lost its key), or its shift had closed. */
export type CashSaleOutcome = { recorded: boolean; shiftOpen: boolean };

/**
 * Writes cash sales in one statement (`queries.insertCashSales`): each with its stored answer,
 * `sale.completed`, its stock moves and its cash in its shift, one round trip and one commit for all.
 * When the statement fails, it wrote nothing: the sales are then written one statement each, so that
 * a sale's own failure (a client_sale_id recorded concurrently, or by another sale of the batch) fails
 * only its own request, with that error, and the others are written once. A failure without the
 * database's answer (a lost connection: the commit's outcome unknown) fails every sale of the batch.
 */
export async function writeCashSales(
  database: Queryable,
  rows: readonly CashSaleToWrite[],
): Promise<(CashSaleOutcome | Error)[]> {
  return writeTogetherOrAlone(rows, async (some) => {
    const written = await queries.insertCashSales(database, some, cashSaleEffects(some));
    return some.map((row) => ({
      recorded: written.recorded.has(row.sale.id),
      shiftOpen: !written.shiftClosed.has(row.sale.id),
    }));
  });
}

/** The parts of `insertCashSales` that other modules write, for these sales. */
const cashSaleEffects =
  (rows: readonly CashSaleToWrite[]): queries.CashSaleEffects =>
  (recorded) => ({
    events: events.emitEachWhen(
      rows.map((row) => ({ event: row.event, subject: row.sale.id })),
      recorded,
    ),
    stockMoves: stock.salesMovesCtes(
      rows.map((row) => saleMovesOf(row.sale)),
      recorded,
    ),
    shifts: shifts.salesCashInShifts(
      rows.flatMap(({ sale }) =>
        sale.shift_id === null
          ? []
          : [
              {
                merchantId: sale.merchant_id,
                livemode: sale.livemode,
                shiftId: sale.shift_id,
                saleId: sale.id,
                currency: sale.currency,
                amountCents: sale.total_cents,
                actor: { kind: sale.actor_type, id: sale.actor_id },
              },
            ],
      ),
      recorded,
    ),
  });

/**
 * A wallet sale: pending beside its payment, both written with the stored answer, which is built
 * before them (the payment's row is known once the gateway has issued its code), by `writeWalletSale`
 * (the process's batching writer: the wallet sales of a moment in one statement, `writeWalletSales`).
 * A code still live for another payment fails the sale's statement, which wrote nothing of it: the
 * sale is prepared again, with a new payment and a fresh code (`withFreshCodes`). Nothing is emitted
 * now: the sale completes or is cancelled with its payment's end (`salePaymentHook`).
 */
async function createWalletSale<Reply>(
  dependencies: SaleCreationDependencies,
  tenant: Tenant,
  input: CreateSaleInput,
  reply: SaleReply<Reply>,
): Promise<Reply> {
  return withFreshCodes(dependencies.logger, async () => {
    const prepared = await prepareSale(dependencies, tenant, input);
    if (prepared.payment === null) {
      throw new TypeError(`sale ${prepared.id}: a wallet sale is prepared with its payment`);
    }
    const pendingPayment = payments.pendingPaymentOf(tenant, prepared.payment);
    const { payment } = pendingPayment;
    const sale = saleToInsert(tenant, prepared, { status: "pending", paymentId: payment.id, shiftId: null });
    return reply.commitWithResponse(reply.created({ sale, payment, returns: [] }), (response) =>
      dependencies.writeWalletSale({ sale, response, payment: pendingPayment }).catch((error: unknown) => {
        throw (
          payments.codeCollisionOf(error, payment) ??
          (error instanceof UniqueIntegrityConstraintViolationError && error.constraint === queries.CLIENT_SALE_ID_KEY
            ? new ClientSaleIdTaken(sale.client_sale_id ?? "")
            : error)
        );
      }),
    );
  });
}

/** A pending wallet sale to write with its payment's row and its request's stored answer (null: none). */
export type WalletSaleToWrite = queries.WalletSaleToInsert & { payment: payments.PendingPaymentToInsert };

/**
 * Wallet sales with their payments and stored answers in one statement (`queries.insertWalletSales`),
 * answering per sale whether it was recorded (false: its request no longer owns its key). A statement
 * the database refused is written again sale by sale, so that one sale's failure (its payment's code
 * live elsewhere, its client_sale_id recorded concurrently) fails only its own request, with that
 * failure; any other failure fails every sale of the batch.
 */
export async function writeWalletSales(
  database: Queryable,
  rows: readonly WalletSaleToWrite[],
): Promise<(boolean | Error)[]> {
  return writeTogetherOrAlone(rows, async (some) => {
    const recorded = await queries.insertWalletSales(database, some, (owned) =>
      payments.pendingPaymentsInsert(
        some.map((row) => row.payment),
        owned,
      ),
    );
    return some.map((row) => recorded.has(row.sale.id));
  });
}

/**
 * `GET /v1/sales/:id`: the sale as it stands (see `getSale`). A pending wallet sale is waited for up
 * to `waitSeconds` (no longer than just past its payment's expiry, which the refresh then decides),
 * woken when it ends, then read again.
 */
export async function readSale(
  dependencies: SaleDependencies,
  tenant: Tenant,
  saleId: string,
  wait: { seconds: number; signal: AbortSignal },
): Promise<SaleView> {
  const first = await getSale(dependencies, tenant, saleId);
  if (first.sale.status !== "pending" || wait.seconds === 0 || first.payment === null) {
    return withReturns(dependencies.database, first);
  }
  const { config, database, logger } = dependencies;
  const untilExpiryMs = first.payment.expires_at.getTime() + 1000 - Date.now();
  await waitForSaleEnd(
    {
      database,
      notifications: sharedNotifications(config.notificationsDatabaseUrl ?? requireDatabaseUrl(config), logger),
    },
    tenant,
    { saleId, timeoutMs: Math.max(0, Math.min(wait.seconds * 1000, untilExpiryMs)), signal: wait.signal },
  );
  return withReturns(database, await getSale(dependencies, tenant, saleId));
}
export type PricedSale = { currency: Currency; items: SaleItem[]; total_cents: number };

/** Prices the basket against the catalog rows it names: the rules of what may be sold. */
export function priceSale(
  input: Pick<CreateSaleInput, "items" | "currency" | "tender">,
  products: ReadonlyMap<string, ProductRow>,
): PricedSale {
  assertItemCount(input.items.length);
  const firstProductId = input.items.find((item) => item.product_id !== undefined)?.product_id;
  const currency: Currency =
    input.currency ?? (firstProductId === undefined ? undefined : products.get(firstProductId)?.currency) ?? "USD";
  const items = input.items.map((item, index): SaleItem => {
    const field = `items.${index}`;
    if (item.product_id !== undefined && item.name !== undefined) {
      throw invalidRequest("parameter_invalid", `${field}: give either product_id or name (ad hoc), not both.`);
    }
    if (item.product_id === undefined) {
      if (item.name === undefined) {
        throw invalidRequest("parameter_missing", `${field}: product_id, or name for an ad hoc line, is required.`);
      }
      if (item.unit_cents === undefined) {
        throw invalidRequest("price_required", `${field}: an ad hoc line needs unit_cents.`);
      }
      return line(null, item.name, item.qty, item.unit_cents);
    }
    const product = products.get(item.product_id);
    if (product === undefined) {
      throw stock.productNotFound(item.product_id);
    }
    if (!product.active) {
      throw invalidRequest("product_inactive", `${field}: product ${product.id} is inactive (deleted).`);
    }
    if (product.currency !== currency) {
      throw invalidRequest(
        "currency_mismatch",
        `${field}: product ${product.id} is priced in ${product.currency}, the sale is in ${currency}.`,
      );
    }
    const unitCents = item.unit_cents ?? product.price_cents;
    if (unitCents === null) {
      throw invalidRequest("price_required", `${field}: product ${product.id} has no price; give unit_cents.`);
    }
    return line(product.id, product.name, item.qty, unitCents);
  });
  const total = items.reduce((sum, item) => sum + item.line_total_cents, 0);
  if (total > SALE_TOTAL_CENTS_MAX) {
    throw invalidRequest("invalid_amount", `The sale's total exceeds ${SALE_TOTAL_CENTS_MAX} cents.`);
  }
  if (input.tender === "wallet" && total < 1) {
    throw invalidRequest("invalid_amount", "A wallet sale's total must be positive.");
  }
  return { currency, items, total_cents: total };
}

function assertItemCount(count: number): void {
  if (count > SALE_ITEMS_MAX) {
    throw invalidRequest("too_many_items", `A sale has at most ${SALE_ITEMS_MAX} lines.`);
  }
}

function line(productId: string | null, name: string, qty: number, unitCents: number): SaleItem {
  return { product_id: productId, name, qty, unit_cents: unitCents, line_total_cents: qty * unitCents };
}

/**
 * When the till says it rang the sale up: only for cash (a wallet sale completes when its payment
 * settles, which no till can do offline), no further back than a till may sensibly queue sales, and
 * not ahead of the API's clock by more than devices' clocks drift.
 */
export function checkTakenAt(input: Pick<CreateSaleInput, "tender" | "taken_at">, nowMs: number): Date | null {
  if (input.taken_at === undefined) {
    return null;
  }
  if (input.tender !== "cash") {
    throw invalidRequest(
      "parameter_invalid",
      "taken_at: only a cash sale may be dated (a wallet sale completes when paid).",
    );
  }
  const takenAt = new Date(input.taken_at);
  if (takenAt.getTime() > nowMs + TAKEN_AT_FUTURE_SKEW_SECONDS * 1000) {
    throw invalidRequest(
      "taken_at_out_of_range",
      `taken_at is more than ${TAKEN_AT_FUTURE_SKEW_SECONDS} seconds in the future: check the till's clock.`,
    );
  }
  if (takenAt.getTime() < nowMs - TAKEN_AT_AGE_DAYS_MAX * 86_400_000) {
    throw invalidRequest("taken_at_out_of_range", `taken_at is more than ${TAKEN_AT_AGE_DAYS_MAX} days ago.`);
  }
  return takenAt;
}

/** What a client_sale_id is bound to: the request's canonical JSON (RFC 8785), hashed. */
export function clientRequestFingerprint(input: CreateSaleInput): Buffer {
  return createHash("sha256")
    .update(canonicalize(JSON.parse(JSON.stringify(input))) ?? "null")
    .digest();
}

/**
 * The sale a till already recorded under the request's client_sale_id, if any (a replay of a queued
 * sale); refused when that id was recorded with another request. Outlives the Idempotency-Key.
 */
export async function findClientSale(
  dependencies: SaleDependencies,
  tenant: Tenant,
  input: CreateSaleInput,
): Promise<{ sale: SaleRow; payment: PaymentRow | null } | null> {
  if (input.client_sale_id === undefined) {
    return null;
  }
  const recorded = await queries.selectSaleByClientId(dependencies.database, tenant, input.client_sale_id);
  if (recorded === null) {
    return null;
  }
  if (!recorded.client_request_fingerprint.equals(clientRequestFingerprint(input))) {
    throw conflict(
      "client_sale_id_mismatch",
      `client_sale_id ${input.client_sale_id} names sale ${recorded.id}, recorded with a different request. ` +
        "A new sale needs a new client_sale_id.",
    );
  }
  return getSale(dependencies, tenant, recorded.id);
}

/** Thrown when a sale's statement fails because a concurrent request recorded the same client_sale_id first. */
export class ClientSaleIdTaken extends Error {
  readonly clientSaleId: string;
  constructor(clientSaleId: string) {
    super(`client_sale_id ${clientSaleId} was recorded concurrently`);
    this.clientSaleId = clientSaleId;
  }
}

export type PreparedSale = Awaited<ReturnType<typeof prepareSale>>;

/**
 * Phase one, outside any transaction: read the products, price the basket, and for a wallet sale have
 * the payments service prepare the payment (the gateway issues its code: a slow external call).
 */
export async function prepareSale(dependencies: SaleCreationDependencies, tenant: Tenant, input: CreateSaleInput) {
  // Before any query: the basket's size bounds the product lookup.
  assertItemCount(input.items.length);
  const takenAt = checkTakenAt(input, Date.now());
  const productIds = input.items.flatMap((item) => (item.product_id === undefined ? [] : [item.product_id]));
  const products = productIds.length === 0 ? new Map() : await dependencies.readProducts(tenant.merchantId, productIds);
  const priced = priceSale(input, products);
  const id = newId("sale");
  const payment =
    input.tender === "wallet"
      ? await payments.preparePayment(dependencies, tenant, {
          amount_cents: priced.total_cents,
          currency: priced.currency,
          narration: "Till sale",
          metadata: { sale_id: id },
        })
      : null;
  const clientRequest =
    input.client_sale_id === undefined
      ? null
      : { clientSaleId: input.client_sale_id, fingerprint: clientRequestFingerprint(input) };
  return { id, input, priced, payment, takenAt, clientRequest };
}

/**
 * The sale row a prepared sale becomes, as the answer shows it before it is written: created now (the
 * API's clock, as a payment's creation), taken when the till says (else now), completed then if cash.
 */
function saleToInsert(
  tenant: Tenant,
  prepared: PreparedSale,
  recorded: { status: "completed" | "pending"; paymentId: string | null; shiftId: string | null },
): queries.SaleToInsert {
  const createdAt = new Date();
  const takenAt = prepared.takenAt ?? createdAt;
  return {
    merchant_id: tenant.merchantId,
    id: prepared.id,
    livemode: tenant.livemode,
    status: recorded.status,
    tender: prepared.input.tender,
    currency: prepared.priced.currency,
    total_cents: prepared.priced.total_cents,
    items: prepared.priced.items,
    cashier: emptyToNull(prepared.input.cashier),
    note: emptyToNull(prepared.input.note),
    payment_id: recorded.paymentId,
    actor_type: tenant.actor.kind,
    actor_id: tenant.actor.id,
    client_sale_id: prepared.clientRequest?.clientSaleId ?? null,
    client_request_fingerprint: prepared.clientRequest?.fingerprint ?? null,
    taken_at: takenAt,
    // A wallet sale rung up on a paired till is that till's even when the request does not name it
    // (the dashboard's Sales shows its till); a cash sale names its drawer itself (its shift hangs on it).
    till_id:
      prepared.input.till_id ??
      (prepared.input.tender === "wallet" && tenant.session?.kind === "till" ? tenant.session.deviceId : null),
    shift_id: recorded.shiftId,
    receipt_token: newReceiptToken(),
    created_at: createdAt,
    completed_at: recorded.status === "completed" ? takenAt : null,
    cancelled_at: null,
  };
}

const emptyToNull = (value: string | undefined) => (value === undefined || value === "" ? null : value);

const saleCompletedEvent = (sale: SaleRow) => ({
  merchantId: sale.merchant_id,
  livemode: sale.livemode,
  type: "sale.completed" as const,
  data: saleCompletedData(sale),
});

const saleMovesOf = (sale: SaleRow) => ({
  merchantId: sale.merchant_id,
  livemode: sale.livemode,
  saleId: sale.id,
  actor: { kind: sale.actor_type, id: sale.actor_id },
  lines: sale.items.map((item) => ({ productId: item.product_id, qty: item.qty })),
});

const countCompletion = (sale: SaleRow) =>
  salesTotal.inc({ tender: sale.tender, livemode: String(sale.livemode), currency: sale.currency });

/** The `sale.completed` payload (documented in the README's events table). */
export function saleCompletedData(sale: SaleRow) {
  return {
    sale_id: sale.id,
    tender: sale.tender,
    total_cents: sale.total_cents,
    currency: sale.currency,
    payment_id: sale.payment_id,
    cashier: sale.cashier,
    items: sale.items,
    completed_at: sale.completed_at?.toISOString() ?? null,
  };
}

/**
 * Wallet sales' completion with their payments' settlements (`EndEffects`): the pending sales paid by
 * `payments` (null when none is: ordinary payments, or sales already final) completed now, each with
 * its `sale.completed` and stock moves (a cash sale writes the same in its one statement), each
 * written only if its payment's settlement is. The stock moves lock the products' rows until the
 * commit, the statement's own end.
 */
function saleCompletions(database: Queryable, payments: readonly PaymentRow[]): Promise<SalesEndEffects | null> {
  return salesEnd(database, payments, (pending) => {
    const completedAt = new Date();
    const sales = pending.map((sale) => ({ ...sale, status: "completed" as const, completed_at: completedAt }));
    return {
      end: queries.completeSalesCtes(sales, {
        events: (completed) =>
          events.emitEachWhen(
            sales.map((sale) => ({ event: events.prepareEvent(saleCompletedEvent(sale)), subject: sale.id })),
            completed,
          ),
        stockMoves: (completed) => stock.salesMovesCtes(sales.map(saleMovesOf), completed),
      }),
      afterCommit: (paidPaymentIds) => {
        for (const sale of sales) {
          if (sale.payment_id !== null && paidPaymentIds.has(sale.payment_id)) countCompletion(sale);
        }
      },
    };
  });
}

/** Wallet sales' cancellation with their payments' unpaid end (expired or failed): nothing moves. */
function saleCancellations(database: Queryable, payments: readonly PaymentRow[]): Promise<SalesEndEffects | null> {
  return salesEnd(database, payments, (pending) => ({ end: queries.cancelSalesCtes(pending), afterCommit: () => {} }));
}

/** `EndEffects`, and `endAlone`: the same written in a statement of its own (true if any sale ended). */
type SalesEndEffects = EndEffects & { endAlone: () => Promise<boolean> };

/**
 * The end of the pending sales paid by `payments` as `ending` makes it, or null when none is pending.
 * A payment made for a sale carries the sale's id in its metadata: other payments cost no query.
 */
async function salesEnd(
  database: Queryable,
  payments: readonly PaymentRow[],
  ending: (pending: readonly SaleRow[]) => { end: queries.SalesEnd; afterCommit: EndEffects["afterCommit"] },
): Promise<SalesEndEffects | null> {
  const salePayments = payments.filter((payment) => typeof payment.metadata.sale_id === "string");
  if (salePayments.length === 0) {
    return null;
  }
  const pending = await queries.selectPendingSalesOfPayments(
    database,
    salePayments.map((payment) => ({
      merchantId: payment.merchant_id,
      livemode: payment.livemode,
      paymentId: payment.id,
    })),
  );
  if (pending.length === 0) {
    return null;
  }
  const { end, afterCommit } = ending(pending);
  return { shape: end.shape, ctes: end.ctes, endAlone: () => queries.endSales(database, end), afterCommit };
}

/**
 * Given to payments by the composition (`src/wiring/modules.ts`, `paymentHooks`): wallet sales
 * complete in their payments' settlement statement, or are cancelled in the statement that ends
 * their payment unpaid.
 */
export const salePaymentHook: PaymentHook = {
  onSettling: saleCompletions,
  onEndingUnpaid: saleCancellations,
};

async function findSale(database: Queryable, world: World, saleId: string): Promise<SaleRow> {
  const sale = await queries.selectSale(database, world, saleId);
  if (sale === null) {
    throw notFound(`No such sale: ${saleId}.`);
  }
  return sale;
}

/**
 * A sale; a pending wallet sale first refreshes its payment through the payments service (throttled
 * there), whose settlement or expiry finalises the sale in its own transaction through the hook.
 */
export async function getSale(
  dependencies: SaleDependencies,
  world: World,
  saleId: string,
): Promise<{ sale: SaleRow; payment: PaymentRow | null }> {
  const sale = await findSale(dependencies.database, world, saleId);
  if (sale.payment_id === null) {
    return { sale, payment: null };
  }
  const payment = await payments.getPayment(dependencies.database, world, sale.payment_id);
  if (sale.status !== "pending") {
    return { sale, payment };
  }
  const refreshed = await payments.refreshPayment(dependencies, payment);
  if (refreshed.status === "pending") {
    return { sale, payment: refreshed };
  }
  const finished = await findSale(dependencies.database, world, saleId);
  if (finished.status === "pending") {
    // The payment ended in a process that had no sales hook (an older release during a rolling
    // deploy): finish the sale now, once, as the hook would have.
    dependencies.logger.warn(
      { sale_id: sale.id, payment_id: refreshed.id },
      "finishing a sale its payment left pending",
    );
    const end = await (refreshed.status === "paid" ? saleCompletions : saleCancellations)(dependencies.database, [
      refreshed,
    ]);
    if (end !== null && (await end.endAlone())) {
      end.afterCommit(new Set([refreshed.id]));
    }
    return { sale: await findSale(dependencies.database, world, saleId), payment: refreshed };
  }
  return { sale: finished, payment: refreshed };
}

/**
 * Waits, up to `timeoutMs`, for a pending sale to leave `pending`: woken by the NOTIFY of the
 * transaction that finishes it, on the process's one listening connection (no pool connection is held
 * while waiting). The sale is read again once LISTEN is in effect, so an end committed just before is
 * not missed. Returns when it ended, the time is up, or the request was abandoned.
 */
export async function waitForSaleEnd(
  dependencies: { database: Queryable; notifications: Notifications },
  world: World,
  request: { saleId: string; timeoutMs: number; signal: AbortSignal },
): Promise<void> {
  const subscription = dependencies.notifications.subscribe({
    channel: queries.SALE_FINISHED_CHANNEL,
    payload: request.saleId,
    timeoutMs: request.timeoutMs,
    signal: request.signal,
  });
  try {
    await subscription.listening;
    const sale = await queries.selectSale(dependencies.database, world, request.saleId);
    if (sale !== null && sale.status === "pending") {
      await subscription.woken;
    }
  } catch {
    // No listening connection: answer now rather than fail; the client asks again.
  } finally {
    subscription.cancel();
  }
}

export async function listSales(
  database: Queryable,
  filter: World & {
    status: SaleStatus | undefined;
    from: Date | undefined;
    to: Date | undefined;
    cashierId: string | undefined;
    receiptToken: string | undefined;
    limit: number;
    cursor: string | undefined;
  },
): Promise<Page<SaleRow>> {
  const after = decodeCreatedAtCursor(filter.cursor);
  const rows = await queries.selectSales(database, { ...filter, after, limit: filter.limit + 1 });
  return toPage(rows, { limit: filter.limit, keyOf: createdAtKey, present: (row) => row });
}

/**
 * Takings of completed sales in a period (by completion time): totals, per tender, best sellers.
 * Default period: today in the merchant's time zone. Both currencies and tenders are always listed.
 */
export async function salesReport(
  database: Queryable,
  request: World & {
    timezone: string;
    from: Date | undefined;
    to: Date | undefined;
    top: number;
    cashierId: string | undefined;
  },
) {
  let { from, to } = request;
  if (from === undefined || to === undefined) {
    const today = await queries.selectToday(database, request.timezone);
    from ??= today.day_start;
    to ??= today.day_end;
  }
  if (from >= to) {
    throw invalidRequest("parameter_invalid", "from must be before to.");
  }
  if (to.getTime() - from.getTime() > REPORT_PERIOD_DAYS_MAX * 86_400_000) {
    throw invalidRequest("parameter_invalid", `A report covers at most ${REPORT_PERIOD_DAYS_MAX} days.`);
  }
  const period = {
    merchantId: request.merchantId,
    livemode: request.livemode,
    from,
    to,
    cashierId: request.cashierId,
  };
  const [tenderRows, topProducts] = await Promise.all([
    queries.selectTenderTotals(database, period),
    queries.selectTopProducts(database, { ...period, top: request.top }),
  ]);
  const byCurrency = (rows: readonly { currency: Currency; count: number; total_cents: number }[]) =>
    currencies.map((currency) => {
      const matching = rows.filter((row) => row.currency === currency);
      return {
        currency,
        count: matching.reduce((sum, row) => sum + row.count, 0),
        total_cents: matching.reduce((sum, row) => sum + row.total_cents, 0),
      };
    });
  return {
    object: "sales_report" as const,
    livemode: request.livemode,
    timezone: request.timezone,
    from: from.toISOString(),
    to: to.toISOString(),
    totals: {
      count: tenderRows.reduce((sum, row) => sum + row.count, 0),
      by_currency: byCurrency(tenderRows),
    },
    by_tender: tenders.map((tender) => {
      const rows = tenderRows.filter((row) => row.tender === tender);
      return { tender, count: rows.reduce((sum, row) => sum + row.count, 0), by_currency: byCurrency(rows) };
    }),
    top_products: topProducts,
  };
}
