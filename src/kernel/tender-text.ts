import { type Currency, formatMoney } from "./money.ts";

/**
 * A tender as receipts print it (the server's receipt page, the till's printed receipt, the
 * dashboard's sale): its kind and state, its amount in its own currency and, in the other currency,
 * the rate it was taken at and what it counted for ("ZWG 150.00 at 26.5 = USD 5.66"). Imports only
 * money.ts, so the browser uses it as well as the server.
 */

const MICROS_DECIMALS = 6;

/** 26784300 → `"26.7843"`: a rate in millionths as people write it (no trailing zeros). */
export function rateText(otherPerBaseMicros: number): string {
  const whole = Math.floor(otherPerBaseMicros / 10 ** MICROS_DECIMALS);
  const fraction = String(otherPerBaseMicros % 10 ** MICROS_DECIMALS)
    .padStart(MICROS_DECIMALS, "0")
    .replace(/0+$/, "");
  return fraction === "" ? String(whole) : `${whole}.${fraction}`;
}

/** What a receipt needs of a tender (the API's sale tender fits). */
export type ShownTender = {
  kind: "cash" | "wallet";
  currency: Currency;
  amount_cents: number;
  credit_cents: number;
  other_per_base_micros: number | null;
  status: "paid" | "pending" | "failed";
};

const KINDS = { cash: "Cash", wallet: "Wallet" } as const;
/** A paid tender needs no word; a failed one paid nothing, and says so. */
const STATES = { paid: "", pending: " (pending)", failed: " (failed: paid nothing)" } as const;

/** A tender as a receipt's row: `label` ("Wallet (pending)") on the left, `amount` on the right. */
export function tenderRow(base: Currency, tender: ShownTender): { label: string; amount: string } {
  const money = formatMoney(tender.currency, tender.amount_cents);
  const rated =
    tender.currency === base || tender.other_per_base_micros === null
      ? money
      : `${money} at ${rateText(tender.other_per_base_micros)} = ${formatMoney(base, tender.credit_cents)}`;
  return { label: `${KINDS[tender.kind]}${STATES[tender.status]}`, amount: rated };
}

/** Amounts in several currencies, one per currency, in the order met: "USD 3.00 + ZWG 20.00". */
export function perCurrencyText(amounts: readonly { currency: Currency; amount_cents: number }[]): string {
  const sums = new Map<Currency, number>();
  for (const amount of amounts) {
    sums.set(amount.currency, (sums.get(amount.currency) ?? 0) + amount.amount_cents);
  }
  return [...sums].map(([currency, cents]) => formatMoney(currency, cents)).join(" + ");
}
