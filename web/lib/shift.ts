import type { Currency } from "../../src/kernel/money.ts";

/** A drawer shift as the API answers it (docs/shop.md), read by the till and the dashboard alike. */

/** Who did something: the API's public actor. */
export type Actor = { type: "api_key" | "dashboard_user" | "till_user"; id: string };

/** One currency of a shift's drawer (cents; refunds and pay-outs positive). */
export type ShiftCash = {
  currency: Currency;
  float_cents: number;
  cash_sales_cents: number;
  cash_sales_count: number;
  refunds_cents: number;
  refunds_count: number;
  pay_ins_cents: number;
  pay_outs_cents: number;
  expected_cents: number;
  counted_cents: number | null;
  over_short_cents: number | null;
};

export type Shift = {
  id: string;
  livemode: boolean;
  till_id: string;
  status: "open" | "closed";
  cash: ShiftCash[];
  opened_by: Actor;
  closed_by: Actor | null;
  close_note: string | null;
  opened_at: string;
  closed_at: string | null;
};
