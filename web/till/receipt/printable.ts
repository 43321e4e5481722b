import type { Currency } from "../../../src/kernel/money.ts";

/**
 * What the till's printed receipt shows of a sale or a return, known at the till even before the
 * server has a cash sale (the outbox sends it later): `tenderedCents` is the cash handed over (null:
 * not told, or wallet); `at`, when it was rung up (ISO).
 */
export type PrintableReceipt = {
  kind: "sale" | "return";
  livemode: boolean;
  at: string;
  currency: Currency;
  items: readonly { name: string; qty: number; unit_cents: number; line_total_cents: number }[];
  totalCents: number;
  tender: "cash" | "wallet" | "split";
  tenderedCents: number | null;
};
