import { useState } from "preact/hooks";
import { ApiError } from "../lib/api.ts";
import { signIn } from "../lib/session.ts";
import { Button, Field } from "../ui/index.ts";

/** The dashboard's email and password open a till session: a 12-hour shift with no idle sign-out. */
export function SignInScreen() {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  return (
    <main class="sign-in card" id="main">
      <h1>Sign in to the till</h1>
      <p class="muted">Use the email and password of your dashboard. The till stays signed in for a 12-hour shift.</p>
      <form
        onSubmit={async (event) => {
          event.preventDefault();
          setBusy(true);
          setError(undefined);
          try {
            await signIn({ email, password, kind: "till" });
          } catch (caught) {
            setError(
              caught instanceof ApiError && caught.status === 429
                ? `Too many attempts. Try again in ${Math.ceil((caught.retryAfterSeconds ?? 60) / 60)} min.`
                : caught instanceof ApiError && caught.status === 401
                  ? "The email or password is not correct."
                  : "Sign-in failed. Try again.",
            );
          } finally {
            setBusy(false);
          }
        }}
      >
        <Field label="Email" type="email" autocomplete="username" required value={email} onValue={setEmail} />
        <Field
          label="Password"
          type="password"
          autocomplete="current-password"
          required
          value={password}
          onValue={setPassword}
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
