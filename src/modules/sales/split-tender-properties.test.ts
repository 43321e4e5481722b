import fc from "fast-check";
import { salesTestWorld } from "../../../tests/support/sales.ts";
import { tenderHelpers } from "../../../tests/support/tenders.ts";
import { dueIn } from "../../kernel/tender.ts";

/**
 * Split and two-currency tender as properties through the API (issue 47, "Tests and measures"): for
 * random baskets, rates and tenders (cash in either currency, change in either, sometimes a wallet
 * tender paid by its payment), the tenders' contributions make the total to the cent, the drawer holds
 * exactly the cash taken less the change per currency, the wallet's money reaches the balance once, and
 * a full return gives back exactly what each tender paid, leaving the drawer as before the sale but
 * for the change.
 */

const world = salesTestWorld();
const SEED = 47_2027;
let run = 0;

type Tender = { kind: "cash" | "wallet"; currency: "USD" | "ZWG"; amount_cents: number };

const scenarioArb = fc.record({
  lines: fc.array(fc.record({ unitCents: fc.integer({ min: 1, max: 20_000 }), qty: fc.integer({ min: 1, max: 4 }) }), {
    minLength: 1,
    maxLength: 4,
  }),
  rateMicros: fc.integer({ min: 1_000_000, max: 40_000_000 }),
  // Fractions of what is due paid by the first tenders; the last tender (cash) pays the rest and more.
  partial: fc.array(
    fc.record({
      kind: fc.constantFrom<"cash" | "wallet">("cash", "wallet"),
      currency: fc.constantFrom<"USD" | "ZWG">("USD", "ZWG"),
      fraction: fc.double({ min: 0.05, max: 0.6, noNaN: true }),
    }),
    { maxLength: 2 },
  ),
  lastCurrency: fc.constantFrom<"USD" | "ZWG">("USD", "ZWG"),
  overpayCents: fc.integer({ min: 0, max: 5_000 }),
  changeCurrency: fc.constantFrom<"USD" | "ZWG">("USD", "ZWG"),
});

const { drawerOf, pay } = tenderHelpers(world);

test("totals balance to the cent, the drawer and the ledger agree, and a full return refunds exactly what was paid", async () => {
  await fc.assert(
    fc.asyncProperty(scenarioArb, async (scenario) => {
      const api = world.testWorld;
      const rate = (
        await api.post("/v1/exchange_rates", {
          base: "USD",
          other: "ZWG",
          rate: (scenario.rateMicros / 1_000_000).toFixed(6),
        })
      ).body;
      // A till per run: its drawer holds this run's cash only.
      run += 1;
      const till = `till-property-${run}`;
      const shift = (await api.post("/v1/shifts", { till_id: till })).body;
      const balanceBefore = await world.balanceOf(api);
      const kernelRate = {
        base: "USD" as const,
        other: "ZWG" as const,
        otherPerBaseMicros: rate.other_per_base_micros,
      };
      const total = scenario.lines.reduce((sum, line) => sum + line.unitCents * line.qty, 0);
      // Tenders the way a till builds them: each partial one asks part of what is due in its currency.
      const tenders: Tender[] = [];
      let due = total;
      for (const part of scenario.partial) {
        const asked = dueIn(due, part.currency, "USD", kernelRate) ?? 0;
        const amount = Math.floor(asked * part.fraction);
        if (amount < 1) continue;
        tenders.push({ kind: part.kind, currency: part.currency, amount_cents: amount });
        due -= Math.floor(part.currency === "USD" ? amount : (amount * 1_000_000) / rate.other_per_base_micros);
      }
      const lastAsked = dueIn(due, scenario.lastCurrency, "USD", kernelRate) ?? 0;
      tenders.push({ kind: "cash", currency: scenario.lastCurrency, amount_cents: lastAsked + scenario.overpayCents });

      const sale = await api.post("/v1/sales", {
        items: scenario.lines.map((line) => ({ name: "Item", qty: line.qty, unit_cents: line.unitCents })),
        till_id: till,
        tenders,
        exchange_rate_id: rate.id,
        change_currency: scenario.changeCurrency,
      });
      expect(sale.status).toBe(201);
      for (const tender of sale.body.tenders) {
        if (tender.kind === "wallet") await pay(tender.payment_id);
      }
      const done = (await api.get(`/v1/sales/${sale.body.id}`)).body;
      expect(done).toMatchObject({ status: "completed", paid_cents: total, due_cents: 0 });
      const contributed = done.tenders.reduce(
        (sum: number, tender: { contributed_cents: number }) => sum + tender.contributed_cents,
        0,
      );
      expect(contributed).toBe(total);

      // The drawer: each cash tender in its currency, less the change in its currency.
      const cashIn = (currency: string) =>
        tenders
          .filter((tender) => tender.kind === "cash" && tender.currency === currency)
          .reduce((sum, tender) => sum + tender.amount_cents, 0);
      const change = (currency: string) => (done.change?.currency === currency ? done.change.amount_cents : 0);
      expect(await drawerOf(api, shift.id)).toEqual({
        USD: cashIn("USD") - change("USD"),
        ZWG: cashIn("ZWG") - change("ZWG"),
      });
      // The ledger: the wallet tenders' money, once, less the 1.5 % fee of each.
      const walletTenders = tenders.filter((tender) => tender.kind === "wallet");
      const balance = await world.balanceOf(api);
      for (const currency of ["USD", "ZWG"] as const) {
        const expected = walletTenders
          .filter((tender) => tender.currency === currency)
          .reduce((sum, tender) => sum + tender.amount_cents - Math.round((tender.amount_cents * 150) / 10_000), 0);
        expect([currency, balance[currency] - balanceBefore[currency]]).toEqual([currency, expected]);
      }

      // A full return: each tender gives back exactly its net amount, in its own currency.
      const returned = await api.post(`/v1/sales/${sale.body.id}/returns`, {
        till_id: till,
        items: scenario.lines.map((line, index) => ({ line: index, qty: line.qty })),
      });
      expect(returned.status).toBe(201);
      const refunds = returned.body.sale_return.refunds as {
        currency: string;
        amount_cents: number;
        tender_index: number;
      }[];
      for (const [index, tender] of done.tenders.entries()) {
        // The tender that gave change gives back its amount less that change when the change was in
        // its own currency, to the cent; in the other currency, in proportion (rounded half up).
        const net =
          tender.contributed_cents === tender.credit_cents
            ? tender.amount_cents
            : done.change?.currency === tender.currency
              ? tender.amount_cents - done.change.amount_cents
              : Math.floor(
                  (2 * tender.contributed_cents * tender.amount_cents + tender.credit_cents) /
                    (2 * tender.credit_cents),
                );
        expect([index, tender.net_amount_cents]).toEqual([index, net]);
        const refund = refunds.find((share) => share.tender_index === index);
        expect([index, refund?.amount_cents ?? 0]).toEqual([index, net]);
        expect(refund?.currency ?? tender.currency).toBe(tender.currency);
      }
      const refunded = (currency: string) =>
        refunds.filter((share) => share.currency === currency).reduce((sum, share) => sum + share.amount_cents, 0);
      const after = await drawerOf(api, shift.id);
      expect(after).toEqual({
        USD: cashIn("USD") - change("USD") - refunded("USD"),
        ZWG: cashIn("ZWG") - change("ZWG") - refunded("ZWG"),
      });
    }),
    { seed: SEED, numRuns: 25 },
  );
});
