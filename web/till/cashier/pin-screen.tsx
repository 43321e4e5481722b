import { useEffect, useRef, useState } from "preact/hooks";
import { useAction } from "../../lib/use-action.ts";
import { Button, FormError } from "../../ui/index.ts";
import { type Cashier, cashiers, switchIn } from "./cashiers.ts";

const PIN_DIGITS_MAX = 6;
const KEYS = ["1", "2", "3", "4", "5", "6", "7", "8", "9"] as const;

/**
 * Who works the till: the cashiers as buttons, then their PIN on a keypad (touch) or typed
 * (the PIN field keeps the focus, so a keyboard or a numeric pad works as well). A wrong PIN says how
 * many attempts remain; a locked cashier is listed as such and cannot be picked; a disabled one is
 * not listed at all (they no longer work here).
 */
export function PinScreen() {
  const [chosen, setChosen] = useState<Cashier | undefined>(undefined);
  const [pin, setPin] = useState("");
  const { busy, error, fail, run } = useAction("The PIN was not accepted.");
  const pinInput = useRef<HTMLInputElement>(null);
  const current = chosen === undefined ? undefined : cashiers.value?.find((cashier) => cashier.id === chosen.id);
  useEffect(() => {
    if (chosen !== undefined) pinInput.current?.focus();
  }, [chosen?.id]);

  const type = (digit: string) => {
    setPin((typed) => (typed.length < PIN_DIGITS_MAX ? typed + digit : typed));
    pinInput.current?.focus();
  };
  const submit = async () => {
    if (chosen === undefined || pin.length < 4) return;
    await run(() => switchIn(chosen.id, pin));
    setPin("");
  };

  return (
    <main id="main" class="pin-screen card" tabIndex={-1}>
      <h1>Who is at the till?</h1>
      <CashierList
        chosen={chosen}
        onChoose={(cashier) => {
          setChosen(cashier);
          setPin("");
          fail(undefined);
        }}
      />
      {chosen === undefined ? (
        <p class="muted">Choose your name, then type your PIN.</p>
      ) : (
        <form
          class="pin-form"
          onSubmit={(event) => {
            event.preventDefault();
            void submit();
          }}
        >
          <label for="pin-input">PIN for {chosen.name}</label>
          <input
            id="pin-input"
            ref={pinInput}
            type="password"
            inputMode="numeric"
            autocomplete="off"
            maxLength={PIN_DIGITS_MAX}
            value={pin}
            disabled={current?.status === "locked"}
            onInput={(event) => setPin(event.currentTarget.value.replace(/\D/g, "").slice(0, PIN_DIGITS_MAX))}
          />
          <Keypad
            onDigit={type}
            onDelete={() => setPin((typed) => typed.slice(0, -1))}
            busy={busy}
            ready={pin.length >= 4}
          />
          <FormError error={error} />
        </form>
      )}
    </main>
  );
}

/** The cashiers who work here as buttons; a locked one is shown but cannot be chosen. */
function CashierList(props: { chosen: Cashier | undefined; onChoose: (cashier: Cashier) => void }) {
  const listed = (cashiers.value ?? []).filter((cashier) => cashier.status !== "disabled");
  return (
    <>
      <ul class="cashier-list" aria-label="Cashiers">
        {listed.map((cashier) => (
          <li key={cashier.id}>
            <Button
              variant={props.chosen?.id === cashier.id ? "primary" : "secondary"}
              aria-pressed={props.chosen?.id === cashier.id}
              disabled={cashier.status !== "active"}
              onClick={() => props.onChoose(cashier)}
            >
              {cashier.name}
              {cashier.status === "active" ? "" : ` (${cashier.status})`}
            </Button>
          </li>
        ))}
      </ul>
      {listed.some((cashier) => cashier.status === "locked") ? (
        <p class="muted">A locked cashier typed 5 wrong PINs: the owner unlocks them in the dashboard (Cashiers).</p>
      ) : null}
    </>
  );
}

/** Digits for a touch screen, and OK once the PIN is long enough. */
function Keypad(props: { onDigit: (digit: string) => void; onDelete: () => void; busy: boolean; ready: boolean }) {
  return (
    <fieldset class="keypad">
      <legend class="visually-hidden">Keypad</legend>
      {KEYS.map((digit) => (
        <Button key={digit} onClick={() => props.onDigit(digit)}>
          {digit}
        </Button>
      ))}
      <Button aria-label="Delete last digit" onClick={props.onDelete}>
        ⌫
      </Button>
      <Button onClick={() => props.onDigit("0")}>0</Button>
      <Button type="submit" variant="primary" busy={props.busy} disabled={!props.ready}>
        OK
      </Button>
    </fieldset>
  );
}
