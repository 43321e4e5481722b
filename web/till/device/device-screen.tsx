import { useState } from "preact/hooks";
import { ApiError } from "../../lib/api.ts";
import { session } from "../../lib/session.ts";
import { Button, Field } from "../../ui/index.ts";
import { pairedDevice, pairThisTill, unpairBlocked, unpairThisTill } from "./device.ts";

function failure(caught: unknown): string {
  if (caught instanceof ApiError && caught.status === 401) return "The password is not correct.";
  return caught instanceof Error ? caught.message : "That did not work. Try again.";
}

/**
 * This till as a device: paired (it opens without the owner's password) or not. The owner pairs or
 * unpairs it here with the password, typed once for that action; an unpaired till falls back to the
 * sign-in screen at once. Unpairing waits while sales taken offline have not reached the server.
 */
export function DeviceScreen() {
  const device = pairedDevice.value;
  const paired = device !== undefined && session.value?.device_id === device.id;
  const [password, setPassword] = useState("");
  const [name, setName] = useState("Counter");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const blocked = paired ? unpairBlocked() : undefined;
  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setError(undefined);
    try {
      await action();
    } catch (caught) {
      setError(failure(caught));
    } finally {
      setPassword("");
      setBusy(false);
    }
  };
  return (
    <div class="device">
      <h1>This till</h1>
      {paired ? (
        <p>
          Paired as <strong>{device.name}</strong>. It opens by itself; the owner's password is not needed at the
          counter. Its drawer is <code>{device.id}</code>.
        </p>
      ) : (
        <p>Not paired: each shift starts with the owner's email and password.</p>
      )}
      <form
        class="drawer-form"
        onSubmit={(event) => {
          event.preventDefault();
          const email = session.value?.user.email ?? "";
          void run(() =>
            paired ? unpairThisTill(password) : pairThisTill({ email, password, name: name.trim() || "Counter" }),
          );
        }}
      >
        <h2>{paired ? "Unpair this till" : "Pair this till"}</h2>
        <p class="muted">
          {paired
            ? "The owner's password unpairs it: the till then shows the sign-in screen. The dashboard can unpair it too."
            : "The owner's password pairs it once: from then on it opens without a password."}
        </p>
        {paired ? null : <Field label="Till name" value={name} maxLength={100} onValue={setName} />}
        <Field
          label="Owner's password"
          type="password"
          autocomplete="current-password"
          required
          value={password}
          onValue={setPassword}
        />
        {blocked === undefined ? null : (
          <p class="form-error" role="alert">
            {blocked}
          </p>
        )}
        {error === undefined ? null : (
          <p class="form-error" role="alert">
            {error}
          </p>
        )}
        <Button type="submit" variant={paired ? "danger" : "primary"} busy={busy} disabled={blocked !== undefined}>
          {paired ? "Unpair this till" : "Pair this till"}
        </Button>
      </form>
    </div>
  );
}
