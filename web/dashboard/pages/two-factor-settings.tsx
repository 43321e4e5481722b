import { useState } from "preact/hooks";
import { confirmTwoFactor, startTwoFactor, type TwoFactorEnrolment, turnOffTwoFactor } from "../../lib/api/sessions.ts";
import { ApiError } from "../../lib/api.ts";
import { loadSession, session } from "../../lib/session.ts";
import { Button, Field, toast } from "../../ui/index.ts";
import { useStepUp } from "../components/step-up.tsx";

/**
 * Two-factor sign-in: turn on (scan the QR code or type the secret, confirm a code, then see the
 * recovery codes once) and off. Both need a fresh step-up, which the dialog asks for.
 */
export function TwoFactorSection() {
  const stepUp = useStepUp("Two-factor sign-in protects your account.");
  const { enrolment, setEnrolment, recoveryCodes, setRecoveryCodes, code, setCode, error, confirm } =
    useTwoFactorEnrolment(stepUp.run);
  const enabled = session.value?.two_factor_enabled === true;
  return (
    <section aria-labelledby="two-factor-title">
      <h2 id="two-factor-title">Two-factor sign-in</h2>
      <div class="card">
        {recoveryCodes !== undefined ? (
          <RecoveryCodes codes={recoveryCodes} onSaved={() => setRecoveryCodes(undefined)} />
        ) : enrolment !== undefined ? (
          <EnrolmentForm
            enrolment={enrolment}
            code={code}
            onCode={setCode}
            error={error}
            onConfirm={confirm}
            onCancel={() => setEnrolment(undefined)}
          />
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

/**
 * An enrolment under way, its typed code and the code's refusal, and the recovery codes once it is
 * confirmed (behind the step-up). The typed code outlives a cancelled enrolment, as the section's state did.
 */
function useTwoFactorEnrolment(run: ReturnType<typeof useStepUp>["run"]) {
  const [enrolment, setEnrolment] = useState<TwoFactorEnrolment | undefined>(undefined);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | undefined>(undefined);
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | undefined>(undefined);
  const confirm = () => {
    setError(undefined);
    void run(async () => {
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
  };
  return { enrolment, setEnrolment, recoveryCodes, setRecoveryCodes, code, setCode, error, confirm };
}

/** The recovery codes, shown once right after two-factor sign-in is turned on. */
function RecoveryCodes(props: { codes: string[]; onSaved: () => void }) {
  return (
    <>
      <p>
        Two-factor sign-in is on. Save these recovery codes somewhere safe: each signs you in once without your phone.
        They are not shown again.
      </p>
      <ol class="recovery-codes" aria-label="Recovery codes">
        {props.codes.map((recovery) => (
          <li key={recovery}>
            <code>{recovery}</code>
          </li>
        ))}
      </ol>
      <Button variant="primary" onClick={props.onSaved}>
        I have saved them
      </Button>
    </>
  );
}

/** The QR code and secret to put into an authenticator app, and the code from it that turns two-factor on. */
function EnrolmentForm(props: {
  enrolment: TwoFactorEnrolment;
  code: string;
  onCode: (code: string) => void;
  error: string | undefined;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        props.onConfirm();
      }}
    >
      <p>Scan this QR code with an authenticator app, or type the secret into it.</p>
      <img src={props.enrolment.qr_png_data_url} alt="QR code for your authenticator app" width={200} height={200} />
      <p>
        Secret: <code data-testid="two-factor-secret">{props.enrolment.secret}</code>
      </p>
      <Field
        label="Code from the app"
        autocomplete="one-time-code"
        inputMode="numeric"
        required
        value={props.code}
        onValue={props.onCode}
        error={props.error}
      />
      <div class="dialog-actions">
        <Button onClick={props.onCancel}>Cancel</Button>
        <Button type="submit" variant="primary">
          Turn on
        </Button>
      </div>
    </form>
  );
}
