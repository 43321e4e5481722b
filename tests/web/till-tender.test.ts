import type { ExchangeRate } from "../../web/lib/api/exchange-rates.ts";
import type { Sale, SaleTender } from "../../web/lib/api.ts";
import { giveBack } from "../../web/till/sell/give-back.ts";
import {
  addedTender,
  changeOptions,
  kernelRate,
  liveTenders,
  readiness,
  splitFields,
  type TenderInput,
  tally,
  withCredits,
} from "../../web/till/sell/tender-plan.ts";

/** The till's Pay step arithmetic (web/till/sell/tender-plan.ts) over the kernel's settle. */

const usdZwg: ExchangeRate = {
  id: "xr_1",
  object: "exchange_rate",
  livemode: false,
  base: "USD",
  other: "ZWG",
  rate: "26.7843",
  other_per_base_micros: 26_784_300,
  set_by: { type: "dashboard_user", id: "usr_1" },
  created_at: "2026-11-28T08:12:00Z",
};
const rate = kernelRate(usdZwg);
const cash = (currency: "USD" | "ZWG", amountCents: number): TenderInput => ({ kind: "cash", currency, amountCents });
const wallet = (amountCents: number): TenderInput => ({ kind: "wallet", currency: "USD", amountCents });

test("what is still due shows in both currencies, the other rounded up; paying it in ZWG covers the basket exactly", () => {
  const half = tally(420, "USD", [cash("USD", 200)], rate, "USD");
  // 2.20 × 26.7843 = 58.925…: asked 58.93.
  expect(half).toMatchObject({ paidCents: 200, dueCents: 220, dueOtherCents: 5893, settlement: { kind: "short" } });
  expect(readiness([cash("USD", 200)], half)).toEqual({ ready: false });
  const tenders = [cash("USD", 200), cash("ZWG", 5893)];
  const paid = tally(420, "USD", tenders, rate, "USD");
  expect(paid).toMatchObject({
    dueCents: 0,
    dueOtherCents: 0,
    settlement: { kind: "covered", change: { amountCents: 0 } },
  });
  expect(readiness(tenders, paid)).toEqual({ ready: true });
  expect(splitFields(tenders, "USD", "USD", usdZwg)).toEqual({
    tenders: [
      { kind: "cash", currency: "USD", amount_cents: 200 },
      { kind: "cash", currency: "ZWG", amount_cents: 5893 },
    ],
    exchange_rate_id: "xr_1",
  });
});

test("change in the currency the cashier chooses, rounded down in ZWG; the rate goes with a ZWG change", () => {
  const tenders = [cash("USD", 200), cash("ZWG", 10_000)];
  // ZWG 100 counts for USD 3.73 (rounded down): 5.73 paid, 1.53 over, ZWG 40.97 back (40.979… down).
  const inZwg = tally(420, "USD", tenders, rate, "ZWG");
  expect(inZwg.settlement).toMatchObject({
    kind: "covered",
    change: { currency: "ZWG", amountCents: 4097, baseCents: 153 },
  });
  // The Pay step offers both, each as the kernel settles it; no change, no choice.
  expect(changeOptions(420, "USD", tenders, rate)).toEqual([
    { currency: "USD", amountCents: 153 },
    { currency: "ZWG", amountCents: 4097 },
  ]);
  expect(changeOptions(420, "USD", tenders, null)).toEqual([]);
  expect(changeOptions(420, "USD", [cash("USD", 420)], rate)).toEqual([]);
  expect(withCredits(tenders, "USD", rate).map((tender) => tender.creditCents)).toEqual([200, 373]);
  expect(splitFields([cash("USD", 500)], "USD", "ZWG", usdZwg)).toEqual({
    tenders: [{ kind: "cash", currency: "USD", amount_cents: 500 }],
    change_currency: "ZWG",
    exchange_rate_id: "xr_1",
  });
  // All in the basket's currency: no rate, no change currency.
  expect(splitFields([cash("USD", 500)], "USD", "USD", usdZwg)).toEqual({
    tenders: [{ kind: "cash", currency: "USD", amount_cents: 500 }],
  });
});

test("a wallet pays what is due when taken, never more, one at a time; cash after it may give change", () => {
  const exact = [cash("USD", 200), wallet(220)];
  expect(readiness(exact, tally(420, "USD", exact, rate, "USD"))).toEqual({ ready: true });
  // A wallet alone that leaves some due: sent, the rest taken after it is paid.
  expect(readiness([wallet(100)], tally(420, "USD", [wallet(100)], rate, "USD"))).toEqual({ ready: true });
  const over = [cash("USD", 200), wallet(300)];
  expect(readiness(over, tally(420, "USD", over, rate, "USD"))).toEqual({
    ready: false,
    why: "A wallet pays at most what is still due.",
  });
  const twoWallets = [wallet(200), wallet(220)];
  expect(readiness(twoWallets, tally(420, "USD", twoWallets, rate, "USD")).ready).toBe(false);
  // The wallet first, then cash over what it leaves: change from the cash, as the API takes it.
  const withChange = [wallet(220), cash("USD", 500)];
  const settled = tally(420, "USD", withChange, rate, "USD");
  expect(readiness(withChange, settled)).toEqual({ ready: true });
  expect(settled.settlement).toMatchObject({ kind: "covered", change: { currency: "USD", amountCents: 300 } });
  // Cash that covered the basket first: a wallet after it would overpay.
  const walletAfter = [cash("USD", 500), wallet(220)];
  expect(readiness(walletAfter, tally(420, "USD", walletAfter, rate, "USD"))).toEqual({
    ready: false,
    why: "A wallet pays at most what is still due.",
  });
});

test("a pending sale whose cash gave change: a tender added is settled against the cash net of that change", () => {
  // USD 10.00: wallet USD 5.00 (failed), then ZWG 150.00 counting USD 5.66 of which 0.66 went back as change.
  const sale = pendingSale([
    tender({ kind: "wallet", amount_cents: 500, credit_cents: 500, contributed_cents: 500, status: "failed" }),
    tender({ currency: "ZWG", amount_cents: 15_000, credit_cents: 566, contributed_cents: 500 }),
  ]);
  const taken = liveTenders(sale);
  expect(taken).toEqual([{ kind: "cash", currency: "USD", amountCents: 500 }]);
  expect(tally(1000, "USD", taken, rate, "USD").dueCents).toBe(500);
});

test("without a rate of the day: nothing due in ZWG to show and a ZWG tender is refused", () => {
  const tenders = [cash("ZWG", 5000)];
  const result = tally(420, "USD", tenders, null, "USD");
  expect(result.dueOtherCents).toBeNull();
  expect(readiness(tenders, result)).toEqual({
    ready: false,
    why: "No rate of the day for that currency: set one on Today.",
  });
  expect(addedTender(cash("USD", 220), "USD", "USD")).toEqual({ kind: "cash", currency: "USD", amount_cents: 220 });
});

/** A tender as the API shows it; paid and without change, it paid its amount (`net_amount_cents`). */
const tender = (fields: Partial<SaleTender>): SaleTender => {
  const shown = {
    kind: "cash" as const,
    currency: "USD" as const,
    amount_cents: 0,
    credit_cents: 0,
    contributed_cents: 0,
    exchange_rate_id: null,
    other_per_base_micros: null,
    status: "paid" as const,
    payment_id: null,
    ...fields,
  };
  return { net_amount_cents: shown.status === "paid" ? shown.amount_cents : 0, ...shown };
};
const pendingSale = (tenders: SaleTender[]) =>
  ({ currency: "USD", total_cents: 1000, tenders, paid_cents: 0, due_cents: 0, change: null }) as unknown as Sale;

test("a pending split sale: a failed tender counts for nothing; cancelling gives back each paid tender in its currency", () => {
  const sale = pendingSale([
    tender({ amount_cents: 200, credit_cents: 200, contributed_cents: 200 }),
    tender({
      currency: "ZWG",
      amount_cents: 5000,
      credit_cents: 186,
      contributed_cents: 186,
      exchange_rate_id: "xr_1",
    }),
    tender({ kind: "wallet", amount_cents: 614, credit_cents: 614, contributed_cents: 614, status: "failed" }),
  ]);
  expect(liveTenders(sale)).toEqual([
    { kind: "cash", currency: "USD", amountCents: 200 },
    { kind: "cash", currency: "USD", amountCents: 186 },
  ]);
  // The next tender settles after what was credited: 6.14 due.
  expect(tally(1000, "USD", liveTenders(sale), rate, "USD").dueCents).toBe(614);
  expect(giveBack(sale)).toEqual([
    { currency: "USD", amountCents: 200 },
    { currency: "ZWG", amountCents: 5000 },
  ]);
  // A paid wallet tender comes back in cash too, in its currency, with the cash of that currency.
  const walletPaid = pendingSale([
    tender({ amount_cents: 100, credit_cents: 100, contributed_cents: 100 }),
    tender({ kind: "wallet", amount_cents: 300, credit_cents: 300, contributed_cents: 300, payment_id: "pay_1" }),
    tender({ kind: "wallet", amount_cents: 600, credit_cents: 600, contributed_cents: 600, status: "pending" }),
  ]);
  expect(giveBack(walletPaid)).toEqual([{ currency: "USD", amountCents: 400 }]);
  expect(giveBack(pendingSale([]))).toEqual([]);
});
