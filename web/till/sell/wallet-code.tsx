import type { ComponentChildren } from "preact";
import { useEffect, useState } from "preact/hooks";
import { type Currency, formatMoney } from "../../../src/kernel/money.ts";
import { Button } from "../../ui/index.ts";
import type { Sale } from "./sale-api.ts";

type Payment = NonNullable<Sale["payment"]>;

/**
 * A wallet payment as the customer pays it: the amount, the 9-digit code, its QR and deep link, and a
 * countdown to expiry; `children` say what waits on it. Shown for a wallet sale and for a split sale's
 * wallet tender alike. In TEST, "Simulate customer paid" settles the test payment as a customer would.
 */
export function PaymentCode(props: {
  /** What the amount is: the sale's total, or a split sale's wallet tender. */
  label: string;
  currency: Currency;
  amountCents: number;
  payment: Payment;
  livemode: boolean;
  children: ComponentChildren;
}) {
  const { payment } = props;
  return (
    <div class="wallet-pending">
      <p class="pay-total">
        {props.label} <strong>{formatMoney(props.currency, props.amountCents)}</strong>
      </p>
      <p>
        Payment code{" "}
        <strong class="payment-code" data-testid="payment-code">
          {groupCode(payment.code)}
        </strong>
      </p>
      <img
        class="qr"
        src={payment.qr_png_data_url}
        alt={`QR code of payment code ${payment.code}`}
        width={220}
        height={220}
      />
      <p>
        <a href={payment.deep_link}>Open in the wallet app</a>
      </p>
      <Countdown expiresAt={payment.expires_at} />
      <p class="muted" aria-live="polite">
        {props.children}
      </p>
      {props.livemode ? null : <SimulatePaid paymentId={payment.id} />}
    </div>
  );
}

function Countdown(props: { expiresAt: string }) {
  const secondsLeft = useSecondsUntil(props.expiresAt);
  return (
    <p class="countdown" aria-live="off">
      {secondsLeft > 0
        ? `Code valid for ${Math.floor(secondsLeft / 60)}:${String(secondsLeft % 60).padStart(2, "0")}`
        : "Code expired"}
    </p>
  );
}

/** TEST only: pays the test payment through the checkout's mock, as the customer's wallet would. */
function SimulatePaid(props: { paymentId: string }) {
  const [simulating, setSimulating] = useState(false);
  return (
    <Button
      busy={simulating}
      onClick={async () => {
        setSimulating(true);
        try {
          await fetch(`/checkout/${encodeURIComponent(props.paymentId)}/mockpay`, {
            method: "POST",
            headers: { "Content-Type": "application/json" },
            body: "{}",
          });
        } finally {
          setSimulating(false);
        }
      }}
    >
      Simulate customer paid (TEST)
    </Button>
  );
}

function useSecondsUntil(iso: string): number {
  const until = Date.parse(iso);
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return Math.max(0, Math.ceil((until - now) / 1000));
}

/** The 9-digit code in threes (`006 572 813`), as the checkout page shows it: easier to read out and type. */
export function groupCode(code: string): string {
  return code.replace(/^(\d{3})(\d{3})(\d{3})$/, "$1 $2 $3");
}
