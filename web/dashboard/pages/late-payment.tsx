import { useState } from "preact/hooks";
import { formatMoney } from "../../../src/kernel/money.ts";
import { type Payment, refundLatePayment } from "../../lib/api.ts";
import { formatDateTime } from "../../lib/format.ts";
import { useAction } from "../../lib/use-action.ts";
import { Button, FormError } from "../../ui/index.ts";

/** Money that arrived after the payment was cancelled or expired (`late_payment` of the API's payment). */
export type LatePayment = NonNullable<Payment["late_payment"]>;

type Paid = Pick<Payment, "id" | "status" | "currency" | "amount_cents"> & { late_payment: LatePayment };

/**
 * A late payment on the payment's page: what happened (credited to the balance, the sale not made)
 * and the one-click refund: back to the payer's wallet where the gateway can send it, else flagged
 * for the merchant to refund in cash.
 */
export function LatePaymentCard(props: { payment: Paid }) {
  const [late, setLate] = useState(props.payment.late_payment);
  const { busy, error, run } = useAction();
  const { payment } = props;
  const amount = formatMoney(payment.currency, payment.amount_cents);
  const refund = () =>
    run(async () => {
      const answered = await refundLatePayment(payment.id);
      if (answered.late_payment !== null) setLate(answered.late_payment);
    });
  return (
    <section class="card late-payment" aria-labelledby="late-title" data-testid="late-payment">
      <h2 id="late-title">Late payment</h2>
      <p>
        The payer paid {amount} on {formatDateTime(late.paid_at)}
        {late.payer_msisdn === null ? "" : ` from ${late.payer_msisdn}`}, after this payment was {payment.status}. It
        was credited to your balance; no sale was completed for it.
      </p>
      {late.refund === "due" ? (
        <p>
          <Button variant="primary" busy={busy} onClick={refund}>
            Refund the payer
          </Button>{" "}
          <span class="muted">To their wallet where the network allows; otherwise you refund in cash.</span>
        </p>
      ) : null}
      {late.refund === "wallet" && late.refund_reference !== null ? (
        <p role="status">Refunded to the payer's wallet (reference {late.refund_reference}).</p>
      ) : null}
      {late.refund === "wallet" && late.refund_reference === null ? (
        <p>
          The refund to the payer's wallet is not confirmed yet.{" "}
          <Button busy={busy} onClick={refund}>
            Send again
          </Button>
        </p>
      ) : null}
      {late.refund === "cash" ? (
        <p role="status">Refund in cash: hand {amount} back to the payer; it stays in your balance.</p>
      ) : null}
      <FormError error={error} />
    </section>
  );
}
