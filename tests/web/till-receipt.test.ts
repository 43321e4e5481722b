import fc from "fast-check";
import { type Discount, priceBasket, type TaxMode } from "../../src/kernel/basket.ts";
import type { ProductRow } from "../../src/modules/catalog/schemas.ts";
import { priceSale } from "../../src/modules/sales/pricing.ts";
import type { Product } from "../../web/till/catalog/product.ts";
import { printedCart } from "../../web/till/receipt/printable.ts";
import type { CartLine, DiscountGiven } from "../../web/till/sell/cart.ts";

/**
 * The till prints a cash sale's receipt before the server has the sale (`printedCart`): for random
 * carts, its lines' discounts and reasons, the cart's reason and the tax per rate are what the API's
 * pricing (`priceSale`) will record, so the printed receipt and the receipt page agree.
 */

const SEED = 47_2026;

const discountArb: fc.Arbitrary<DiscountGiven | undefined> = fc.oneof(
  fc.constant(undefined),
  fc.record({
    discount: fc.oneof(
      fc.record({ kind: fc.constant("percent" as const), basisPoints: fc.integer({ min: 0, max: 10_000 }) }),
      fc.record({ kind: fc.constant("amount" as const), cents: fc.integer({ min: 0, max: 5_000 }) }),
    ) as fc.Arbitrary<Discount>,
    reason: fc.constantFrom("", "Loyal customer", "Damaged"),
  }),
);
const lineArb = fc.record({
  unit_cents: fc.integer({ min: 0, max: 100_000 }),
  qty: fc.integer({ min: 1, max: 20 }),
  tax_rate_bp: fc.constantFrom(null, 0, 1_500, 1_550),
  discount: discountArb,
});

const product = (index: number, taxRateBp: number | null): Product => ({
  id: `prod_${index}`,
  object: "product",
  name: `Item ${index}`,
  sku: null,
  barcode: null,
  category: null,
  price_cents: null,
  currency: "USD",
  track_stock: false,
  stock_qty: null,
  low_stock_at: 0,
  low_stock: false,
  tax_rate_bp: taxRateBp,
  active: true,
  created_at: "2026-11-28T00:00:00.000Z",
  updated_at: "2026-11-28T00:00:00.000Z",
});

const row = (each: Product): ProductRow => ({
  ...each,
  merchant_id: "mer_1",
  stock_qty: 0,
  tax_rate_bp: each.tax_rate_bp ?? null,
  created_at: new Date(0),
  updated_at: new Date(0),
});

/** A discount as the till sends it (cart.ts's apiDiscount). */
const sent = (given: DiscountGiven | undefined) =>
  given === undefined
    ? {}
    : {
        discount:
          given.discount.kind === "percent"
            ? { type: "percent" as const, percent_bp: given.discount.basisPoints }
            : { type: "amount" as const, amount_cents: given.discount.cents },
        ...(given.reason === "" ? {} : { discount_reason: given.reason }),
      };

test("the printed cart's discounts, reasons and taxes are the API's for the same sale", () => {
  fc.assert(
    fc.property(
      fc.array(lineArb, { minLength: 1, maxLength: 6 }),
      discountArb,
      fc.constantFrom<TaxMode>("inclusive", "exclusive"),
      fc.constantFrom(0, 1_500),
      (lines, cartDiscount, taxMode, defaultTaxRateBp) => {
        const cart: CartLine[] = lines.map((line, index) => ({
          key: String(index),
          product: product(index, line.tax_rate_bp),
          qty: line.qty,
          unit_cents: line.unit_cents,
          discount: line.discount,
        }));
        const priced = priceBasket(
          cart.map((line) => ({
            unitPriceCents: line.unit_cents,
            quantity: line.qty,
            taxRateBasisPoints: line.product.tax_rate_bp ?? defaultTaxRateBp,
            discount: line.discount?.discount ?? null,
          })),
          { cartDiscount: cartDiscount?.discount ?? null, taxMode },
        );
        const printed = printedCart(cart, priced, cartDiscount);
        const recorded = priceSale(
          {
            tender: "cash",
            currency: "USD",
            items: cart.map((line) => ({
              product_id: line.product.id,
              qty: line.qty,
              unit_cents: line.unit_cents,
              ...sent(line.discount),
            })),
            ...sent(cartDiscount),
          },
          new Map(cart.map((line) => [line.product.id, row(line.product)])),
          { taxMode, defaultTaxRateBp },
        );
        expect(printed.figures).toEqual({
          discount_cents: recorded.discount_cents,
          discount_reason: recorded.discount_reason,
          taxes: recorded.taxes,
        });
        printed.items.forEach((item, index) => {
          const line = recorded.items[index];
          // The receipt prints a line's discount when it has one, with its own reason.
          expect(item.discount_cents ?? 0).toBe(line?.discount_cents ?? 0);
          if ((line?.discount_cents ?? 0) > 0) expect(item.discount_reason).toBe(line?.discount_reason);
          expect(item.line_total_cents).toBe(line?.line_total_cents);
        });
      },
    ),
    { seed: SEED, numRuns: 300 },
  );
});
