import { paidPerLine, unitsRefundCents } from "../../kernel/refunds.ts";
import type { World } from "../../kernel/world.ts";
import type { Transaction } from "../../platform/db/pool.ts";
import { conflict, invalidRequest, notFound } from "../../platform/errors.ts";
import { requireOwnTill } from "../../platform/http/access.ts";
import type { TransactionWithAnswer } from "../../platform/idempotency/service.ts";
import { newId } from "../../platform/ids.ts";
import type { Actor, SessionFacts } from "../../platform/tenant.ts";
import { recordApproval, requireManager } from "../cashiers/index.ts";
import { events } from "../events/index.ts";
import { shifts } from "../shifts/index.ts";
import { stock } from "../stock/index.ts";
import { newReceiptToken } from "./receipt-token.ts";
import * as queries from "./return-queries.ts";
import type { CreateReturnInput, ReturnItem, SaleReturnRow } from "./return-schemas.ts";
import type { SaleRow } from "./schemas.ts";
import * as tenderQueries from "./tender-queries.ts";
import { tenderRefundShares } from "./tender-refunds.ts";
import type { ReturnRefund, SaleTenderRow } from "./tender-schemas.ts";

/**
 * Returns: some or all lines of a completed sale come back, refunded in cash at the sale's prices.
 *
 * Invariants (tested in `returns.test.ts`):
 * - per line, the units returned over all returns never exceed the units sold: the sale's row is
 *   locked while a return is decided, so concurrent returns of one sale are decided one at a time
 *   (`return_exceeds_sale`, 409, otherwise);
 * - the return, its stock moves (kind `return`: live on-hand back up, test journaled only; untracked
 *   products and ad hoc lines never move), the refund's cash move in the till's open shift and
 *   `sale.returned` commit together, once (the route is idempotent);
 * - the refund is cash whatever the sale's tender: a wallet sale's buyer is paid back from the drawer;
 *   a split sale's refund is spread over its tenders (`refundsOverTenders`), each share in its
 *   tender's currency out of the drawer in that currency.
 *
 * Error codes: `sale_not_completed`, `return_exceeds_sale`, `shift_not_open` (409),
 * `parameter_invalid` (400), `resource_missing` (404).
 */

/** Units of each line (by position) returned so far. */
export function returnedPerLine(returns: readonly Pick<SaleReturnRow, "items">[]): Map<number, number> {
  const returned = new Map<number, number>();
  for (const saleReturn of returns) {
    for (const item of saleReturn.items) {
      returned.set(item.line, (returned.get(item.line) ?? 0) + item.qty);
    }
  }
  return returned;
}

/** The returned lines as snapshots of the sale's lines; refuses lines that do not exist or are over-returned. */
export function returnLines(
  sale: Pick<SaleRow, "items" | "total_cents" | "tax_cents" | "taxes">,
  earlier: ReadonlyMap<number, number>,
  input: CreateReturnInput["items"],
): ReturnItem[] {
  const paid = paidPerLine(sale);
  return input.map((wanted) => {
    const line = sale.items[wanted.line];
    if (line === undefined) {
      throw invalidRequest(
        "parameter_invalid",
        `items: line ${wanted.line} does not exist; the sale has ${sale.items.length} lines (0 to ${sale.items.length - 1}).`,
      );
    }
    const alreadyReturned = earlier.get(wanted.line) ?? 0;
    if (alreadyReturned + wanted.qty > line.qty) {
      throw conflict(
        "return_exceeds_sale",
        `Line ${wanted.line} (${line.name}): ${line.qty} sold, ${alreadyReturned} returned already; ` +
          `${wanted.qty} more cannot be returned (at most ${line.qty - alreadyReturned}).`,
      );
    }
    return {
      line: wanted.line,
      product_id: line.product_id,
      name: line.name,
      qty: wanted.qty,
      unit_cents: line.unit_cents,
      // What these units were paid: after discounts, with tax added on top (src/kernel/refunds.ts).
      line_total_cents: unitsRefundCents(paid[wanted.line] ?? 0, line.qty, alreadyReturned, wanted.qty),
    };
  });
}

/** A return made: the return, its sale, the sale's returns as they now stand (this one included) and its tenders. */
export type ReturnMade = {
  sale: SaleRow;
  saleReturn: SaleReturnRow;
  returns: readonly SaleReturnRow[];
  tenders: readonly SaleTenderRow[];
};

type ReturnWorld = World & { actor: Actor; session?: SessionFacts | undefined };

/**
 * `POST /v1/sales/:id/returns`: the return and everything it does in one transaction, the route's
 * (`inTransaction`), in which the route's answer of it is stored too.
 */
export function createReturn(
  inTransaction: TransactionWithAnswer<ReturnMade>,
  world: ReturnWorld,
  saleId: string,
  input: CreateReturnInput,
): Promise<ReturnMade> {
  return inTransaction((transaction) => recordReturn(transaction, world, saleId, input));
}

async function recordReturn(
  transaction: Transaction,
  world: ReturnWorld,
  saleId: string,
  input: CreateReturnInput,
): Promise<ReturnMade> {
  requireOwnTill(world.session, input.till_id);
  // The route lets a till through with a manager or an approval; an approval must be for a return.
  const approval = await requireManager(transaction, world, "return");
  const { sale, earlier, tenders } = await lockReturnableSale(transaction, world, saleId);
  const items = returnLines(sale, returnedPerLine(earlier), input.items);
  const tillId = input.till_id ?? null;
  const shift = tillId === null ? null : await shifts.lockOpenShiftOfTill(transaction, world, tillId);
  const refundCents = items.reduce((sum, item) => sum + item.line_total_cents, 0);
  const saleReturn = await queries.insertReturn(transaction, {
    merchant_id: world.merchantId,
    id: newId("ret"),
    livemode: world.livemode,
    sale_id: sale.id,
    currency: sale.currency,
    refund_cents: refundCents,
    refund_tender: "cash",
    refunds: sale.tender === "split" ? refundsOverTenders(tenders, earlier, refundCents) : null,
    items,
    till_id: tillId,
    shift_id: shift?.id ?? null,
    reason: input.reason === undefined || input.reason === "" ? null : input.reason,
    actor_type: world.actor.kind,
    actor_id: world.actor.id,
    receipt_token: newReceiptToken(),
  });
  await recordReturnEffects(transaction, world, { sale, saleReturn });
  await recordApproval(transaction, world, approval, { type: "sale_return", id: saleReturn.id });
  // Last: the stock moves lock the products' rows until the commit (as a sale's do).
  await stock.recordReturn(transaction, {
    merchantId: world.merchantId,
    livemode: world.livemode,
    saleId: sale.id,
    returnId: saleReturn.id,
    actor: world.actor,
    lines: items.map((item) => ({ productId: item.product_id, qty: item.qty })),
  });
  // The sale's returns as they now stand, this one included, for the answer.
  const returns = await queries.selectReturnsOfSales(transaction, world.merchantId, [sale.id]);
  return { sale, saleReturn, returns, tenders };
}

/** The sale, locked (its returns are decided one at a time), with its returns so far and its tenders. */
async function lockReturnableSale(transaction: Transaction, world: ReturnWorld, saleId: string) {
  const sale = await queries.lockSale(transaction, world, saleId);
  if (sale === null) {
    throw notFound(`No such sale: ${saleId}.`);
  }
  if (sale.status !== "completed") {
    throw conflict("sale_not_completed", `Sale ${sale.id} is ${sale.status}: only a completed sale takes returns.`);
  }
  const [earlier, tenders] = await Promise.all([
    queries.selectReturnsOfSales(transaction, world.merchantId, [sale.id]),
    sale.tender === "split" ? tenderQueries.selectTendersOfSales(transaction, world.merchantId, [sale.id]) : [],
  ]);
  return { sale, earlier, tenders };
}

/**
 * A split sale's refund over its tenders (the kernel's `refundShares`: the last tender first): this
 * return's shares are what the sale's returns so far, this one included, come to per tender, less what
 * the earlier ones came to, so returns that add up to the whole sale give back exactly what each
 * tender paid.
 */
function refundsOverTenders(
  tenders: readonly SaleTenderRow[],
  earlier: readonly SaleReturnRow[],
  refundCents: number,
): ReturnRefund[] {
  const earlierCents = earlier.reduce((sum, saleReturn) => sum + saleReturn.refund_cents, 0);
  const before = tenderRefundShares(tenders, earlierCents);
  return tenderRefundShares(tenders, earlierCents + refundCents).flatMap((share) => {
    const already = before.find((earlierShare) => earlierShare.tenderIndex === share.tenderIndex)?.amountCents ?? 0;
    const amountCents = share.amountCents - already;
    return amountCents > 0
      ? [{ currency: share.currency, amount_cents: amountCents, tender_index: share.tenderIndex }]
      : [];
  });
}

/** The refund's cash out of the return's drawer (a share per tender, each in its currency) and `sale.returned`. */
async function recordReturnEffects(
  transaction: Transaction,
  world: ReturnWorld,
  made: { sale: SaleRow; saleReturn: SaleReturnRow },
): Promise<void> {
  const { sale, saleReturn } = made;
  const shares = saleReturn.refunds ?? [
    { currency: saleReturn.currency, amount_cents: saleReturn.refund_cents, tender_index: 0 },
  ];
  const shiftId = saleReturn.shift_id;
  for (const share of shares) {
    if (shiftId === null || share.amount_cents === 0) continue;
    await shifts.recordSaleCash(transaction, {
      merchantId: world.merchantId,
      shiftId,
      kind: "return",
      saleId: sale.id,
      returnId: saleReturn.id,
      currency: share.currency,
      amountCents: -share.amount_cents,
      actor: world.actor,
    });
  }
  await events.emit(transaction, {
    merchantId: world.merchantId,
    livemode: world.livemode,
    type: "sale.returned",
    data: {
      return_id: saleReturn.id,
      sale_id: sale.id,
      refund_cents: saleReturn.refund_cents,
      refund_tender: saleReturn.refund_tender,
      refunds: shares,
      currency: saleReturn.currency,
      items: saleReturn.items,
      till_id: saleReturn.till_id,
      shift_id: saleReturn.shift_id,
      created_at: saleReturn.created_at.toISOString(),
    },
  });
}
