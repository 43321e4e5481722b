import { divideRoundingHalfUp } from "./basket.ts";
import type { Currency } from "./money.ts";

/**
 * Paying a basket with several tenders, in its currency or another at the shop's rate of the day,
 * and giving change in the currency the cashier chooses; and which tenders a return refunds. The till
 * and the API settle a sale with these same functions. Imports nothing outside the kernel.
 *
 * The rules (docs/shop.md, "Split and two-currency tender"), all in integers:
 * - A rate says how many cents of the other currency one cent of the basket's currency is worth, in
 *   millionths (`otherPerBaseMicros`: USD 1 = ZWG 26.7843 is 26_784_300).
 * - What is still due, asked in the other currency, is rounded up to the cent, so paying it always
 *   covers the basket; a tender in the other currency counts for its value rounded down. Both keep
 *   the shop from losing fractions of a cent, and paying exactly the amount asked never leaves a cent due.
 * - Only cash may pay more than is due, and change (rounded down to the cent when given in the other
 *   currency) never exceeds the cash tendered: a wallet is never paid back in cash.
 * - A refund goes back to the tenders in the reverse order they were taken, each up to what it
 *   contributed net of change, in the tender's own currency at the rate it was taken at, so a full
 *   return gives back exactly what each tender paid: its amount less the change it gave when that
 *   change was in its own currency; in proportion to what it contributed when the change was in the
 *   other currency (rounded half up).
 */

export type ExchangeRate = { readonly base: Currency; readonly other: Currency; readonly otherPerBaseMicros: number };

export type TenderInput = {
  readonly kind: "cash" | "wallet";
  readonly currency: Currency;
  readonly amountCents: number;
};

export type SettledTender = TenderInput & {
  /** What the tender counts for in the basket's currency. */
  readonly creditCents: number;
  /** Its credit less the change it gave back, in the basket's currency. */
  readonly contributedCents: number;
  /**
   * What it paid in its own currency once its change was given back in that same currency (its amount
   * less that change, exact); absent when it gave no change or gave it in the other currency, where
   * its net amount is its amount in proportion to what it contributed (`refundShares`).
   */
  readonly netAmountCents?: number;
};

export type Settlement =
  | { readonly kind: "short"; readonly tenders: readonly SettledTender[]; readonly dueCents: number }
  | {
      readonly kind: "covered";
      readonly tenders: readonly SettledTender[];
      readonly change: { readonly currency: Currency; readonly amountCents: number; readonly baseCents: number };
    }
  | { readonly kind: "refused"; readonly reason: "wallet_overpays" | "change_exceeds_cash" | "no_rate" };

const MICROS = 1_000_000n;

function otherCurrencyOf(rate: ExchangeRate | null, currency: Currency, base: Currency): ExchangeRate | null {
  if (currency === base || rate === null || rate.base !== base || rate.other !== currency) {
    return null;
  }
  return rate;
}

/** The amount to ask in `currency` for `dueCents` of the basket's currency: rounded up. */
export function dueIn(dueCents: number, currency: Currency, base: Currency, rate: ExchangeRate | null): number | null {
  if (currency === base) {
    return dueCents;
  }
  const usable = otherCurrencyOf(rate, currency, base);
  if (usable === null) {
    return null;
  }
  return Number((BigInt(dueCents) * BigInt(usable.otherPerBaseMicros) + MICROS - 1n) / MICROS);
}

/** What `amountCents` of `currency` counts for in the basket's currency: rounded down. */
export function creditOf(
  amountCents: number,
  currency: Currency,
  base: Currency,
  rate: ExchangeRate | null,
): number | null {
  if (currency === base) {
    return amountCents;
  }
  const usable = otherCurrencyOf(rate, currency, base);
  if (usable === null) {
    return null;
  }
  return Number((BigInt(amountCents) * MICROS) / BigInt(usable.otherPerBaseMicros));
}

/**
 * Settles a basket of `totalCents` (in `base`) with `tenders` in the order they were taken: short
 * (what is still due), covered (with the change in `changeCurrency`), or refused.
 */
export function settle(
  totalCents: number,
  base: Currency,
  tenders: readonly TenderInput[],
  options: { readonly rate: ExchangeRate | null; readonly changeCurrency: Currency },
): Settlement {
  let paidCents = 0;
  const credited: { tender: TenderInput; creditCents: number }[] = [];
  for (const tender of tenders) {
    const creditCents = creditOf(tender.amountCents, tender.currency, base, options.rate);
    if (creditCents === null) {
      return { kind: "refused", reason: "no_rate" };
    }
    const askedCents = dueIn(Math.max(totalCents - paidCents, 0), tender.currency, base, options.rate) ?? 0;
    if (tender.kind === "wallet" && tender.amountCents > askedCents) {
      return { kind: "refused", reason: "wallet_overpays" };
    }
    credited.push({ tender, creditCents });
    paidCents += creditCents;
  }
  if (paidCents < totalCents) {
    const tendersSoFar = credited.map(({ tender, creditCents }) => ({
      ...tender,
      creditCents,
      contributedCents: creditCents,
    }));
    return { kind: "short", tenders: tendersSoFar, dueCents: totalCents - paidCents };
  }
  return withChange(credited, paidCents - totalCents, base, options);
}

/** The change of a covered basket, taken back from its cash tenders, the last one first. */
function withChange(
  credited: readonly { tender: TenderInput; creditCents: number }[],
  changeBaseCents: number,
  base: Currency,
  options: { readonly rate: ExchangeRate | null; readonly changeCurrency: Currency },
): Settlement {
  const cashCents = credited.reduce(
    (sum, { tender, creditCents }) => sum + (tender.kind === "cash" ? creditCents : 0),
    0,
  );
  if (changeBaseCents > cashCents) {
    return { kind: "refused", reason: "change_exceeds_cash" };
  }
  const changeCents =
    options.changeCurrency === base
      ? changeBaseCents
      : otherCurrencyOf(options.rate, options.changeCurrency, base) === null
        ? null
        : Number((BigInt(changeBaseCents) * BigInt(options.rate?.otherPerBaseMicros ?? 0)) / MICROS);
  if (changeCents === null) {
    return { kind: "refused", reason: "no_rate" };
  }
  let changeLeft = changeBaseCents;
  const tenders = [...credited].reverse().map(({ tender, creditCents }): SettledTender => {
    const fromThis = tender.kind === "cash" ? Math.min(changeLeft, creditCents) : 0;
    changeLeft -= fromThis;
    const settled = { ...tender, creditCents, contributedCents: creditCents - fromThis };
    // The tender that covered the basket gives all the change (those before it were all due); in
    // its own currency, what it paid is its amount less that change, to the cent.
    return fromThis > 0 && fromThis === changeBaseCents && tender.currency === options.changeCurrency
      ? { ...settled, netAmountCents: tender.amountCents - changeCents }
      : settled;
  });
  return {
    kind: "covered",
    tenders: tenders.reverse(),
    change: { currency: options.changeCurrency, amountCents: changeCents, baseCents: changeBaseCents },
  };
}

/**
 * What a tender paid in its own currency net of the change it gave: a full return or a cancel gives
 * back exactly this (`netAmountCents` when known, else its amount in proportion to what it
 * contributed, rounded half up).
 */
export function netAmountOf(tender: SettledTender): number {
  if (tender.netAmountCents !== undefined) {
    return tender.netAmountCents;
  }
  if (tender.creditCents === 0) {
    return 0;
  }
  return Number(
    divideRoundingHalfUp(BigInt(tender.contributedCents) * BigInt(tender.amountCents), BigInt(tender.creditCents)),
  );
}

export type RefundShare = {
  readonly tenderIndex: number;
  readonly baseCents: number;
  readonly currency: Currency;
  readonly amountCents: number;
};

/**
 * Which tenders refund `refundCents` of the basket's currency: the last tender first, each up to what
 * it contributed; each share in the tender's currency at the rate it was taken at (rounded half up,
 * and exactly the tender's net amount when it is refunded whole).
 */
export function refundShares(tenders: readonly SettledTender[], refundCents: number): RefundShare[] {
  let left = refundCents;
  const shares: RefundShare[] = [];
  for (let index = tenders.length - 1; index >= 0 && left > 0; index -= 1) {
    const tender = tenders[index];
    if (tender === undefined || tender.contributedCents === 0) {
      continue;
    }
    const baseCents = Math.min(left, tender.contributedCents);
    left -= baseCents;
    const netAmountCents = netAmountOf(tender);
    const amountCents =
      baseCents === tender.contributedCents
        ? netAmountCents
        : Number(divideRoundingHalfUp(BigInt(baseCents) * BigInt(netAmountCents), BigInt(tender.contributedCents)));
    shares.push({ tenderIndex: index, baseCents, currency: tender.currency, amountCents });
  }
  return shares;
}
