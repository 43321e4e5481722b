import type { PricedBasket } from "../../../src/kernel/basket.ts";
import type { Currency } from "../../../src/kernel/money.ts";
import type { ShownTender } from "../../../src/kernel/tender-text.ts";
import type { Sale } from "../../lib/api.ts";
import type { CartLine, DiscountGiven } from "../sell/cart.ts";

/**
 * A line as the receipt prints it: a sale's carries what came off it (its own discount and its share
 * of the cart's, as the API's sale line says) and its own discount's reason.
 */
export type PrintedLine = {
  name: string;
  qty: number;
  unit_cents: number;
  line_total_cents: number;
  discount_cents?: number | undefined;
  discount_reason?: string | undefined;
};

/** A sale's discounts (lines' and cart's together, the cart's reason) and its tax per rate above 0. */
export type SaleFigures = Pick<Sale, "discount_cents" | "discount_reason" | "taxes">;

/**
 * What the till's printed receipt shows of a sale or a return, known at the till even before the
 * server has a cash sale (the outbox sends it later): `tenderedCents` is the cash handed over (null:
 * not told, or wallet); `at`, when it was rung up (ISO); `figures`, a sale's discounts and tax (the
 * server's sale itself fits), printed as the receipt page prints them; `tenders` and `change`, a split
 * sale's tenders (with their rates and states) and its change, in its currency; `refunds`, a return's
 * refund per currency (its shares over a split sale's tenders).
 */
export type PrintableReceipt = {
  kind: "sale" | "return";
  livemode: boolean;
  at: string;
  currency: Currency;
  items: readonly PrintedLine[];
  totalCents: number;
  tender: "cash" | "wallet" | "split";
  tenderedCents: number | null;
  figures?: SaleFigures;
  tenders?: readonly ShownTender[];
  change?: Money | null;
  refunds?: readonly Money[] | null;
};

type Money = { currency: Currency; amount_cents: number };

/**
 * The cart's lines and figures as the receipt prints them, from the cart priced by the kernel's
 * `priceBasket` (the API's own pricing): the same discounts, reasons and tax lines the server's sale
 * will carry, so a cash sale prints before the outbox has sent it.
 */
export function printedCart(
  lines: readonly CartLine[],
  priced: PricedBasket,
  cartDiscount: DiscountGiven | undefined,
): Pick<PrintableReceipt, "items" | "figures"> {
  const items = lines.map((line, index) => {
    const pricedLine = priced.lines[index];
    const reason = line.discount?.reason;
    return {
      name: line.product.name,
      qty: line.qty,
      unit_cents: line.unit_cents,
      line_total_cents: line.qty * line.unit_cents,
      discount_cents: pricedLine === undefined ? 0 : pricedLine.lineDiscountCents + pricedLine.cartDiscountCents,
      discount_reason: reason === "" ? undefined : reason,
    };
  });
  return {
    items,
    figures: {
      discount_cents: priced.discountCents,
      discount_reason: cartDiscount === undefined || cartDiscount.reason === "" ? null : cartDiscount.reason,
      // Rate 0 is no tax: the sale keeps only the rates above it.
      taxes: priced.taxes
        .filter((tax) => tax.rateBasisPoints > 0)
        .map((tax) => ({ rate_bp: tax.rateBasisPoints, taxable_cents: tax.taxableCents, tax_cents: tax.taxCents })),
    },
  };
}
