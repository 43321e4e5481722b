import { useEffect, useRef, useState } from "preact/hooks";
import { actionKey } from "../../lib/action-key.ts";
import { ApiError, createSale, type NewSale } from "../../lib/api.ts";
import { Button, Dialog, toast } from "../../ui/index.ts";
import { type CartLine, cart, cartCurrency, saleDiscount, saleItems } from "./cart.ts";
import { type Completed, completedSale, postOnce, type Sale } from "./sale-api.ts";
import { PaymentCode } from "./wallet-code.tsx";
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
  const [attempt, setAttempt] = useState(0);
  const state = useWalletSale(props, attempt);
  const held = heldSale.value;
  return (
    <Dialog open={props.open} title="Pay by wallet" onClose={props.onClose}>
      {state.kind === "creating" ? <p aria-live="polite">Getting a payment code…</p> : null}
      {state.kind === "pending" && held?.payment != null ? (
        <PaymentCode
          label="Total"
          currency={held.currency}
          amountCents={held.total_cents}
          payment={held.payment}
          livemode={held.livemode}
        >
          Waiting for the customer to pay… The basket is locked to this code: closing keeps it, Pay wallet shows it
          again, and Cancel payment frees the basket.
        </PaymentCode>
      ) : null}
      {state.kind === "ended" || state.kind === "failed" ? (
        <p class="form-error" role="alert">
          {state.kind === "failed"
            ? state.message
            : state.sale.payment?.status === "cancelled"
              ? "The payment was cancelled. Try again with a new code, or take cash."
              : "The payment code expired unpaid. Try again with a new code, or take cash."}
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
 * The wallet sale of the cart while the dialog is open: the held one, else one created (again at each
 * `attempt`); its end (paid: `onCompleted`; expired or cancelled: "ended") as the hold reports it.
 */
function useWalletSale(props: { open: boolean; onCompleted: (result: Completed) => void }, attempt: number): State {
  const [state, setState] = useState<State>({ kind: "creating" });
  // The wallet sale's Idempotency-Key, by the one rule (web/lib/action-key.ts): "Try again" after a
  // lost answer asks for the same sale, so the customer never gets a second code for the first one.
  const key = useRef(actionKey()).current;
  const latest = useRef(props);
  latest.current = props;
  useEffect(
    () =>
      onHeldSaleEnded((sale) => {
        if (!latest.current.open) return;
        if (sale.status === "completed") latest.current.onCompleted(completedSale(sale));
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
  return state;
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
