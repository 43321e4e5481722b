import fc from "fast-check";
import { type Discount, priceBasket, type TaxMode } from "./basket.ts";
import { paidPerLine, taxPerLine, unitsRefundCents } from "./refunds.ts";

/** Refunds as properties over random baskets: every unit returned, in any split, refunds exactly the total. */

const discountArb: fc.Arbitrary<Discount | null> = fc.oneof(
  fc.constant(null),
  fc.record({ kind: fc.constant("percent" as const), basisPoints: fc.integer({ min: 0, max: 10_000 }) }),
  fc.record({ kind: fc.constant("amount" as const), cents: fc.integer({ min: 0, max: 50_000 }) }),
);

test("the lines' paid shares sum to the total, their tax shares to the tax, and returning them unit by unit refunds each share exactly", () => {
  fc.assert(
    fc.property(
      fc.array(
        fc.record({
          unitPriceCents: fc.integer({ min: 0, max: 100_000 }),
          quantity: fc.integer({ min: 1, max: 12 }),
          taxRateBasisPoints: fc.constantFrom(0, 500, 1_500, 1_550),
          discount: discountArb,
        }),
        { minLength: 1, maxLength: 8 },
      ),
      discountArb,
      fc.constantFrom<TaxMode>("inclusive", "exclusive"),
      (lines, cartDiscount, taxMode) => {
        const priced = priceBasket(lines, { cartDiscount, taxMode });
        const sale = {
          items: priced.lines.map((line, index) => ({
            qty: lines[index]?.quantity ?? 1,
            line_total_cents: line.grossCents,
            net_cents: line.netCents,
            tax_rate_bp: line.taxRateBasisPoints,
          })),
          total_cents: priced.totalCents,
          tax_cents: priced.taxCents,
          taxes: priced.taxes
            .filter((tax) => tax.rateBasisPoints > 0)
            .map((tax) => ({ rate_bp: tax.rateBasisPoints, tax_cents: tax.taxCents })),
        };
        const paid = paidPerLine(sale);
        expect(paid.reduce((sum, cents) => sum + cents, 0)).toBe(priced.totalCents);
        const taxShares = taxPerLine(sale);
        expect(taxShares.reduce((sum, cents) => sum + cents, 0)).toBe(priced.taxCents);
        expect(taxShares.every((cents) => cents >= 0)).toBe(true);
        sale.items.forEach((item, line) => {
          let refunded = 0;
          for (let returned = 0; returned < item.qty; returned += 1) {
            const cents = unitsRefundCents(paid[line] ?? 0, item.qty, returned, 1);
            expect(cents).toBeGreaterThanOrEqual(0);
            refunded += cents;
          }
          expect(refunded).toBe(paid[line]);
        });
      },
    ),
    { seed: 47_2028, numRuns: 500 },
  );
});

test("a sale made before discounts and tax refunds its unit prices", () => {
  const sale = { items: [{ qty: 3, line_total_cents: 450 }], total_cents: 450, tax_cents: 0, taxes: [] };
  expect(paidPerLine(sale)).toEqual([450]);
  expect(unitsRefundCents(450, 3, 1, 2)).toBe(300);
});
