/** What several dashboard pages show alike: a payment's shape and status, a loading or failed state. */
import type { Currency } from "../../../src/kernel/money.ts";

export type Payment = {
  id: string;
  status: "pending" | "paid" | "expired" | "failed" | "cancelled";
  amount_cents: number;
  currency: Currency;
  merchant_ref: string | null;
  narration: string | null;
  paid_at: string | null;
  created_at: string;
};

export function PaymentStatus(props: { status: Payment["status"] }) {
  return <span class={`status status-${props.status}`}>{props.status}</span>;
}

export function Status(props: { resource: { state: "loading" } | { state: "failed"; error: Error } }) {
  return props.resource.state === "loading" ? (
    <p class="muted">Loading…</p>
  ) : (
    <p class="form-error" role="alert">
      {props.resource.error.message}
    </p>
  );
}
