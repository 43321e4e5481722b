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
  const listed = (cashiers.value ?? []).filter((cashier) => cashier.status !== "disabled");
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
      <ul class="cashier-list" aria-label="Cashiers">
        {listed.map((cashier) => (
          <li key={cashier.id}>
            <Button
              variant={chosen?.id === cashier.id ? "primary" : "secondary"}
              aria-pressed={chosen?.id === cashier.id}
              disabled={cashier.status !== "active"}
              onClick={() => {
                setChosen(cashier);
                setPin("");
                fail(undefined);
              }}
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
          <fieldset class="keypad">
            <legend class="visually-hidden">Keypad</legend>
            {KEYS.map((digit) => (
              <Button key={digit} onClick={() => type(digit)}>
                {digit}
              </Button>
            ))}
            <Button aria-label="Delete last digit" onClick={() => setPin((typed) => typed.slice(0, -1))}>
              ⌫
            </Button>
            <Button onClick={() => type("0")}>0</Button>
            <Button type="submit" variant="primary" busy={busy} disabled={pin.length < 4}>
              OK
            </Button>
          </fieldset>
          <FormError error={error} />
        </form>
      )}
    </main>
  );
}
