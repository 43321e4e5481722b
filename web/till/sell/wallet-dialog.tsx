import { useEffect, useRef, useState } from "preact/hooks";
import { formatMoney } from "../../../src/kernel/money.ts";
import { ApiError, newIdempotencyKey } from "../../lib/api.ts";
import { Button, Dialog } from "../../ui/index.ts";
import { type CartLine, cart, cartCurrency, clearCart, saleItems } from "./cart.ts";
import { type Completed, followSale, postOnce, type Sale } from "./sale-api.ts";

/** The wallet sale last issued for a cart, kept when the dialog closes while its code is valid. */
let waiting: { cartKey: string; sale: Sale; expiresAt: string } | undefined;

const walletBodyOf = (lines: readonly CartLine[], currency: string | undefined) => ({
  tender: "wallet",
  currency,
  items: saleItems(lines),
});

/**
 * Whether a wallet code issued for this cart may still be paid: such a cart must not be parked or
 * changed away from under the customer, who could pay the code while the cashier takes cash.
 */
export function walletCodeOutstanding(lines: readonly CartLine[], currency: string | undefined): boolean {
  return (
    waiting !== undefined &&
    waiting.cartKey === JSON.stringify(walletBodyOf(lines, currency)) &&
    Date.parse(waiting.expiresAt) > Date.now()
  );
}

type State =
  | { kind: "creating" }
  | { kind: "pending"; sale: Sale }
  | { kind: "ended"; sale: Sale }
  | { kind: "failed"; message: string };

/**
 * Wallet: the pending sale's 9-digit code, QR and deep link with a countdown to expiry. It flips to
 * paid by itself: one waiting request at a time follows the sale (the API answers when the payment
 * settles), never a poll every few seconds. Expired or failed: try again with a new code, or take cash.
 * In TEST, "Simulate customer paid" settles the test payment as a customer would.
 */
export function WalletDialog(props: {
  open: boolean;
  onCompleted: (result: Completed) => void;
  onPayCash: () => void;
  onClose: () => void;
}) {
  const [state, setState] = useState<State>({ kind: "creating" });
  const [attempt, setAttempt] = useState(0);
  const latest = useRef(props);
  latest.current = props;

  useEffect(() => {
    if (!props.open) return;
    const following = new AbortController();
    const body = walletBodyOf(cart.value, cartCurrency.value);
    const cartKey = JSON.stringify(body);
    // Reopened for the same cart while its code is still valid: wait for that code, never issue a
    // second one the customer might also pay.
    const resumed =
      waiting !== undefined && waiting.cartKey === cartKey && Date.parse(waiting.expiresAt) > Date.now()
        ? waiting.sale
        : undefined;
    setState({ kind: "creating" });
    (resumed === undefined ? postOnce<Sale>("/v1/sales", body, newIdempotencyKey()) : Promise.resolve(resumed))
      .then((sale) => {
        waiting = { cartKey, sale, expiresAt: sale.payment?.expires_at ?? sale.created_at };
        if (following.signal.aborted) return;
        setState({ kind: "pending", sale });
        return followSale(sale.id, following.signal, (update) => {
          if (update.status !== "pending") waiting = undefined;
          if (update.status === "completed") {
            clearCart();
            latest.current.onCompleted({ sale: update, changeCents: undefined });
          } else if (update.status === "cancelled") {
            setState({ kind: "ended", sale: update });
          } else {
            setState({ kind: "pending", sale: update });
          }
        });
      })
      .catch((error: unknown) => {
        if (!following.signal.aborted) {
          setState({ kind: "failed", message: error instanceof ApiError ? error.message : String(error) });
        }
      });
    return () => following.abort();
  }, [props.open, attempt]);

  return (
    <Dialog open={props.open} title="Pay by wallet" onClose={props.onClose}>
      {state.kind === "creating" ? <p aria-live="polite">Getting a payment code…</p> : null}
      {state.kind === "pending" && state.sale.payment !== null ? (
        <Pending sale={state.sale} payment={state.sale.payment} />
      ) : null}
      {state.kind === "ended" ? (
        <p class="form-error" role="alert">
          The payment code expired unpaid. Try again with a new code, or take cash.
        </p>
      ) : null}
      {state.kind === "failed" ? (
        <p class="form-error" role="alert">
          {state.message}
        </p>
      ) : null}
      <div class="dialog-actions">
        {state.kind === "ended" || state.kind === "failed" ? (
          <>
            <Button onClick={() => setAttempt((value) => value + 1)}>Try again</Button>
            <Button onClick={props.onPayCash}>Take cash instead</Button>
          </>
        ) : null}
        <Button onClick={props.onClose}>Close</Button>
      </div>
    </Dialog>
  );
}

function Pending(props: { sale: Sale; payment: NonNullable<Sale["payment"]> }) {
  const { sale, payment } = props;
  const secondsLeft = useSecondsUntil(payment.expires_at);
  const [simulating, setSimulating] = useState(false);
  return (
    <div class="wallet-pending">
      <p class="pay-total">
        Total <strong>{formatMoney(sale.currency, sale.total_cents)}</strong>
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
      <p class="countdown" aria-live="off">
        {secondsLeft > 0
          ? `Code valid for ${Math.floor(secondsLeft / 60)}:${String(secondsLeft % 60).padStart(2, "0")}`
          : "Code expired"}
      </p>
      <p class="muted" aria-live="polite">
        Waiting for the customer to pay… Closing keeps this code valid: Pay wallet again shows it.
      </p>
      {sale.livemode ? null : (
        <Button
          busy={simulating}
          onClick={async () => {
            setSimulating(true);
            try {
              await fetch(`/checkout/${encodeURIComponent(payment.id)}/mockpay`, {
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
      )}
    </div>
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
