import fc from "fast-check";
import type { Currency } from "./money.ts";
import {
  creditOf,
  dueIn,
  type ExchangeRate,
  refundShares,
  type Settlement,
  settle,
  type TenderInput,
} from "./tender.ts";

/** Split and two-currency tender, as properties over random baskets, rates and tenders (fixed seed). */

const SEED = 47_2027;
const BASE: Currency = "USD";
const rateArb: fc.Arbitrary<ExchangeRate> = fc
  .integer({ min: 1_000, max: 100_000_000 })
  .map((otherPerBaseMicros) => ({ base: "USD", other: "ZWG", otherPerBaseMicros }));
const currencyArb = fc.constantFrom<Currency>("USD", "ZWG");

type Covered = Extract<Settlement, { kind: "covered" }>;

describe("settle", () => {
  test("paying what is asked in either currency always covers the basket, and the contributions make its total", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000_000 }),
        rateArb,
        fc.array(
          fc.tuple(
            fc.constantFrom<"cash" | "wallet">("cash", "wallet"),
            currencyArb,
            fc.double({ min: 0.01, max: 1, noNaN: true }),
          ),
          { maxLength: 3 },
        ),
        currencyArb,
        currencyArb,
        (totalCents, rate, partial, lastCurrency, changeCurrency) => {
          // Some tenders for part of what is due, then cash for exactly what is still asked.
          const tenders: TenderInput[] = [];
          let due = totalCents;
          for (const [kind, currency, fraction] of partial) {
            const asked = dueIn(due, currency, BASE, rate) ?? 0;
            const amountCents = Math.max(0, Math.floor(asked * fraction) - 1);
            const credit = creditOf(amountCents, currency, BASE, rate) ?? 0;
            if (amountCents === 0 || credit >= due) {
              continue;
            }
            tenders.push({ kind, currency, amountCents });
            due -= credit;
          }
          tenders.push({
            kind: "cash",
            currency: lastCurrency,
            amountCents: dueIn(due, lastCurrency, BASE, rate) ?? 0,
          });
          const settlement = settle(totalCents, BASE, tenders, { rate, changeCurrency });
          expect(settlement.kind).toBe("covered");
          const covered = settlement as Covered;
          const contributed = covered.tenders.reduce((sum, tender) => sum + tender.contributedCents, 0);
          expect(contributed).toBe(totalCents);
          const credited = covered.tenders.reduce((sum, tender) => sum + tender.creditCents, 0);
          expect(credited - totalCents).toBe(covered.change.baseCents);
          // Change in the other currency is worth no more than the change owed.
          expect(creditOf(covered.change.amountCents, changeCurrency, BASE, rate)).toBeLessThanOrEqual(
            covered.change.baseCents,
          );
        },
      ),
      { seed: SEED, numRuns: 2_000 },
    );
  });

  test("a full return refunds the total exactly, each tender exactly its net amount in its own currency", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000_000 }),
        rateArb,
        currencyArb,
        fc.integer({ min: 0, max: 100_000 }),
        (totalCents, rate, cashCurrency, overCents) => {
          const walletCents = Math.floor(totalCents / 3);
          const cashAsked = dueIn(totalCents - walletCents, cashCurrency, BASE, rate) ?? 0;
          const tenders: TenderInput[] = [
            { kind: "wallet", currency: "USD", amountCents: walletCents },
            { kind: "cash", currency: cashCurrency, amountCents: cashAsked + overCents },
          ];
          const covered = settle(totalCents, BASE, tenders, { rate, changeCurrency: cashCurrency }) as Covered;
          expect(covered.kind).toBe("covered");
          const shares = refundShares(covered.tenders, totalCents);
          expect(shares.reduce((sum, share) => sum + share.baseCents, 0)).toBe(totalCents);
          const wallet = shares.find((share) => share.tenderIndex === 0);
          expect(wallet?.amountCents ?? 0).toBe(walletCents);
          // The cash tender gives back what it paid less the change it gave in its own currency, to the cent.
          const cash = shares.find((share) => share.tenderIndex === 1);
          expect(cash?.amountCents ?? 0).toBe(cashAsked + overCents - covered.change.amountCents);
        },
      ),
      { seed: SEED, numRuns: 2_000 },
    );
  });

  test("partial refunds in any steps never refund more than was paid, last tender first", () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 1_000_000 }), fc.integer({ min: 1, max: 99 }), (totalCents, percent) => {
        const first = Math.floor(totalCents / 2);
        const covered = settle(
          totalCents,
          BASE,
          [
            { kind: "wallet", currency: "USD", amountCents: first },
            { kind: "cash", currency: "USD", amountCents: totalCents - first },
          ],
          { rate: null, changeCurrency: "USD" },
        ) as Covered;
        const refund = Math.max(1, Math.floor((totalCents * percent) / 100));
        const shares = refundShares(covered.tenders, refund);
        expect(shares.reduce((sum, share) => sum + share.baseCents, 0)).toBe(refund);
        expect(shares[0]?.tenderIndex).toBe(1);
      }),
      { seed: SEED, numRuns: 1_000 },
    );
  });

  test("a worked two-currency sale: USD 10.00 paid ZWG 150.00 and USD 5.00 cash at 26.7843, change in ZWG", () => {
    const rate: ExchangeRate = { base: "USD", other: "ZWG", otherPerBaseMicros: 26_784_300 };
    // USD 10.00 is ZWG 267.843 → asked ZWG 267.85 (rounded up).
    expect(dueIn(1_000, "ZWG", BASE, rate)).toBe(26_785);
    const settlement = settle(
      1_000,
      BASE,
      [
        { kind: "cash", currency: "ZWG", amountCents: 15_000 },
        { kind: "cash", currency: "USD", amountCents: 500 },
      ],
      { rate, changeCurrency: "ZWG" },
    );
    // ZWG 150.00 counts for USD 5.60 (5.6003… rounded down); 60 cents over, given back as ZWG 16.07.
    expect(settlement).toMatchObject({
      kind: "covered",
      change: { currency: "ZWG", amountCents: 1_607, baseCents: 60 },
    });
  });

  test("refusals: a wallet paying more than is due, change beyond the cash, a currency with no rate", () => {
    expect(
      settle(1_000, BASE, [{ kind: "wallet", currency: "USD", amountCents: 1_001 }], {
        rate: null,
        changeCurrency: "USD",
      }),
    ).toEqual({
      kind: "refused",
      reason: "wallet_overpays",
    });
    expect(
      settle(1_000, BASE, [{ kind: "cash", currency: "ZWG", amountCents: 1_000 }], {
        rate: null,
        changeCurrency: "USD",
      }),
    ).toEqual({
      kind: "refused",
      reason: "no_rate",
    });
    expect(
      settle(1_000, BASE, [{ kind: "cash", currency: "USD", amountCents: 1_200 }], {
        rate: null,
        changeCurrency: "ZWG",
      }),
    ).toEqual({ kind: "refused", reason: "no_rate" });
    expect(
      settle(1_000, BASE, [{ kind: "wallet", currency: "USD", amountCents: 400 }], {
        rate: null,
        changeCurrency: "USD",
      }),
    ).toMatchObject({
      kind: "short",
      dueCents: 600,
    });
  });
});
