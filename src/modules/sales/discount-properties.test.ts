import fc from "fast-check";
import { salesTestWorld } from "../../../tests/support/sales.ts";
import { type Discount, priceBasket, type TaxMode } from "../../kernel/basket.ts";
import { sql } from "../../platform/db/pool.ts";

/**
 * For random baskets (rates, line and cart discounts, both tax modes), the total the API keeps is
 * the one `priceBasket` gives the till, and returning every unit, in two returns, refunds exactly it.
 */

const world = salesTestWorld();
const SEED = 47_2027;

type ApiDiscount = { type: "percent"; percent_bp: number } | { type: "amount"; amount_cents: number };
const discountArb: fc.Arbitrary<ApiDiscount | undefined> = fc.oneof(
  fc.constant(undefined),
  fc.record({ type: fc.constant("percent" as const), percent_bp: fc.integer({ min: 1, max: 10_000 }) }),
  fc.record({ type: fc.constant("amount" as const), amount_cents: fc.integer({ min: 1, max: 20_000 }) }),
);
const basketArb = fc.record({
  taxMode: fc.constantFrom<TaxMode>("inclusive", "exclusive"),
  lines: fc.array(
    fc.record({
      unitCents: fc.integer({ min: 1, max: 50_000 }),
      qty: fc.integer({ min: 1, max: 6 }),
      rateBp: fc.constantFrom(0, 500, 1_500, 1_550),
      discount: discountArb,
    }),
    { minLength: 1, maxLength: 5 },
  ),
  cartDiscount: discountArb,
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
      await world.db.database.query(sql.unsafe`
        INSERT INTO shop_profiles (merchant_id, tax_mode) VALUES (${world.shop.id}, ${basket.taxMode})
        ON CONFLICT (merchant_id) DO UPDATE SET tax_mode = EXCLUDED.tax_mode`);
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
