import { type Currency, currencies, formatMoney } from "../../kernel/money.ts";
import { creditOf, dueIn, type ExchangeRate, type SettledTender, settle } from "../../kernel/tender.ts";
import type { World } from "../../kernel/world.ts";
import type { Queryable } from "../../platform/db/pool.ts";
import { conflict, invalidRequest } from "../../platform/errors.ts";
import { type ExchangeRateRow, rateForPair, rateInForce } from "../exchange-rates/index.ts";
import type { TenderInputBody } from "./tender-schemas.ts";

/**
 * Settling tenders against what a sale still has due, with the kernel's `settle` (the rules:
 * docs/shop.md, "Split and two-currency tender"), and the request's rate. Error codes:
 * `parameter_missing` (a tender or the change in another currency without `exchange_rate_id`),
 * `parameter_invalid` (a rate of another pair or world; a wallet paying more than is due; a tender
 * after the basket was covered), 409 `exchange_rate_missing` (no rate for the pair at all).
 */

/** The rate the request names, needed when a tender or the change is in another currency than the basket's. */
export async function rateOfRequest(
  database: Queryable,
  world: World,
  request: { base: Currency; currencies: readonly Currency[]; exchangeRateId: string | undefined },
): Promise<ExchangeRateRow | null> {
  const other = request.currencies.find((currency) => currency !== request.base);
  if (other === undefined) {
    return null;
  }
  const found = await rateForPair(database, world, { id: request.exchangeRateId, base: request.base, other });
  switch (found.kind) {
    case "found":
      return found.rate;
    case "missing":
      throw conflict(
        "exchange_rate_missing",
        `No ${request.base} to ${other} rate is set: set the rate of the day (POST /v1/exchange_rates) first.`,
      );
    case "not_given":
      throw invalidRequest(
        "parameter_missing",
        `exchange_rate_id: a tender or change in ${other} names the rate used.`,
      );
    case "unknown":
      throw invalidRequest(
        "parameter_invalid",
        `exchange_rate_id: ${request.exchangeRateId} is not one of this shop's ${request.base} to ${other} rates.`,
      );
  }
}

export const kernelRateOf = (rate: ExchangeRateRow | null): ExchangeRate | null =>
  rate === null
    ? null
    : { base: rate.base_currency, other: rate.other_currency, otherPerBaseMicros: rate.other_per_base_micros };

/** What tenders settled: each with its credit and contribution, covered (with its change) or still short. */
export type TenderSettlement = {
  tenders: readonly SettledTender[];
  dueCents: number;
  change: { currency: Currency; amountCents: number; baseCents: number } | null;
};

const REFUSALS = {
  wallet_overpays: "a wallet tender may pay at most what is still due (only cash gives change)",
  change_exceeds_cash: "the change would be more than the cash tendered",
  no_rate: "a tender or the change is in a currency without the rate used",
} as const;

/**
 * Settles `tenders` (in the order taken) against `dueCents` of the basket's currency. A tender after
 * the ones before it covered the basket is refused: it pays nothing, and the change it would make is
 * the cashier's slip, not the customer's due.
 */
export function settleTenders(request: {
  dueCents: number;
  base: Currency;
  tenders: readonly TenderInputBody[];
  rate: ExchangeRateRow | null;
  changeCurrency: Currency;
}): TenderSettlement {
  const rate = kernelRateOf(request.rate);
  let creditCents = 0;
  request.tenders.forEach((tender, index) => {
    if (creditCents >= request.dueCents) {
      throw invalidRequest("parameter_invalid", `tenders[${index}]: the tenders before it already cover the sale.`);
    }
    creditCents += creditOf(tender.amount_cents, tender.currency, request.base, rate) ?? 0;
  });
  const settlement = settle(
    request.dueCents,
    request.base,
    request.tenders.map((tender) => ({
      kind: tender.kind,
      currency: tender.currency,
      amountCents: tender.amount_cents,
    })),
    { rate, changeCurrency: request.changeCurrency },
  );
  switch (settlement.kind) {
    case "refused":
      throw invalidRequest("parameter_invalid", `tenders: ${REFUSALS[settlement.reason]} (${settlement.reason}).`);
    case "short":
      return { tenders: settlement.tenders, dueCents: settlement.dueCents, change: null };
    case "covered":
      return {
        tenders: settlement.tenders,
        dueCents: 0,
        change: settlement.change.baseCents > 0 ? settlement.change : null,
      };
  }
}

/**
 * 400 `tender_short`: what is still due, in the basket's currency and in the other, at the rate the
 * request named or else the rate in force (none set: the basket's currency alone).
 */
export async function tenderShort(
  database: Queryable,
  world: World,
  short: { dueCents: number; base: Currency; rate: ExchangeRateRow | null },
) {
  const other = currencies.find((currency) => currency !== short.base);
  const rate =
    short.rate ?? (other === undefined ? null : await rateInForce(database, world, { base: short.base, other }));
  const asked = other === undefined ? null : dueIn(short.dueCents, other, short.base, kernelRateOf(rate));
  return invalidRequest(
    "tender_short",
    `The tenders do not cover the sale: ${formatMoney(short.base, short.dueCents)}` +
      `${asked === null || other === undefined ? "" : ` (${formatMoney(other, asked)})`} is still due.`,
  );
}
