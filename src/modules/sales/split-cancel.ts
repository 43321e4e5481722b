import type { World } from "../../kernel/world.ts";
import { ApiError } from "../../platform/errors.ts";
import type { Actor } from "../../platform/tenant.ts";
import { cancelPayment, payments } from "../payments/index.ts";
import { shifts } from "../shifts/index.ts";
import { cancelSalesCtes, endSales } from "./payment-end-queries.ts";
import type { SaleDependencies } from "./reading.ts";
import { lockSale } from "./return-queries.ts";
import type { SaleRow } from "./schemas.ts";
import { completeIfPaid } from "./tender-end.ts";
import * as queries from "./tender-queries.ts";
import { paidCentsOf, tenderRefundShares } from "./tender-refunds.ts";

/**
 * Cancelling a pending split sale gives back what was paid (docs/shop.md, "Split and two-currency
 * tender"): its pending wallet tenders' payments are cancelled first (the gateway voids their codes);
 * then, in one transaction under the sale's row lock, what its paid tenders contributed is paid back
 * in cash from the open shift of the sale's till (the drawer its cash went into; a sale of no till put
 * its cash in none and gives back from none), each tender's share in its own currency (`sale_cancel`
 * moves, as a full return's shares: the last tender first), and the sale is cancelled. A wallet tender paid
 * in the meantime is given back with the rest; one that paid the sale whole completed it instead, and
 * the caller answers `sale_not_pending`.
 */
export async function cancelSplitSale(
  dependencies: SaleDependencies,
  world: World & { actor: Actor },
  sale: SaleRow,
): Promise<void> {
  const before = await queries.selectTendersOfSales(dependencies.database, world.merchantId, [sale.id]);
  for (const tender of before) {
    if (tender.status !== "pending" || tender.payment_id === null) continue;
    const payment = await payments.getPayment(dependencies.database, world, tender.payment_id);
    try {
      await cancelPayment(dependencies, payment);
    } catch (error) {
      if (!(error instanceof ApiError && error.code === "payment_not_pending")) throw error;
    }
  }
  await dependencies.database.transaction(async (transaction) => {
    const locked = await lockSale(transaction, world, sale.id);
    if (locked === null || locked.status !== "pending") {
      return;
    }
    // Tenders whose payments ended without the hook (an older release) end now, as their payments did.
    for (const tender of await queries.selectTendersOfSales(transaction, world.merchantId, [sale.id])) {
      if (tender.status !== "pending" || tender.payment_id === null) continue;
      const payment = await payments.getPayment(transaction, world, tender.payment_id);
      await queries.endTenderAlone(transaction, tender, payment.status === "paid" ? "paid" : "failed");
    }
    const tenders = await queries.selectTendersOfSales(transaction, world.merchantId, [sale.id]);
    if ((await completeIfPaid(transaction, locked, tenders)).status === "completed") {
      return;
    }
    const shares = tenderRefundShares(tenders, paidCentsOf(tenders));
    const shift =
      locked.till_id === null || shares.length === 0
        ? null
        : await shifts.lockOpenShiftOfTill(transaction, world, locked.till_id);
    for (const share of shares) {
      if (shift === null) break;
      await shifts.recordSaleCash(transaction, {
        merchantId: world.merchantId,
        shiftId: shift.id,
        kind: "sale_cancel",
        saleId: sale.id,
        returnId: null,
        currency: share.currency,
        amountCents: -share.amountCents,
        actor: world.actor,
      });
    }
    await endSales(
      transaction,
      cancelSalesCtes([{ merchant_id: locked.merchant_id, id: locked.id, payment_id: null }]),
    );
  });
}
