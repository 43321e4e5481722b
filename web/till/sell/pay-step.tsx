import { useEffect, useRef, useState } from "preact/hooks";
import { type Currency, formatMoney } from "../../../src/kernel/money.ts";
import type { ExchangeRate } from "../../lib/api/exchange-rates.ts";
import { ApiError, addSaleTender, createSale } from "../../lib/api.ts";
import { Button, Dialog, FormError } from "../../ui/index.ts";
import { withTillId } from "../shift/till-id.ts";
import { cart, cartCurrency, cartTotalCents, otherCurrency, saleDiscount, saleItems } from "./cart.ts";
import { giveBack } from "./give-back.ts";
import { keepCashSale } from "./keep-cash-sale.ts";
import { awaitsPayment, type Completed, completedSale, postOnce, type Sale } from "./sale-api.ts";
import { TenderBuilder, type TendersToSend } from "./tender-builder.tsx";
import { addedTender, liveTenders, printedTenders, splitFields } from "./tender-plan.ts";
import { RateLine, SentTenders, useDayRate } from "./tender-summary.tsx";
import { PaymentCode } from "./wallet-code.tsx";
import { cancelHeldPayment, heldSale, holdWalletSale, onHeldSaleEnded, updateHeldSale } from "./wallet-hold.ts";

type Props = { onCompleted: (result: Completed) => void; onClose: () => void };
type Given = { currency: Currency; amountCents: number }[];

/**
 * The Pay step (issue 47): a sale paid by several tenders, cash in the basket's currency or the other
 * one at the rate of the day, and a wallet; change in the currency the cashier chooses. Cash alone
 * completes the sale at once (through the offline outbox, like a cash sale). With a wallet tender the
 * sale is pending and holds the cart (`wallet-hold.ts`) while its code shows; if that payment expires
 * or fails, what was paid is kept and shown, and the cashier takes another tender or cancels the sale,
 * which says what to give back. Loaded on demand (`sell-screen.tsx`).
 */
export function PayStep(props: Props) {
  const held = heldSale.value;
  const base = held?.currency ?? cartCurrency.value ?? "USD";
  const other = otherCurrency(base);
  const day = useDayRate(base, other);
  const [gaveBack, setGaveBack] = useState<Given | undefined>(undefined);
  const latest = useRef(props);
  latest.current = props;
  // The held split sale completed (its wallet paid, or a tender added here): the sale is done.
  useEffect(
    () =>
      onHeldSaleEnded(
        (sale, changeDue) => sale.status === "completed" && latest.current.onCompleted(completedSale(sale, changeDue)),
      ),
    [],
  );
  return (
    <Dialog open title="Split payment" onClose={props.onClose}>
      <RateLine base={base} other={other} rate={day.rate} reading={day.reading} />
      {gaveBack !== undefined ? (
        <GaveBack given={gaveBack} onClose={props.onClose} />
      ) : held?.tender === "split" ? (
        <HeldSplit sale={held} other={other} rate={day.rate} onCancelled={setGaveBack} onClose={props.onClose} />
      ) : (
        <DraftSplit base={base} other={other} rate={day.rate} {...props} />
      )}
    </Dialog>
  );
}

/** A new split sale from the cart: the tenders taken, then sent as one sale. */
function DraftSplit(props: Props & { base: Currency; other: Currency; rate: ExchangeRate | undefined }) {
  const { base, rate } = props;
  const send = async ({ tenders, changeCurrency, change, idempotencyKey }: TendersToSend) => {
    const fields = splitFields(tenders, base, changeCurrency, rate);
    if (tenders.every((tender) => tender.kind === "cash")) {
      const paid = printedTenders(cartTotalCents.value, base, tenders, rate, changeCurrency);
      props.onCompleted(await keepCashSale(fields, change, paid));
      return;
    }
    const body = { currency: base, items: saleItems(cart.value), ...saleDiscount(), ...fields };
    // Cash tenders join this till's open drawer; a wallet alone needs none.
    const named = tenders.some((tender) => tender.kind === "cash") ? withTillId(body) : body;
    // A discount over the shop's limit at a till with cashiers: a manager's PIN approves it.
    const sale = await postOnce(
      (managerApproval) => createSale(named, { idempotencyKey, managerApproval }),
      "discount",
    );
    // The sale is pending on its wallet tender: it holds the cart, and this step shows its code.
    holdWalletSale(sale);
  };
  return (
    <TenderBuilder
      base={base}
      other={props.other}
      totalCents={cartTotalCents.value}
      rate={rate}
      taken={[]}
      maxNew={4}
      leaveLabel="Back"
      onSend={send}
      onBack={props.onClose}
    />
  );
}

/**
 * A split sale waiting on a wallet tender: its tenders and their state, the code while it can be paid;
 * once it failed, what was paid is kept, and one more tender can be taken, or the sale cancelled.
 */
function HeldSplit(props: {
  sale: Sale;
  other: Currency;
  rate: ExchangeRate | undefined;
  onCancelled: (given: Given) => void;
  onClose: () => void;
}) {
  const { sale, rate } = props;
  const waiting = sale.tenders.find((tender) => tender.status === "pending");
  const payment = waiting !== undefined && sale.payment?.id === waiting.payment_id ? sale.payment : null;
  const send = async ({ tenders, changeCurrency, change, idempotencyKey }: TendersToSend) => {
    const [tender] = tenders;
    if (tender === undefined) return;
    const body = addedTender(tender, sale.currency, changeCurrency, rate);
    const world = sale.livemode ? "live" : "test";
    const answer = await postOnce((managerApproval) =>
      addSaleTender(sale.id, body, { idempotencyKey, managerApproval, world }),
    );
    // Completed: the hold ends, the cart clears, and the Pay step reports the sale done. A wallet
    // tender added: followed again until its payment ends (following stopped when the last one failed).
    if (answer.status === "pending" && awaitsPayment(answer)) holdWalletSale(answer);
    else updateHeldSale(answer, change ?? null);
  };
  return (
    <>
      <SentTenders base={sale.currency} tenders={sale.tenders} />
      {sale.change === null ? null : (
        <p class="sale-done" role="status" data-testid="split-change">
          Give the change now: {formatMoney(sale.change.currency, sale.change.amount_cents)} (the cash is in the drawer;
          if the wallet fails, the sale keeps the cash less this change).
        </p>
      )}
      {waiting === undefined ? (
        <TenderBuilder
          base={sale.currency}
          other={props.other}
          totalCents={sale.total_cents}
          rate={rate}
          taken={liveTenders(sale)}
          maxNew={1}
          changeIn={sale.change?.currency}
          leaveLabel="Close"
          onSend={send}
          onBack={props.onClose}
        >
          <p class="form-error" role="alert">
            The wallet payment did not go through. What was paid is kept ({formatMoney(sale.currency, sale.paid_cents)}
            ): take another tender for what is still due, or cancel the sale.
          </p>
        </TenderBuilder>
      ) : (
        <WaitingTender sale={sale} payment={payment} amountCents={waiting.amount_cents} currency={waiting.currency} />
      )}
      <CancelSplit sale={sale} onCancelled={props.onCancelled} />
      {waiting === undefined ? null : (
        <div class="dialog-actions">
          <Button onClick={props.onClose}>Close</Button>
        </div>
      )}
    </>
  );
}

/** The wallet tender's code, as the wallet dialog shows a wallet sale's. */
function WaitingTender(props: { sale: Sale; payment: Sale["payment"]; currency: Currency; amountCents: number }) {
  if (props.payment === null) {
    return (
      <p aria-live="polite">Waiting for the wallet payment of {formatMoney(props.currency, props.amountCents)}…</p>
    );
  }
  return (
    <PaymentCode
      label="To pay by wallet"
      currency={props.currency}
      amountCents={props.amountCents}
      payment={props.payment}
      livemode={props.sale.livemode}
    >
      Waiting for the customer to pay… The basket is locked to this sale: closing keeps it, and Split shows it again.
    </PaymentCode>
  );
}

/** "Cancel sale", confirmed after saying what goes back to the customer: every paid tender, in cash from the drawer. */
function CancelSplit(props: { sale: Sale; onCancelled: (given: Given) => void }) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const given = giveBack(props.sale);
  const cancel = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const answer = await cancelHeldPayment();
      if (answer?.status === "cancelled") props.onCancelled(given);
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : "Could not cancel the sale. Try again.");
    } finally {
      setBusy(false);
    }
  };
  if (!asking) {
    return (
      <div class="dialog-actions">
        <Button variant="danger" onClick={() => setAsking(true)}>
          Cancel sale…
        </Button>
      </div>
    );
  }
  return (
    <div class="cart-held" role="alertdialog" aria-labelledby="cancel-split-title">
      <p id="cancel-split-title">
        <strong>Cancel this sale?</strong> {givenText(given, "Give back to the customer, in cash from the drawer:")}
      </p>
      <FormError error={error} />
      <div class="cart-held-actions">
        <Button onClick={() => setAsking(false)}>Keep the sale</Button>
        <Button variant="danger" busy={busy} onClick={cancel}>
          Cancel sale and give back
        </Button>
      </div>
    </div>
  );
}

const givenText = (given: Given, lead: string) =>
  given.length === 0
    ? "Nothing was paid: nothing to give back."
    : `${lead} ${given.map((money) => formatMoney(money.currency, money.amountCents)).join(" and ")}.`;

/** After the cancel: what to hand back, until the cashier closes the step (the cart is free again). */
function GaveBack(props: { given: Given; onClose: () => void }) {
  return (
    <>
      <p class="sale-done" role="status" data-testid="split-cancelled">
        Sale cancelled. {givenText(props.given, "Give back to the customer, in cash from the drawer:")}
      </p>
      <div class="dialog-actions">
        <Button variant="primary" onClick={props.onClose}>
          Done
        </Button>
      </div>
    </>
  );
}
