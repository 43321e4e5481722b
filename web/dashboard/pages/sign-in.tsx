import { SignIn } from "../../ui/index.ts";

/**
 * The dashboard user's email and password open a dashboard session (30 minutes idle, 12 hours at
 * most). A browser that holds a till's session (a paired till) sees the sign-in too: a till never
 * reaches the owner's pages.
 */
export function SignInPage(props: { tillSession?: boolean }) {
  return (
    <SignIn title="Sign in to your dashboard" kind="dashboard">
      {props.tillSession === true ? (
        <p class="muted" role="note">
          This browser is a till. The dashboard is the owner's: sign in with the owner's email and password.
        </p>
      ) : null}
    </SignIn>
  );
}
