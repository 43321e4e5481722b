import fc from "fast-check";
import { type ApiDiscount, apiDiscountArb, setTaxMode } from "../../../tests/support/discounts.ts";
import { salesTestWorld } from "../../../tests/support/sales.ts";
import { type Discount, priceBasket, type TaxMode } from "../../kernel/basket.ts";
import { sql } from "../../platform/db/pool.ts";

/**
 * For random baskets (rates, line and cart discounts, both tax modes), the total the API keeps is
 * the one `priceBasket` gives the till, and returning every unit, in two returns, refunds exactly it.
 */

const world = salesTestWorld();
const SEED = 47_2027;

const basketArb = fc.record({
  taxMode: fc.constantFrom<TaxMode>("inclusive", "exclusive"),
  lines: fc.array(
    fc.record({
      unitCents: fc.integer({ min: 1, max: 50_000 }),
      qty: fc.integer({ min: 1, max: 6 }),
      rateBp: fc.constantFrom(0, 500, 1_500, 1_550),
      discount: apiDiscountArb,
    }),
    { minLength: 1, maxLength: 5 },
  ),
  cartDiscount: apiDiscountArb,
});

const toBasket = (discount: ApiDiscount | undefined): Discount | null =>
  discount === undefined
    ? null
    : discount.type === "percent"
      ? { kind: "percent", basisPoints: discount.percent_bp }
      : { kind: "amount", cents: discount.amount_cents };

test("the API's stored total is priceBasket's, and a full return refunds exactly it", async () => {
  await fc.assert(
    fc.asyncProperty(basketArb, async (basket) => {
      await setTaxMode(world.db, world.shop.id, basket.taxMode);
      const sale = await world.live.post("/v1/sales", {
        tender: "cash",
        items: basket.lines.map((line) => ({
          name: "Item",
          qty: line.qty,
          unit_cents: line.unitCents,
          tax_rate_bp: line.rateBp,
          ...(line.discount === undefined ? {} : { discount: line.discount }),
        })),
        ...(basket.cartDiscount === undefined ? {} : { discount: basket.cartDiscount }),
      });
      expect(sale.status).toBe(201);
      const priced = priceBasket(
        basket.lines.map((line) => ({
          unitPriceCents: line.unitCents,
          quantity: line.qty,
          taxRateBasisPoints: line.rateBp,
          discount: toBasket(line.discount),
        })),
        { cartDiscount: toBasket(basket.cartDiscount), taxMode: basket.taxMode },
      );
      const stored = await world.db.database.one(sql.unsafe`
        SELECT total_cents, discount_cents, tax_cents FROM sales WHERE id = ${sale.body.id}`);
      expect(stored).toEqual({
        total_cents: priced.totalCents,
        discount_cents: priced.discountCents,
        tax_cents: priced.taxCents,
      });
      // One unit of each line first, then the rest: the refunds sum to the total exactly.
      const first = await world.live.post(`/v1/sales/${sale.body.id}/returns`, {
        items: basket.lines.map((_, line) => ({ line, qty: 1 })),
      });
      const restLines = basket.lines.flatMap((line, index) =>
        line.qty > 1 ? [{ line: index, qty: line.qty - 1 }] : [],
      );
      const rest =
        restLines.length === 0
          ? 0
          : (await world.live.post(`/v1/sales/${sale.body.id}/returns`, { items: restLines })).body.sale_return
              .refund_cents;
      expect(first.body.sale_return.refund_cents + rest).toBe(priced.totalCents);
    }),
    { seed: SEED, numRuns: 40 },
  );
});
