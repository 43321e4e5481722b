import { useState } from "preact/hooks";
import { SignIn } from "../ui/index.ts";
import { openingDeviceSession, pairThisTill, unpairedNotice } from "./device/device.ts";

/**
 * A till is paired once by the owner, here, with the dashboard's email and password; it then opens
 * its own sessions (a 12-hour shift, no idle sign-out) and the password is never typed at the counter
 * again. A till holds none of the owner's powers: keys, payouts, webhooks and settings stay in the
 * dashboard.
 */
export function SignInScreen() {
  const [name, setName] = useState("Counter");
  if (openingDeviceSession.value) {
    return <p class="loading">Opening the till…</p>;
  }
  return (
    <SignIn
      title="Pair this till"
      kind="dashboard"
      submitLabel="Pair this till"
      submit={(credentials) => pairThisTill({ ...credentials, name: name.trim() || "Counter" })}
    >
      {unpairedNotice.value === undefined ? null : (
        <p class="form-error" role="alert">
          {unpairedNotice.value}
        </p>
      )}
      <p class="muted">
        The shop owner types the dashboard's email and password once: from then on this till opens by itself, and
        cashiers switch in with their PIN.
      </p>
      <label class="pair-name">
        Till name
        <input value={name} maxLength={100} onInput={(event) => setName(event.currentTarget.value)} />
      </label>
    </SignIn>
  );
}
