import type { Currency } from "../../../src/kernel/money.ts";
import { queueSale } from "../offline/index.ts";
import { type PrintableReceipt, printedCart } from "../receipt/printable.ts";
import { withTillId } from "../shift/till-id.ts";
import { activeWorld } from "../world.ts";
import {
  cart,
  cartCurrency,
  cartDiscount,
  cartTotalCents,
  clearCart,
  pricedCart,
  saleDiscount,
  saleItems,
} from "./cart.ts";
import type { Completed } from "./sale-api.ts";
import type { SplitFields } from "./tender-plan.ts";

/** How a sale paid in cash only was paid: one cash tender with what was handed over, or several tenders. */
export type CashPayment = { tender: "cash"; tendered_cents: number } | SplitFields;

/**
 * Keeps a cart paid in cash only (in one currency or two) in the offline outbox, which keeps it in the
 * browser with its Idempotency-Key, client_sale_id and time and sends it (now, or when the network is
 * back): a cash sale never waits for the network, and the server records it once. The cart is then
 * cleared and the sale answered finished, with its change. `paid`: a split sale's tenders and change
 * as its receipt prints them (`printedTenders`).
 */
export async function keepCashSale(
  payment: CashPayment,
  change: Completed["change"],
  paid?: Pick<PrintableReceipt, "tenders" | "change">,
): Promise<Completed> {
  const world = activeWorld();
  const lines = cart.value;
  const currency: Currency = cartCurrency.value ?? "USD";
  const total = cartTotalCents.value;
  // The receipt's lines, discounts and tax as the server's sale will carry them (read before the cart clears).
  const printed = printedCart(lines, pricedCart.value, cartDiscount.value);
  const queued = await queueSale({
    world,
    body: withTillId({ currency, items: saleItems(lines), ...saleDiscount(), ...payment }),
    totalCents: total,
    currency,
  });
  clearCart();
  const tender = "tenders" in payment ? "split" : "cash";
  return {
    sale: { tender, currency, total_cents: total },
    change,
    clientSaleId: queued.client_sale_id,
    receipt: {
      kind: "sale",
      livemode: world === "live",
      at: queued.taken_at,
      currency,
      ...printed,
      totalCents: total,
      tender,
      // What was handed over goes with a cash sale, so its receipt shows tendered and change.
      tenderedCents: "tenders" in payment ? null : payment.tendered_cents,
      ...paid,
    },
  };
}
