import type { World } from "../../kernel/world.ts";
import { requireDatabaseUrl } from "../../platform/config.ts";
import { type Notifications, sharedNotifications } from "../../platform/db/notifications.ts";
import type { Queryable } from "../../platform/db/pool.ts";
import { notFound } from "../../platform/errors.ts";
import { newestFirstPage, type Page } from "../../platform/http/pagination.ts";
import type { Tenant } from "../../platform/tenant.ts";
import type { PaymentRow } from "../payments/index.ts";
import { payments } from "../payments/index.ts";
import { endSaleLeftPending } from "./payment-end.ts";
import * as queries from "./queries.ts";
import * as returnQueries from "./return-queries.ts";
import type { SaleReturnRow } from "./return-schemas.ts";
import type { SaleRow, SaleStatus } from "./schemas.ts";
import { completeSplitSaleIfPaid } from "./tender-end.ts";
import * as tenderQueries from "./tender-queries.ts";
import type { SaleTenderRow } from "./tender-schemas.ts";

/**
 * Reading sales: one (a pending wallet sale refreshes its payment first, and may be waited for until
 * it ends: the long poll of `GET /v1/sales/:id`), or a page of them.
 */

export type SaleDependencies = payments.PaymentDependencies;
/**
 * A sale as the API shows it: with its payment (null for cash; a split sale's newest wallet tender's),
 * its returns, oldest first, and a split sale's tenders (none for a sale of one tender).
 */
export type SaleView = {
  sale: SaleRow;
  payment: PaymentRow | null;
  returns: readonly SaleReturnRow[];
  tenders?: readonly SaleTenderRow[];
};

export const withReturns = async (
  database: Queryable,
  recorded: { sale: SaleRow; payment: PaymentRow | null },
): Promise<SaleView> => {
  const { sale } = recorded;
  const [returns, tenders] = await Promise.all([
    returnQueries.selectReturnsOfSales(database, sale.merchant_id, [sale.id]),
    sale.tender === "split" ? tenderQueries.selectTendersOfSales(database, sale.merchant_id, [sale.id]) : [],
  ]);
  return { ...recorded, returns, tenders };
};

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
  if (sale.tender === "split") {
    return getSplitSale(dependencies, world, sale);
  }
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
    dependencies.logger.warn(
      { sale_id: sale.id, payment_id: refreshed.id },
      "finishing a sale its payment left pending",
    );
    await endSaleLeftPending(dependencies.database, refreshed);
    return { sale: await findSale(dependencies.database, world, saleId), payment: refreshed };
  }
  return { sale: finished, payment: refreshed };
}

/**
 * A split sale; while pending, its pending wallet tenders' payments are refreshed first (their ends
 * end the tenders, and may complete the sale, through the hook), then the sale is completed if its
 * tenders pay it and the hook could not tell (`completeSplitSaleIfPaid`). Its payment is its newest
 * wallet tender's.
 */
async function getSplitSale(
  dependencies: SaleDependencies,
  world: World,
  sale: SaleRow,
): Promise<{ sale: SaleRow; payment: PaymentRow | null }> {
  const tenders = await tenderQueries.selectTendersOfSales(dependencies.database, sale.merchant_id, [sale.id]);
  const paymentIds = tenders.flatMap((tender) => (tender.payment_id === null ? [] : [tender.payment_id]));
  const walletPayments = await Promise.all(
    paymentIds.map((id) => payments.getPayment(dependencies.database, world, id)),
  );
  if (sale.status !== "pending") {
    return { sale, payment: walletPayments.at(-1) ?? null };
  }
  const pendingIds = new Set(tenders.flatMap((tender) => (tender.status === "pending" ? [tender.payment_id] : [])));
  const refreshed = await Promise.all(
    walletPayments.map((payment) =>
      pendingIds.has(payment.id) ? payments.refreshPayment(dependencies, payment) : payment,
    ),
  );
  const endedNow = refreshed.filter((payment) => pendingIds.has(payment.id) && payment.status !== "pending");
  const latest = await findSale(dependencies.database, world, sale.id);
  if (latest.status === "pending" && (endedNow.length > 0 || tenders.every((tender) => tender.status !== "pending"))) {
    await completeSplitSaleIfPaid(dependencies.database, world, sale.id, endedNow);
    return { sale: await findSale(dependencies.database, world, sale.id), payment: refreshed.at(-1) ?? null };
  }
  return { sale: latest, payment: refreshed.at(-1) ?? null };
}

/**
 * Waits, up to `timeoutMs`, for a pending sale to leave `pending` (a split sale: for its waiting wallet
 * tender to end): woken by the NOTIFY of the transaction that finishes it or ends a tender, on the
 * process's one listening connection (no pool connection is held while waiting). The sale is read
 * again once LISTEN is in effect, so an end committed just before is not missed: a split sale with no
 * tender pending any more (its wallet failed just before) answers at once. Returns when it ended, the
 * time is up, or the request was abandoned.
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
    if (sale !== null && sale.status === "pending" && (await awaitsTender(dependencies.database, sale))) {
      await subscription.woken;
    }
  } catch {
    // No listening connection: answer now rather than fail; the client asks again.
  } finally {
    subscription.cancel();
  }
}

/** Whether a pending sale waits on a payment: a sale of one tender does; a split sale, while a tender is pending. */
async function awaitsTender(database: Queryable, sale: SaleRow): Promise<boolean> {
  if (sale.tender !== "split") {
    return true;
  }
  const tenders = await tenderQueries.selectTendersOfSales(database, sale.merchant_id, [sale.id]);
  return tenders.some((tender) => tender.status === "pending");
}

/** A page of the world's sales, newest first, each with its returns (oldest first) and without its payment. */
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
): Promise<Page<SaleView>> {
  const page = await newestFirstPage(filter, (keyset) => queries.selectSales(database, { ...filter, ...keyset }));
  const [returns, tenders] = await Promise.all([
    returnQueries.selectReturnsOfSales(
      database,
      filter.merchantId,
      page.data.map((sale) => sale.id),
    ),
    tenderQueries.selectTendersOfSales(
      database,
      filter.merchantId,
      page.data.flatMap((sale) => (sale.tender === "split" ? [sale.id] : [])),
    ),
  ]);
  const returnsOf = Map.groupBy(returns, (saleReturn) => saleReturn.sale_id);
  const tendersOf = Map.groupBy(tenders, (tender) => tender.sale_id);
  // Each sale's returns keep the query's order: oldest first; its tenders the order taken.
  return {
    ...page,
    data: page.data.map((sale) => ({
      sale,
      payment: null,
      returns: returnsOf.get(sale.id) ?? [],
      tenders: tendersOf.get(sale.id) ?? [],
    })),
  };
}
