import { useEffect, useRef, useState } from "preact/hooks";
import { formatMoney } from "../../../src/kernel/money.ts";
import { actionKey } from "../../lib/action-key.ts";
import { ApiError, createSale, type NewSale } from "../../lib/api.ts";
import { Button, Dialog, toast } from "../../ui/index.ts";
import { type CartLine, cart, cartCurrency, saleDiscount, saleItems } from "./cart.ts";
import { type Completed, completedWalletSale, postOnce, type Sale } from "./sale-api.ts";
import { cancelHeldPayment, heldSale, holdWalletSale, onHeldSaleEnded } from "./wallet-hold.ts";

const walletBodyOf = (lines: readonly CartLine[], currency: NewSale["currency"]): NewSale => ({
  tender: "wallet",
  currency,
  items: saleItems(lines),
  ...saleDiscount(),
});

type State =
  | { kind: "creating" }
  | { kind: "pending" }
  | { kind: "ended"; sale: Sale }
  | { kind: "failed"; message: string };

/**
 * Wallet: the pending sale's 9-digit code, QR and deep link with a countdown to expiry. The sale holds
 * the cart (`wallet-hold.ts`): reopening Pay wallet shows the same code, never a second one the
 * customer might also pay, and changing the basket takes "Cancel payment". It flips to paid by itself
 * (the hold's one waiting request follows the sale). Expired: try again with a new code, or take
 * cash. In TEST, "Simulate customer paid" settles the test payment as a customer would.
 */
export function WalletDialog(props: {
  open: boolean;
  onCompleted: (result: Completed) => void;
  onPayCash: () => void;
  onClose: () => void;
}) {
  const [state, setState] = useState<State>({ kind: "creating" });
  const [attempt, setAttempt] = useState(0);
  // The wallet sale's Idempotency-Key, by the one rule (web/lib/action-key.ts): "Try again" after a
  // lost answer asks for the same sale, so the customer never gets a second code for the first one.
  const key = useRef(actionKey()).current;
  const latest = useRef(props);
  latest.current = props;

  useEffect(
    () =>
      onHeldSaleEnded((sale) => {
        if (!latest.current.open) return;
        if (sale.status === "completed") latest.current.onCompleted(completedWalletSale(sale));
        else setState({ kind: "ended", sale });
      }),
    [],
  );

  useEffect(() => {
    if (!props.open) return;
    if (heldSale.value !== undefined) {
      setState({ kind: "pending" });
      return;
    }
    let closed = false;
    setState({ kind: "creating" });
    const idempotencyKey = key.take();
    // A discount over the shop's limit at a till with cashiers: a manager's PIN approves it.
    postOnce(
      (managerApproval) =>
        createSale(walletBodyOf(cart.value, cartCurrency.value), { idempotencyKey, managerApproval }),
      "discount",
    )
      .then((sale) => {
        key.settle();
        // Held even when the dialog was closed meanwhile: the code exists and can be paid.
        holdWalletSale(sale);
        if (!closed) setState({ kind: "pending" });
      })
      .catch((error: unknown) => {
        key.settle(error);
        if (!closed) setState({ kind: "failed", message: error instanceof ApiError ? error.message : String(error) });
      });
    return () => {
      closed = true;
    };
  }, [props.open, attempt]);

  const held = heldSale.value;
  return (
    <Dialog open={props.open} title="Pay by wallet" onClose={props.onClose}>
      {state.kind === "creating" ? <p aria-live="polite">Getting a payment code…</p> : null}
      {state.kind === "pending" && held?.payment != null ? <Pending sale={held} payment={held.payment} /> : null}
      {state.kind === "ended" ? (
        <p class="form-error" role="alert">
          {state.sale.payment?.status === "cancelled"
            ? "The payment was cancelled. Try again with a new code, or take cash."
            : "The payment code expired unpaid. Try again with a new code, or take cash."}
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
        {state.kind === "pending" && held !== undefined ? <CancelPaymentButton onCancelled={props.onClose} /> : null}
        <Button onClick={props.onClose}>Close</Button>
      </div>
    </Dialog>
  );
}

/**
 * "Cancel payment": cancels the held sale's payment on the server (its code voided), which frees the
 * cart to change. The customer may have paid a moment before: then the sale is shown completed.
 */
export function CancelPaymentButton(props: { onCancelled?: () => void }) {
  const [busy, setBusy] = useState(false);
  return (
    <Button
      variant="danger"
      busy={busy}
      onClick={async () => {
        setBusy(true);
        try {
          const sale = await cancelHeldPayment();
          if (sale?.status === "cancelled") {
            toast("Payment cancelled: the code can no longer be paid. Change the basket or pay again.", "info");
            props.onCancelled?.();
          }
        } catch (error) {
          toast(error instanceof ApiError ? error.message : "Could not cancel the payment. Try again.", "error");
        } finally {
          setBusy(false);
        }
      }}
    >
      Cancel payment
    </Button>
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
        Waiting for the customer to pay… The basket is locked to this code: closing keeps it, Pay wallet shows it again,
        and Cancel payment frees the basket.
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
