import { useState } from "preact/hooks";
import {
  ApiError,
  confirmTwoFactor,
  startTwoFactor,
  type TwoFactorEnrolment,
  turnOffTwoFactor,
} from "../../lib/api.ts";
import { loadSession, session } from "../../lib/session.ts";
import { Button, Field, toast } from "../../ui/index.ts";
import { useStepUp } from "../components/step-up.tsx";

/**
 * Two-factor sign-in: turn on (scan the QR code or type the secret, confirm a code, then see the
 * recovery codes once) and off. Both need a fresh step-up, which the dialog asks for.
 */
export function TwoFactorSection() {
  const stepUp = useStepUp("Two-factor sign-in protects your account.");
  const [enrolment, setEnrolment] = useState<TwoFactorEnrolment | undefined>(undefined);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | undefined>(undefined);
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | undefined>(undefined);
  const enabled = session.value?.two_factor_enabled === true;
  return (
    <section aria-labelledby="two-factor-title">
      <h2 id="two-factor-title">Two-factor sign-in</h2>
      <div class="card">
        {recoveryCodes !== undefined ? (
          <>
            <p>
              Two-factor sign-in is on. Save these recovery codes somewhere safe: each signs you in once without your
              phone. They are not shown again.
            </p>
            <ol class="recovery-codes" aria-label="Recovery codes">
              {recoveryCodes.map((recovery) => (
                <li key={recovery}>
                  <code>{recovery}</code>
                </li>
              ))}
            </ol>
            <Button variant="primary" onClick={() => setRecoveryCodes(undefined)}>
              I have saved them
            </Button>
          </>
        ) : enrolment !== undefined ? (
          <form
            onSubmit={(event) => {
              event.preventDefault();
              setError(undefined);
              void stepUp.run(async () => {
                try {
                  const confirmed = await confirmTwoFactor({ code: code.trim() });
                  setEnrolment(undefined);
                  setCode("");
                  setRecoveryCodes(confirmed.recovery_codes);
                  await loadSession();
                } catch (caught) {
                  if (caught instanceof ApiError && caught.code === "invalid_otp") {
                    setError("The code is not right. Type the 6 digits your app shows now.");
                    return;
                  }
                  throw caught;
                }
              });
            }}
          >
            <p>Scan this QR code with an authenticator app, or type the secret into it.</p>
            <img src={enrolment.qr_png_data_url} alt="QR code for your authenticator app" width={200} height={200} />
            <p>
              Secret: <code data-testid="two-factor-secret">{enrolment.secret}</code>
            </p>
            <Field
              label="Code from the app"
              autocomplete="one-time-code"
              inputMode="numeric"
              required
              value={code}
              onValue={setCode}
              error={error}
            />
            <div class="dialog-actions">
              <Button onClick={() => setEnrolment(undefined)}>Cancel</Button>
              <Button type="submit" variant="primary">
                Turn on
              </Button>
            </div>
          </form>
        ) : enabled ? (
          <>
            <p>On: signing in and confirming your password also ask for a code from your authenticator app.</p>
            <Button
              variant="danger"
              onClick={() =>
                void stepUp.run(async () => {
                  await turnOffTwoFactor();
                  await loadSession();
                  toast("Two-factor sign-in is off.");
                })
              }
            >
              Turn off two-factor sign-in
            </Button>
          </>
        ) : (
          <>
            <p>Off. With it on, signing in also asks for a code from an authenticator app on your phone.</p>
            <Button
              variant="primary"
              onClick={() =>
                void stepUp.run(async () => {
                  setEnrolment(await startTwoFactor());
                })
              }
            >
              Turn on two-factor sign-in
            </Button>
          </>
        )}
      </div>
      {stepUp.dialog}
    </section>
  );
}
