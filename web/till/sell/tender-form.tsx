import { useState } from "preact/hooks";
import { type Currency, formatMoney } from "../../../src/kernel/money.ts";
import { Button, Field } from "../../ui/index.ts";
import { parseAmountCents } from "../money.ts";
import type { TenderInput } from "./tender-plan.ts";

/** A row of toggle buttons (one pressed), 44 px targets, each a plain button for touch and keyboard. */
function Choice<Value extends string>(props: {
  legend: string;
  value: Value;
  options: readonly { value: Value; label: string; disabled?: boolean }[];
  onChoose: (value: Value) => void;
}) {
  return (
    <fieldset class="quick-tenders tender-choice">
      <legend>{props.legend}</legend>
      {props.options.map((option) => (
        <Button
          key={option.value}
          aria-pressed={option.value === props.value}
          disabled={option.disabled}
          onClick={() => props.onChoose(option.value)}
        >
          {option.label}
        </Button>
      ))}
    </fieldset>
  );
}

/**
 * One tender: cash or wallet, in the basket's currency or the other one (with a rate of the day), the
 * amount typed or a quick button for what is still due in either currency; Add takes it (Enter too).
 */
export function TenderForm(props: {
  base: Currency;
  other: Currency;
  /** Null: no rate of the day, so only the basket's currency. */
  dueOtherCents: number | null;
  dueCents: number;
  /** Why a wallet cannot be taken now (offline, one already taken); undefined: it can. */
  walletRefusal: string | undefined;
  onAdd: (tender: TenderInput) => void;
}) {
  const [kind, setKind] = useState<"cash" | "wallet">("cash");
  const [currency, setCurrency] = useState<Currency>(props.base);
  const [typed, setTyped] = useState("");
  const amountCents = parseAmountCents(typed);
  const quick = (inCurrency: Currency, cents: number) => {
    setCurrency(inCurrency);
    setTyped((cents / 100).toFixed(2));
  };
  const add = (event: Event) => {
    event.preventDefault();
    if (amountCents === undefined || amountCents < 1) return;
    props.onAdd({ kind: props.walletRefusal === undefined ? kind : "cash", currency, amountCents });
    setTyped("");
  };
  return (
    <form class="tender-form" onSubmit={add} aria-label="Add a tender">
      <Choice
        legend="Tender"
        value={props.walletRefusal === undefined ? kind : "cash"}
        options={[
          { value: "cash", label: "Cash" },
          { value: "wallet", label: "Wallet", disabled: props.walletRefusal !== undefined },
        ]}
        onChoose={setKind}
      />
      {props.walletRefusal === undefined ? null : <p class="muted">{props.walletRefusal}</p>}
      <Choice
        legend="Currency"
        value={currency}
        options={[
          { value: props.base, label: props.base },
          { value: props.other, label: props.other, disabled: props.dueOtherCents === null },
        ]}
        onChoose={setCurrency}
      />
      <Field label={`Amount (${currency})`} inputMode="decimal" autoFocus value={typed} onValue={setTyped} />
      <fieldset class="quick-tenders">
        <legend>Still due</legend>
        <Button onClick={() => quick(props.base, props.dueCents)}>{formatMoney(props.base, props.dueCents)}</Button>
        {props.dueOtherCents === null ? null : (
          <Button onClick={() => quick(props.other, props.dueOtherCents ?? 0)}>
            {formatMoney(props.other, props.dueOtherCents)}
          </Button>
        )}
      </fieldset>
      <Button type="submit" disabled={amountCents === undefined || amountCents < 1}>
        Add tender
      </Button>
    </form>
  );
}

/** The currency the change is given in, each with the change it comes to (the kernel's, rounded down in the other). */
export function ChangeChoice(props: {
  value: Currency;
  change: readonly { currency: Currency; amountCents: number }[];
  onChoose: (currency: Currency) => void;
}) {
  const chosen = props.change.find((option) => option.currency === props.value);
  return (
    <>
      <Choice
        legend="Give change in"
        value={props.value}
        options={props.change.map((option) => ({
          value: option.currency,
          label: formatMoney(option.currency, option.amountCents),
        }))}
        onChoose={props.onChoose}
      />
      {chosen === undefined ? null : (
        <p class="change-due" aria-live="polite">
          Change due {formatMoney(chosen.currency, chosen.amountCents)}
        </p>
      )}
    </>
  );
}
