import { formatMoney } from "../../src/kernel/money.ts";
import type { ShiftCash } from "../lib/api.ts";

/** A drawer's difference in words: "USD 0.50 short", "ZWG 1.00 over", "USD 0.00 (even)"; "USD —" while open. */
export function overShort(cash: ShiftCash): string {
  const cents = cash.over_short_cents;
  if (cents === null) return `${cash.currency} —`;
  if (cents === 0) return `${formatMoney(cash.currency, 0)} (even)`;
  return `${formatMoney(cash.currency, Math.abs(cents))} ${cents > 0 ? "over" : "short"}`;
}

/** The class that colours a difference: `over`, `short`, none when even or open. */
export const overShortClass = (cash: ShiftCash) =>
  cash.over_short_cents === null || cash.over_short_cents === 0
    ? undefined
    : cash.over_short_cents > 0
      ? "over"
      : "short";
