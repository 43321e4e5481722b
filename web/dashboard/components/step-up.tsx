import type { ComponentChildren } from "preact";
import { useState } from "preact/hooks";
import { ApiError } from "../../lib/api.ts";
import { stepUp } from "../../lib/session.ts";
import { Button, Dialog, Field, toast } from "../../ui/index.ts";

/**
 * Actions that need the password entered in the last 5 minutes (live keys, webhook secrets,
 * payouts): `run(action)` runs it; when the API answers `step_up_required` it asks for the password,
 * renews the session's step-up and runs the action once more. Other failures become a toast. Render
 * `dialog` once in the page.
 */
export function useStepUp(reason: string): {
  run: (action: () => Promise<void>) => Promise<void>;
  dialog: ComponentChildren;
} {
  const [pending, setPending] = useState<(() => Promise<void>) | undefined>(undefined);
  const run = async (action: () => Promise<void>): Promise<void> => {
    try {
      await action();
    } catch (caught) {
      if (caught instanceof ApiError && caught.code === "step_up_required") {
        // A function is a state updater to useState: wrap it.
        setPending(() => action);
        return;
      }
      toast(caught instanceof Error ? caught.message : "That did not work.", "error");
    }
  };
  const dialog = (
    <StepUpDialog
      open={pending !== undefined}
      reason={reason}
      onClose={() => setPending(undefined)}
      onConfirmed={() => {
        const action = pending;
        setPending(undefined);
        if (action !== undefined) void run(action);
      }}
    />
  );
  return { run, dialog };
}

function StepUpDialog(props: { open: boolean; reason: string; onClose: () => void; onConfirmed: () => void }) {
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  return (
    <Dialog open={props.open} title="Confirm your password" onClose={props.onClose}>
      <form
        onSubmit={async (event) => {
          event.preventDefault();
          setBusy(true);
          setError(undefined);
          try {
            await stepUp(password);
            setPassword("");
            props.onConfirmed();
          } catch (caught) {
            setError(
              caught instanceof ApiError && caught.status === 401 ? "The password is not correct." : "Try again.",
            );
          } finally {
            setBusy(false);
          }
        }}
      >
        <p>{props.reason} Enter your password again to continue.</p>
        <Field
          label="Password"
          type="password"
          autocomplete="current-password"
          required
          value={password}
          onValue={setPassword}
          error={error}
        />
        <div class="dialog-actions">
          <Button onClick={props.onClose}>Cancel</Button>
          <Button type="submit" variant="primary" busy={busy}>
            Confirm
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
