/** The shop's API objects as the dashboard reads them (docs/shop.md; the OpenAPI document has every field). */
import type { Currency } from "../../../../src/kernel/money.ts";

import type { Actor } from "../../../lib/shift.ts";

export type { Actor, Shift, ShiftCash } from "../../../lib/shift.ts";

export type CashierRole = "cashier" | "manager";

export type Cashier = {
  id: string;
  name: string;
  /** A manager's PIN approves returns, cash pay-outs and a drawer closed with a difference at a till. */
  role: CashierRole;
  status: "active" | "locked" | "disabled";
  failed_pin_attempts: number;
  locked_at: string | null;
  disabled_at: string | null;
  created_at: string;
};

export type TillDevice = {
  id: string;
  name: string;
  status: "paired" | "revoked";
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
};

export type CashMove = {
  id: string;
  kind: "float" | "sale" | "return" | "pay_in" | "pay_out";
  currency: Currency;
  amount_cents: number;
  reason: string | null;
  sale_id: string | null;
  return_id: string | null;
  actor: Actor;
  created_at: string;
};

export type SaleLine = {
  product_id: string | null;
  name: string;
  qty: number;
  unit_cents: number;
  line_total_cents: number;
};

export type SaleReturn = {
  id: string;
  currency: Currency;
  refund_cents: number;
  items: (SaleLine & { line: number })[];
  till_id: string | null;
  reason: string | null;
  actor: Actor;
  receipt_url: string | null;
  created_at: string;
};

export type Sale = {
  id: string;
  status: "pending" | "completed" | "cancelled";
  tender: "cash" | "wallet";
  total_cents: number;
  currency: Currency;
  items: SaleLine[];
  cashier: string | null;
  note: string | null;
  payment_id: string | null;
  actor: Actor;
  till_id: string | null;
  shift_id: string | null;
  returns: SaleReturn[];
  receipt_url: string | null;
  taken_at: string;
  created_at: string;
};
