import type { ComponentChildren } from "preact";
import { useState } from "preact/hooks";
import { ApiError } from "../lib/api/client.ts";
import { type SessionKind, signIn } from "../lib/session.ts";
import { Button } from "./Button.tsx";
import { Field } from "./Field.tsx";

type SignInProps = {
  title: string;
  kind: SessionKind;
  children?: ComponentChildren;
  /** Replaces the plain sign-in (the till pairs itself with the same credentials). */
  submit?: (credentials: { email: string; password: string; otp?: string | undefined }) => Promise<void>;
  /** The submit button's words ("Sign in" unless said). */
  submitLabel?: string;
};

/**
 * The sign-in both browser apps show: the dashboard user's email and password open a session of the
 * app's kind. The answer sets the HttpOnly session cookie; the page keeps only the CSRF token.
 */
export function SignIn(props: SignInProps) {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  // Shown once the API answers otp_required: email and password stay as typed.
  const [needsOtp, setNeedsOtp] = useState(false);
  const [otp, setOtp] = useState("");
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  // An error is about what was sent: once either field changes it no longer describes the form.
  const edit = (set: (value: string) => void) => (value: string) => {
    set(value);
    setError(undefined);
  };
  return (
    <main class="sign-in card" id="main">
      <h1>{props.title}</h1>
      {props.children}
      <form
        onSubmit={async (event) => {
          event.preventDefault();
          setBusy(true);
          setError(undefined);
          try {
            await (props.submit ?? ((credentials) => signIn({ ...credentials, kind: props.kind })))({
              email,
              password,
              otp: needsOtp ? otp.trim() : undefined,
            });
          } catch (caught) {
            if (caught instanceof ApiError && caught.code === "otp_required") {
              setNeedsOtp(true);
              return;
            }
            setError(signInFailure(caught));
          } finally {
            setBusy(false);
          }
        }}
      >
        <Field label="Email" type="email" autocomplete="username" required value={email} onValue={edit(setEmail)} />
        <Field
          label="Password"
          type="password"
          autocomplete="current-password"
          required
          value={password}
          onValue={edit(setPassword)}
        />
        {needsOtp ? <OtpField value={otp} onValue={setOtp} /> : null}
        {error === undefined ? null : (
          <p class="form-error" role="alert">
            {error}
          </p>
        )}
        <Button type="submit" variant="primary" busy={busy}>
          {props.submitLabel ?? "Sign in"}
        </Button>
      </form>
    </main>
  );
}

/** The authenticator's code (or a recovery code), asked for once the API answers otp_required. */
function OtpField(props: { value: string; onValue: (value: string) => void }) {
  return (
    <Field
      label="Authentication code"
      autocomplete="one-time-code"
      inputMode="numeric"
      required
      autoFocus
      hint="The 6 digits your authenticator app shows, or one of your recovery codes."
      value={props.value}
      onValue={props.onValue}
    />
  );
}

/** What the person signing in is told: the same words for an unknown email and a wrong password. */
function signInFailure(caught: unknown): string {
  if (caught instanceof ApiError && caught.status === 429) {
    return `Too many attempts. Try again in ${Math.ceil((caught.retryAfterSeconds ?? 60) / 60)} min.`;
  }
  if (caught instanceof ApiError && caught.code === "invalid_otp") {
    return "The code is not right, or was already used. Wait for the next code and try again.";
  }
  if (caught instanceof ApiError && caught.status === 401) {
    return "The email or password is not correct.";
  }
  if (caught instanceof ApiError) {
    return caught.message;
  }
  return "Sign-in failed. Try again.";
}
