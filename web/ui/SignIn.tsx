import type { ComponentChildren } from "preact";
import { useState } from "preact/hooks";
import { ApiError } from "../lib/api.ts";
import { type SessionKind, signIn } from "../lib/session.ts";
import { Button } from "./Button.tsx";
import { Field } from "./Field.tsx";

/**
 * The sign-in both browser apps show: the dashboard user's email and password open a session of the
 * app's kind. The answer sets the HttpOnly session cookie; the page keeps only the CSRF token.
 */
export function SignIn(props: {
  title: string;
  kind: SessionKind;
  children?: ComponentChildren;
  /** Replaces the plain sign-in (the till pairs itself with the same credentials). */
  submit?: (credentials: { email: string; password: string }) => Promise<void>;
}) {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
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
            });
          } catch (caught) {
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
        {error === undefined ? null : (
          <p class="form-error" role="alert">
            {error}
          </p>
        )}
        <Button type="submit" variant="primary" busy={busy}>
          Sign in
        </Button>
      </form>
    </main>
  );
}

/** What the person signing in is told: the same words for an unknown email and a wrong password. */
function signInFailure(caught: unknown): string {
  if (caught instanceof ApiError && caught.status === 429) {
    return `Too many attempts. Try again in ${Math.ceil((caught.retryAfterSeconds ?? 60) / 60)} min.`;
  }
  if (caught instanceof ApiError && caught.status === 401) {
    return "The email or password is not correct.";
  }
  if (caught instanceof ApiError) {
    return caught.message;
  }
  return "Sign-in failed. Try again.";
}
