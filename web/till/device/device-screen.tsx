import { useState } from "preact/hooks";
import { ApiError } from "../../lib/api.ts";
import { session } from "../../lib/session.ts";
import { useAction } from "../../lib/use-action.ts";
import { Button, Field, FormError } from "../../ui/index.ts";
import { UnsyncedGuard, unsyncedSales } from "../offline/index.ts";
import { pairedDevice, unpairThisTill } from "./device.ts";

function failure(caught: unknown): string {
  if (caught instanceof ApiError && caught.code === "otp_required") {
    return "Two-factor sign-in is on: unpair this till from the dashboard (Shop → Till devices).";
  }
  if (caught instanceof ApiError && caught.status === 401) return "The password is not correct.";
  return caught instanceof Error ? caught.message : "That did not work. Try again.";
}

/**
 * This till as a device: paired, it opens without the owner's password. The owner unpairs it here with
 * the password, typed once for that action (or from the dashboard); it then shows the pairing screen.
 * Unpairing waits while sales taken offline have not reached the server, unless they are exported.
 */
export function DeviceScreen() {
  const device = pairedDevice.value;
  const [password, setPassword] = useState("");
  const [exported, setExported] = useState(false);
  const { busy, error, run } = useAction();
  const blocked = unsyncedSales.value > 0 && !exported;
  return (
    <div class="device">
      <h1>This till: {device?.name ?? "paired"}</h1>
      <p>
        Paired as <strong>{device?.name ?? "this till"}</strong>. It opens by itself; the owner's password is not needed
        at the counter. Its shifts and Z reports carry this name.
      </p>
      <p class="muted">
        Device id (the API's <code>till_id</code>): <code>{session.value?.device_id}</code>
      </p>
      <form
        class="drawer-form"
        onSubmit={async (event) => {
          event.preventDefault();
          await run(async () => {
            try {
              await unpairThisTill(password, exported);
            } catch (caught) {
              throw new Error(failure(caught));
            } finally {
              setPassword("");
            }
          });
        }}
      >
        <h2>Unpair this till</h2>
        <p class="muted">
          The owner's password unpairs it: the till then shows the pairing screen. The dashboard can unpair it too.
        </p>
        <Field
          label="Owner's password"
          type="password"
          autocomplete="current-password"
          required
          value={password}
          onValue={setPassword}
        />
        <UnsyncedGuard onCleared={setExported} />
        <FormError error={error} />
        <Button type="submit" variant="danger" busy={busy} disabled={blocked}>
          Unpair this till
        </Button>
      </form>
    </div>
  );
}
