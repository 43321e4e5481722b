import { SignIn } from "../ui/index.ts";

/** The dashboard's email and password open a till session: a 12-hour shift with no idle sign-out. */
export function SignInScreen() {
  return (
    <SignIn title="Sign in to the till" kind="till">
      <p class="muted">Use the email and password of your dashboard. The till stays signed in for a 12-hour shift.</p>
    </SignIn>
  );
}
