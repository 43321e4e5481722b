import type { Currency } from "../../../src/kernel/money.ts";
import {
  creditOf,
  dueIn,
  type ExchangeRate as KernelRate,
  type Settlement,
  settle,
  type TenderInput,
} from "../../../src/kernel/tender.ts";
import type { ExchangeRate } from "../../lib/api/exchange-rates.ts";
import type { NewSale, NewSaleTender, Sale } from "../../lib/api.ts";
import type { PrintableReceipt } from "../receipt/printable.ts";

/**
 * The Pay step's arithmetic, all of it the kernel's (`src/kernel/tender.ts`, the same functions the API
 * settles with): what the tenders taken so far pay, what is still due in each currency, the change, and
 * whether the tenders can be sent; and the request fields they become. No second version of a rule.
 */

export type { TenderInput };

/** The rate of the day as the kernel takes it (null: none set for the pair). */
export const kernelRate = (rate: ExchangeRate | undefined): KernelRate | null =>
  rate === undefined ? null : { base: rate.base, other: rate.other, otherPerBaseMicros: rate.other_per_base_micros };

export type Tally = {
  settlement: Settlement;
  /** What the tenders count for in the basket's currency. */
  paidCents: number;
  /** Still due in the basket's currency, and asked in the rate's other currency (null: no rate). */
  dueCents: number;
  dueOtherCents: number | null;
};

/** Where `tenders` leave a basket of `totalCents` in `base`, change given in `changeCurrency`. */
export function tally(
  totalCents: number,
  base: Currency,
  tenders: readonly TenderInput[],
  rate: KernelRate | null,
  changeCurrency: Currency,
): Tally {
  const paidCents = tenders.reduce(
    (sum, tender) => sum + (creditOf(tender.amountCents, tender.currency, base, rate) ?? 0),
    0,
  );
  const dueCents = Math.max(totalCents - paidCents, 0);
  return {
    settlement: settle(totalCents, base, tenders, { rate, changeCurrency }),
    paidCents,
    dueCents,
    dueOtherCents: rate === null ? null : dueIn(dueCents, rate.other, base, rate),
  };
}

const REFUSALS = {
  wallet_overpays: "A wallet pays at most what is still due.",
  change_exceeds_cash: "Change comes from cash only: the change is more than the cash taken.",
  no_rate: "No rate of the day for that currency: set one on Today.",
} as const;

/**
 * Whether `tenders` can be sent as a sale, or why not. Cash only: when they cover the basket. With a
 * wallet (one at a time, so its code is the one shown): it pays at most what is due when it is taken,
 * so cash after it may cover the rest with change (the kernel refuses a wallet after cash that already
 * covered the basket: `wallet_overpays`). The change is given at once; if the wallet then fails, the
 * sale keeps the cash net of that change, and the cashier takes another tender for what is due.
 */
export function readiness(tenders: readonly TenderInput[], result: Tally): { ready: boolean; why?: string } {
  const { settlement } = result;
  if (settlement.kind === "refused") return { ready: false, why: REFUSALS[settlement.reason] };
  const wallets = tenders.filter((tender) => tender.kind === "wallet").length;
  if (wallets > 1) return { ready: false, why: "One wallet payment at a time: take the next one after it is paid." };
  return { ready: settlement.kind === "covered" || wallets === 1 };
}

const apiTender = (tender: TenderInput): NewSaleTender => ({
  kind: tender.kind,
  currency: tender.currency,
  amount_cents: tender.amountCents,
});

/** The rate and change fields of a request: the rate whenever a tender or the change is in another currency. */
function rateFields(currencies: readonly Currency[], base: Currency, changeCurrency: Currency, rate?: ExchangeRate) {
  const foreign = currencies.some((currency) => currency !== base) || changeCurrency !== base;
  return {
    ...(changeCurrency === base ? {} : { change_currency: changeCurrency }),
    ...(foreign && rate !== undefined ? { exchange_rate_id: rate.id } : {}),
  };
}

/** The tender fields of POST /v1/sales (the rest of the body is the cart's). */
export type SplitFields = Required<Pick<NewSale, "tenders">> & Pick<NewSale, "change_currency" | "exchange_rate_id">;

export const splitFields = (
  tenders: readonly TenderInput[],
  base: Currency,
  changeCurrency: Currency,
  rate?: ExchangeRate,
): SplitFields => ({
  tenders: tenders.map(apiTender),
  ...rateFields(
    tenders.map((tender) => tender.currency),
    base,
    changeCurrency,
    rate,
  ),
});

/** The body of POST /v1/sales/:id/tenders. */
export const addedTender = (
  tender: TenderInput,
  base: Currency,
  changeCurrency: Currency,
  rate?: ExchangeRate,
): NewSaleTender => ({ ...apiTender(tender), ...rateFields([tender.currency], base, changeCurrency, rate) });

/**
 * A pending split sale's live tenders (paid or waiting; a failed one paid nothing) as the kernel
 * settles a new tender after them: each at what the API counts it for, in the basket's currency, so a
 * rate set since the sale began changes nothing already taken; cash that gave change counts net of it
 * (the change was handed over when the sale was sent), as the API settles a tender added.
 */
export const liveTenders = (sale: Sale): TenderInput[] =>
  sale.tenders
    .filter((tender) => tender.status !== "failed")
    .map((tender) => ({ kind: tender.kind, currency: sale.currency, amountCents: tender.contributed_cents }));

/**
 * Cash tenders settled here, as the receipt prints them before the server has the sale (the outbox
 * sends it): each at what the kernel credits it, with the rate when in the other currency, and the change.
 */
export function printedTenders(
  totalCents: number,
  base: Currency,
  tenders: readonly TenderInput[],
  rate: ExchangeRate | undefined,
  changeCurrency: Currency,
): Pick<PrintableReceipt, "tenders" | "change"> {
  const settled = tally(totalCents, base, tenders, kernelRate(rate), changeCurrency).settlement;
  if (settled.kind === "refused") return {};
  return {
    tenders: settled.tenders.map((tender) => ({
      kind: tender.kind,
      currency: tender.currency,
      amount_cents: tender.amountCents,
      credit_cents: tender.creditCents,
      other_per_base_micros: tender.currency === base ? null : (rate?.other_per_base_micros ?? null),
      status: "paid",
    })),
    change:
      settled.kind === "covered" && settled.change.amountCents > 0
        ? { currency: settled.change.currency, amount_cents: settled.change.amountCents }
        : null,
  };
}

/** Each tender with what it counts for in the basket's currency (0 without a rate for it). */
export const withCredits = (tenders: readonly TenderInput[], base: Currency, rate: KernelRate | null) =>
  tenders.map((tender) => ({ ...tender, creditCents: creditOf(tender.amountCents, tender.currency, base, rate) ?? 0 }));

/** The change the tenders leave, in each currency it can be given in (none when they leave no change). */
export function changeOptions(
  totalCents: number,
  base: Currency,
  tenders: readonly TenderInput[],
  rate: KernelRate | null,
): { currency: Currency; amountCents: number }[] {
  const options: { currency: Currency; amountCents: number }[] = [];
  for (const currency of rate === null ? [base] : [base, rate.other]) {
    const settled = settle(totalCents, base, tenders, { rate, changeCurrency: currency });
    if (settled.kind === "covered" && settled.change.baseCents > 0) {
      options.push({ currency, amountCents: settled.change.amountCents });
    }
  }
  return options;
}
