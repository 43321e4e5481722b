import { SignIn } from "../../ui/index.ts";

/** The dashboard user's email and password open a dashboard session (30 minutes idle, 12 hours at most). */
export function SignInPage() {
  return <SignIn title="Sign in to your dashboard" kind="dashboard" />;
}
