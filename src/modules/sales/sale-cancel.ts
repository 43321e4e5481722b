import type { World } from "../../kernel/world.ts";
import { ApiError, conflict, notFound } from "../../platform/errors.ts";
import { requireOwnTill } from "../../platform/http/access.ts";
import type { Actor, SessionFacts } from "../../platform/tenant.ts";
import { cancelPayment, payments } from "../payments/index.ts";
import * as queries from "./queries.ts";
import { getSale, type SaleDependencies, type SaleView, withReturns } from "./reading.ts";
import { cancelSplitSale } from "./split-cancel.ts";

/**
 * `POST /v1/sales/:id/cancel`: a pending wallet sale is cancelled by cancelling its payment
 * (`payments/cancellation.ts`: the gateway voids the code, then the guarded end, whose hook cancels
 * the sale with nothing moved, in the same statement). Idempotent: a cancelled sale answers as it
 * is. A completed sale, or a cash sale (complete at once), answers 409 `sale_not_pending`, also when
 * its payment settled first. A pending split sale gives back what was paid (`split-cancel.ts`). A
 * till session cancels only its own till's sales, or sales of no till (403 `till_mismatch`).
 */
export async function cancelSale(
  dependencies: SaleDependencies,
  world: World & { actor: Actor; session?: SessionFacts },
  saleId: string,
): Promise<SaleView> {
  const sale = await queries.selectSale(dependencies.database, world, saleId);
  if (sale === null) {
    throw notFound(`No such sale: ${saleId}.`);
  }
  // A till cancels only its own sales: a split sale's cash comes back out of the sale's drawer.
  requireOwnTill(world.session, sale.till_id);
  if (sale.status === "pending" && sale.tender === "split") {
    await cancelSplitSale(dependencies, world, sale);
  } else if (sale.status === "pending" && sale.payment_id !== null) {
    const payment = await payments.getPayment(dependencies.database, world, sale.payment_id);
    try {
      await cancelPayment(dependencies, payment);
    } catch (error) {
      if (!(error instanceof ApiError && error.code === "payment_not_pending")) throw error;
    }
  }
  // Read through getSale: it also finishes a sale its payment's end left pending (an older release).
  const now = await getSale(dependencies, world, saleId);
  if (now.sale.status !== "cancelled") {
    throw conflict("sale_not_pending", `The sale is ${now.sale.status}: it can no longer be cancelled.`);
  }
  return withReturns(dependencies.database, now);
}
