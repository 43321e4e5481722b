import { useState } from "preact/hooks";
import { SignIn } from "../ui/index.ts";
import { openingDeviceSession, pairThisTill } from "./device/device.ts";

/**
 * The dashboard's email and password open a till session (a 12-hour shift with no idle sign-out), or,
 * ticked "Pair this till", pair the device once so that it opens its sessions without the password.
 */
export function SignInScreen() {
  const [pair, setPair] = useState(false);
  const [name, setName] = useState("Counter");
  if (openingDeviceSession.value) {
    return <p class="loading">Opening the till…</p>;
  }
  return (
    <SignIn
      title="Sign in to the till"
      kind="till"
      submit={pair ? (credentials) => pairThisTill({ ...credentials, name: name.trim() || "Counter" }) : undefined}
    >
      <p class="muted">Use the email and password of your dashboard. The till stays signed in for a 12-hour shift.</p>
      <div class="pair-choice">
        <label>
          <input type="checkbox" checked={pair} onChange={(event) => setPair(event.currentTarget.checked)} /> Pair this
          till: from now on it opens by itself
        </label>
        {pair ? (
          <label class="pair-name">
            Till name
            <input value={name} maxLength={100} onInput={(event) => setName(event.currentTarget.value)} />
          </label>
        ) : null}
      </div>
    </SignIn>
  );
}
