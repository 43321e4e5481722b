import { api } from "../lib/session.ts";
import type { Actor, Shift } from "../lib/shift.ts";

/** Who did something, with the name a person reads (a cashier's, a till's, "Owner", "API key …1234"). */
export type NamedActor = Actor & { name: string };

/** A drawer move other than a cash sale: float, pay-in, pay-out, refund (signed cents). */
export type DrawerMove = {
  id: string;
  kind: "float" | "return" | "pay_in" | "pay_out" | "sale";
  currency: Shift["cash"][number]["currency"];
  amount_cents: number;
  reason: string | null;
  actor: NamedActor;
  created_at: string;
};

/** A shift's Z report as the API answers it (`GET /v1/shifts/:id/z_report`, docs/shop.md). */
export type ZReport = {
  shift: Shift;
  till: { id: string; name: string | null };
  opened_by: NamedActor;
  closed_by: NamedActor | null;
  cashiers: (NamedActor & { cash_sales_count: number; refunds_count: number })[];
  cash_moves: DrawerMove[];
  cash_moves_has_more: boolean;
  /** The shift's completed sales per currency: discounts, and tax per rate. */
  sales: {
    currency: DrawerMove["currency"];
    sales_count: number;
    discount_cents: number;
    tax_cents: number;
    taxes: { rate_bp: number; taxable_cents: number; tax_cents: number }[];
  }[];
};

/** The one request of the Z report, the till's and the dashboard's alike. */
export function getZReport(shiftId: string): Promise<ZReport> {
  return api.get<ZReport>(`/v1/shifts/${encodeURIComponent(shiftId)}/z_report`);
}
