/** What several dashboard pages show alike: a payment's shape and status, a loading or failed state. */
import type { Payment } from "../../lib/api.ts";
import { FormError } from "../../ui/index.ts";

export type { Payment };

export function PaymentStatus(props: { status: Payment["status"] }) {
  return <span class={`status status-${props.status}`}>{props.status}</span>;
}

export function Status(props: { resource: { state: "loading" } | { state: "failed"; error: Error } }) {
  return props.resource.state === "loading" ? (
    <p class="muted">Loading…</p>
  ) : (
    <FormError error={props.resource.error.message} />
  );
}
