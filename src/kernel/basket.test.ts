import fc from "fast-check";
import { type BasketLineInput, type Discount, priceBasket, spreadByWeight, type TaxMode } from "./basket.ts";

/**
 * The basket's arithmetic, as properties over random baskets (fixed seed, printed on failure) and a
 * few receipts worked by hand.
 */

const SEED = 47_2026;

const discountArb: fc.Arbitrary<Discount | null> = fc.oneof(
  fc.constant(null),
  fc.record({ kind: fc.constant("percent" as const), basisPoints: fc.integer({ min: 0, max: 10_000 }) }),
  fc.record({ kind: fc.constant("amount" as const), cents: fc.integer({ min: 0, max: 50_000 }) }),
);
const lineArb: fc.Arbitrary<BasketLineInput> = fc.record({
  unitPriceCents: fc.integer({ min: 0, max: 1_000_000 }),
  quantity: fc.integer({ min: 1, max: 50 }),
  taxRateBasisPoints: fc.constantFrom(0, 500, 1_500, 1_550),
  discount: discountArb,
});
const basketArb = fc.record({
  lines: fc.array(lineArb, { minLength: 1, maxLength: 12 }),
  cartDiscount: discountArb,
  taxMode: fc.constantFrom<TaxMode>("inclusive", "exclusive"),
});

describe("priceBasket", () => {
  test("totals balance to the cent for any basket", () => {
    fc.assert(
      fc.property(basketArb, ({ lines, cartDiscount, taxMode }) => {
        const priced = priceBasket(lines, { cartDiscount, taxMode });
        const netSum = priced.lines.reduce((sum, line) => sum + line.netCents, 0);
        expect(priced.subtotalCents - priced.discountCents).toBe(netSum);
        expect(priced.totalCents).toBe(taxMode === "exclusive" ? netSum + priced.taxCents : netSum);
        for (const line of priced.lines) {
          expect(line.netCents).toBeGreaterThanOrEqual(0);
          expect(line.lineDiscountCents + line.cartDiscountCents + line.netCents).toBe(line.grossCents);
        }
        const taxSum = priced.taxes.reduce((sum, tax) => sum + tax.taxCents, 0);
        expect(taxSum).toBe(priced.taxCents);
        const taxedSum = priced.taxes.reduce((sum, tax) => sum + tax.taxableCents + tax.taxCents, 0);
        expect(taxedSum).toBe(taxMode === "exclusive" ? netSum + priced.taxCents : netSum);
      }),
      { seed: SEED, numRuns: 2_000 },
    );
  });

  test("each rate's tax is the exact tax rounded once, within half a cent", () => {
    fc.assert(
      fc.property(basketArb, ({ lines, cartDiscount, taxMode }) => {
        const priced = priceBasket(lines, { cartDiscount, taxMode });
        for (const tax of priced.taxes) {
          const rate = tax.rateBasisPoints / 10_000;
          const base = taxMode === "exclusive" ? tax.taxableCents : tax.taxableCents + tax.taxCents;
          const exact = taxMode === "exclusive" ? base * rate : (base * rate) / (1 + rate);
          expect(Math.abs(tax.taxCents - exact)).toBeLessThanOrEqual(0.5 + 1e-6);
        }
      }),
      { seed: SEED, numRuns: 1_000 },
    );
  });

  test("a receipt worked by hand: VAT 15.5 % inclusive, a line discount and a cart discount", () => {
    const priced = priceBasket(
      [
        { unitPriceCents: 1_150, quantity: 2, taxRateBasisPoints: 1_550, discount: { kind: "amount", cents: 100 } },
        { unitPriceCents: 500, quantity: 1, taxRateBasisPoints: 0 },
      ],
      { cartDiscount: { kind: "percent", basisPoints: 1_000 }, taxMode: "inclusive" },
    );
    // Lines after their own discounts: 2,200 and 500; 10 % off the cart is 270, spread 220 and 50.
    expect(priced.lines.map((line) => line.netCents)).toEqual([1_980, 450]);
    expect(priced.discountCents).toBe(370);
    // 1,980 × 0.155 / 1.155 = 265.71… → 266.
    expect(priced.taxes).toEqual([
      { rateBasisPoints: 0, taxableCents: 450, taxCents: 0 },
      { rateBasisPoints: 1_550, taxableCents: 1_714, taxCents: 266 },
    ]);
    expect(priced.totalCents).toBe(2_430);
  });

  test("tax-exclusive prices add each rate's tax on top, rounded once per rate, not per line", () => {
    const line = { unitPriceCents: 10, quantity: 1, taxRateBasisPoints: 1_500 };
    const priced = priceBasket([line, line, line], { taxMode: "exclusive" });
    // Per line each tax would be 1.5 → 2 cents (6 in all); over the sale 30 × 0.15 = 4.5 → 5.
    expect(priced.taxCents).toBe(5);
    expect(priced.totalCents).toBe(35);
  });

  test("a discount never takes a line or a basket below zero", () => {
    const priced = priceBasket(
      [{ unitPriceCents: 100, quantity: 1, taxRateBasisPoints: 0, discount: { kind: "amount", cents: 500 } }],
      {
        cartDiscount: { kind: "amount", cents: 999 },
        taxMode: "inclusive",
      },
    );
    expect(priced.totalCents).toBe(0);
    expect(priced.discountCents).toBe(100);
  });
});

describe("spreadByWeight", () => {
  test("shares sum to the total and none exceeds its weight", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 1_000_000 }), { minLength: 1, maxLength: 20 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (weights, fraction) => {
          const weightSum = weights.reduce((sum, weight) => sum + weight, 0);
          const total = Math.floor(weightSum * fraction);
          const shares = spreadByWeight(total, weights);
          expect(shares.reduce((sum, share) => sum + share, 0)).toBe(weightSum === 0 ? 0 : total);
          shares.forEach((share, index) => {
            expect(share).toBeGreaterThanOrEqual(0);
            expect(share).toBeLessThanOrEqual(weights[index] ?? 0);
          });
        },
      ),
      { seed: SEED, numRuns: 2_000 },
    );
  });
});
