import type { ComponentChildren } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import type { Currency } from "../../../src/kernel/money.ts";
import type { ExchangeRate } from "../../lib/api/exchange-rates.ts";
import { useAction } from "../../lib/use-action.ts";
import { Button, FormError } from "../../ui/index.ts";
import { networkUp } from "../offline/index.ts";
import { ChangeChoice, TenderForm } from "./tender-form.tsx";
import {
  changeOptions,
  kernelRate,
  readiness,
  type Tally,
  type TenderInput,
  tally,
  withCredits,
} from "./tender-plan.ts";
import { NewTenders, TenderFigures } from "./tender-summary.tsx";

/** What the builder sends: the new tenders in order, the change's currency, and the change they leave. */
export type TendersToSend = {
  tenders: TenderInput[];
  changeCurrency: Currency;
  change: { currency: Currency; amountCents: number } | undefined;
  idempotencyKey: string;
};

/**
 * Takes tenders until they can be sent: after `taken` (a pending sale's tenders, at what they were
 * credited), at most `maxNew` new ones, with paid so far and still due in both currencies, the change
 * and its currency, and why they cannot be sent yet. `onSend` runs under the form's one action key.
 */
export function TenderBuilder(props: {
  base: Currency;
  other: Currency;
  totalCents: number;
  rate: ExchangeRate | undefined;
  taken: readonly TenderInput[];
  maxNew: number;
  /** The button that leaves the step without sending: "Back" to the cart, or "Close" (the sale stays held). */
  leaveLabel: string;
  /** The only currency change may be given in: the one a held sale already gave change in (the API's rule). */
  changeIn?: Currency | undefined;
  children?: ComponentChildren;
  onSend: (send: TendersToSend) => Promise<void>;
  onBack: () => void;
}) {
  const { base, other, totalCents } = props;
  const [tenders, setTenders] = useState<TenderInput[]>([]);
  const [changeCurrency, setChangeCurrency] = useState<Currency>(props.changeIn ?? base);
  const { busy, error, run } = useAction("The payment could not be taken.");
  const rate = kernelRate(props.rate);
  const all = [...props.taken, ...tenders];
  const result = tally(totalCents, base, all, rate, changeCurrency);
  const ready = readiness(tenders, result);
  const change = changeOptions(totalCents, base, all, rate).filter(
    (option) => props.changeIn === undefined || option.currency === props.changeIn,
  );
  const hasWallet = tenders.some((tender) => tender.kind === "wallet");
  const box = useRef<HTMLDivElement>(null);
  useKeepFocus(box, tenders.length);
  const send = () =>
    run(async (idempotencyKey) => {
      const chosen = change.find((option) => option.currency === changeCurrency);
      await props.onSend({ tenders, changeCurrency: chosen?.currency ?? base, change: chosen, idempotencyKey });
    });
  return (
    <div class="tender-builder" ref={box}>
      {props.children}
      <NewTenders
        base={base}
        tenders={withCredits(tenders, base, rate)}
        onRemove={(index) => setTenders(tenders.filter((_, at) => at !== index))}
      />
      <TenderFigures base={base} other={other} totalCents={totalCents} tally={result} />
      {tenders.length >= props.maxNew || result.dueCents === 0 ? null : (
        <TenderForm
          base={base}
          other={other}
          dueCents={result.dueCents}
          dueOtherCents={result.dueOtherCents}
          walletRefusal={walletRefusal(hasWallet)}
          onAdd={(tender) => setTenders([...tenders, tender])}
        />
      )}
      {change.length === 0 ? null : (
        <ChangeChoice value={changeCurrency} change={change} onChoose={setChangeCurrency} />
      )}
      <FormError error={ready.why} />
      <FormError error={error} />
      <div class="dialog-actions">
        <Button onClick={props.onBack}>{props.leaveLabel}</Button>
        <Button variant="primary" busy={busy} disabled={!ready.ready || tenders.length === 0} onClick={send}>
          {sendLabel(hasWallet, result)}
        </Button>
      </div>
    </div>
  );
}

/**
 * Adding the last tender hides the form, removing one its × button: the focus they held goes to the
 * amount field, else to the step's main button, never to the page (a keyboard user keeps their place).
 */
function useKeepFocus(box: { current: HTMLDivElement | null }, count: number): void {
  useEffect(() => {
    const element = box.current;
    if (element === null || element.contains(document.activeElement)) return;
    element.querySelector<HTMLElement>("input, .dialog-actions .button-primary:not(:disabled)")?.focus();
  }, [count]);
}

const walletRefusal = (hasWallet: boolean) =>
  !networkUp.value
    ? "Wallet payments need the network — take cash or wait"
    : hasWallet
      ? "One wallet payment at a time."
      : undefined;

/** A wallet tender is sent for its code; cash alone completes the sale. */
const sendLabel = (hasWallet: boolean, result: Tally) =>
  hasWallet ? "Get wallet code" : result.settlement.kind === "covered" ? "Complete sale" : "Take payment";
