import type { ComponentChildren } from "preact";
import { useState } from "preact/hooks";
import { ApiError } from "../../lib/api/client.ts";
import { session, stepUp } from "../../lib/session.ts";
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
  const [otp, setOtp] = useState("");
  const [error, setError] = useState<string | undefined>(undefined);
  const [otpError, setOtpError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  // The session says whether 2FA is on; an otp_required answer says so too (turned on in another tab).
  const [askOtp, setAskOtp] = useState(false);
  const twoFactor = askOtp || session.value?.two_factor_enabled === true;
  return (
    <Dialog open={props.open} title="Confirm your password" onClose={props.onClose}>
      <form
        onSubmit={async (event) => {
          event.preventDefault();
          setBusy(true);
          setError(undefined);
          setOtpError(undefined);
          try {
            await stepUp(password, twoFactor ? otp.trim() : undefined);
            setPassword("");
            setOtp("");
            props.onConfirmed();
          } catch (caught) {
            // A wrong password or code is the API's 403: the session is still good, so the dialog stays
            // open with the message (only a 401 session_expired signs the page out, in the API client).
            const code = caught instanceof ApiError ? caught.code : undefined;
            if (code === "otp_required" || code === "invalid_otp") {
              setAskOtp(true);
              setOtpError(code === "otp_required" ? "Enter the code." : "The code is not right, or was already used.");
            } else {
              setError(stepUpFailure(caught));
            }
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
        {twoFactor ? (
          <Field
            label="Authentication code"
            autocomplete="one-time-code"
            inputMode="numeric"
            required
            hint="From your authenticator app, or a recovery code."
            value={otp}
            onValue={setOtp}
            error={otpError}
          />
        ) : null}
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

function stepUpFailure(caught: unknown): string {
  if (caught instanceof ApiError && caught.code === "invalid_password") {
    return "The password is not correct.";
  }
  if (caught instanceof ApiError && caught.status === 429) {
    return `Too many attempts. Try again in ${Math.ceil((caught.retryAfterSeconds ?? 60) / 60)} min.`;
  }
  return caught instanceof ApiError ? caught.message : "Try again.";
}
