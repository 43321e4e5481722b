import type { Config } from "../../platform/config.ts";
import type { Database } from "../../platform/db/pool.ts";
import { ApiError, forbidden, unauthenticated } from "../../platform/errors.ts";
import type { RequestClient } from "../../platform/http/route.ts";
import { newId } from "../../platform/ids.ts";
import { hashPassword, verifyPassword } from "../merchants/index.ts";
import * as queries from "./queries.ts";

type SessionSettings = Config["sessions"];

/**
 * The hash an unknown email's password is checked against, so that an unknown email costs the same
 * scrypt work as a wrong password and both answers take the same time. Made once per process.
 */
let dummyPasswordHash: Promise<string> | undefined;
const dummyHash = () => {
  dummyPasswordHash ??= hashPassword("no user has this password");
  return dummyPasswordHash;
};

/** Starts hashing the dummy password, so the first unknown email does not pay for it. */
export function warmUp(): void {
  void dummyHash();
}

const invalidCredentials = () => unauthenticated("invalid_credentials", "The email or password is not correct.");

export const clientColumns = (client: RequestClient) => ({
  address: client.address?.slice(0, 64) ?? null,
  userAgent: client.userAgent?.slice(0, 512) ?? null,
});

const subjectsOf = (email: string, client: RequestClient, settings: SessionSettings) => ({
  account: { subject: `account:${email}`, limit: settings.failuresPerAccount },
  address: { subject: `address:${client.address ?? "unknown"}`, limit: settings.failuresPerAddress },
});

/** What a password is typed for: how a wrong one is answered and audited. */
export type PasswordPurpose = "sign_in" | "step_up" | "password_change";

const failureActions = {
  sign_in: "session.sign_in_failed",
  step_up: "session.step_up_failed",
  password_change: "user.password_change_failed",
} as const;

/**
 * A user's second factor, checked after a right password and before the attempt's slot is given back:
 * "ok" (none is on, or the code is right), "missing" (none typed) or "wrong".
 */
export type SecondFactor = (user: queries.SignInUser) => Promise<"ok" | "missing" | "wrong">;

/** How a missing or wrong second factor is answered: 401 at sign-in; 403 where the session stays good. */
function secondFactorRefused(outcome: "missing" | "wrong", purpose: PasswordPurpose): ApiError {
  const [code, message] =
    outcome === "missing"
      ? (["otp_required", "Two-factor sign-in is on: send the code from your authenticator app as otp."] as const)
      : (["invalid_otp", "The code is not right, or was already used."] as const);
  return purpose === "sign_in" ? unauthenticated(code, message) : forbidden(code, message);
}

/**
 * Checks a password (and the second factor, when the user has one) against the brute-force limits, which count the attempt before it is checked (a
 * burst of guesses gets at most the limit's worth of answers; past it, even the right password is
 * refused with 429). A wrong password stays counted and is audited; a right one gives its slot back.
 * Sign-in answers a wrong password 401; step-up and a password change 403 `invalid_password`: their
 * session is still good, only the password typed again was not. A missing or wrong second factor keeps
 * the slot counted too: the answer tells the password was right, so it must not be free to ask.
 */
export async function checkPassword(
  database: Database,
  settings: SessionSettings,
  attempt: {
    email: string;
    password: string;
    user: queries.SignInUser | null;
    client: RequestClient;
    purpose: PasswordPurpose;
    secondFactor?: SecondFactor | undefined;
  },
): Promise<queries.SignInUser> {
  const subjects = subjectsOf(attempt.email, attempt.client, settings);
  const taken = await queries.takeAttempt(database, [subjects.account, subjects.address], settings.failureWindowMs);
  if (taken.overLimit) {
    const retryAfterSeconds = Math.max(1, Math.ceil(taken.retryAfterMs / 1000));
    throw new ApiError({
      status: 429,
      type: "rate_limited",
      code: "too_many_sign_in_attempts",
      message: `Too many failed attempts. Retry after ${retryAfterSeconds} s.`,
      headers: { "Retry-After": String(retryAfterSeconds) },
    });
  }
  const { matches, upgradedHash } = await verifyPassword(
    attempt.password,
    attempt.user?.password_hash ?? (await dummyHash()),
  );
  if (attempt.user === null || !matches) {
    await queries.insertFailureAudit(database, {
      action: failureActions[attempt.purpose],
      email: attempt.email,
      auditId: newId("aud"),
      client: clientColumns(attempt.client),
    });
    throw attempt.purpose === "sign_in"
      ? invalidCredentials()
      : forbidden("invalid_password", "The password is not correct.");
  }
  const second = (await attempt.secondFactor?.(attempt.user)) ?? "ok";
  if (second !== "ok") {
    if (second === "wrong") {
      await queries.insertFailureAudit(database, {
        action: "session.two_factor_failed",
        email: attempt.email,
        auditId: newId("aud"),
        client: clientColumns(attempt.client),
      });
    }
    throw secondFactorRefused(second, attempt.purpose);
  }
  await queries.returnAttempt(database, { account: subjects.account.subject, address: subjects.address.subject });
  if (upgradedHash !== null) {
    await queries.upgradePasswordHash(database, {
      merchantId: attempt.user.merchant_id,
      userId: attempt.user.user_id,
      from: attempt.user.password_hash,
      to: upgradedHash,
    });
  }
  return attempt.user;
}
