import { createHash, randomInt } from "node:crypto";
import { Secret, TOTP } from "otpauth";
import { type Config, requireWebhookSecretKey } from "../../platform/config.ts";
import type { Database } from "../../platform/db/pool.ts";
import { conflict, invalidRequest } from "../../platform/errors.ts";
import type { RequestClient } from "../../platform/http/route.ts";
import { qrPngDataUrl } from "../../platform/qr/index.ts";
import type { Tenant } from "../../platform/tenant.ts";
import { recordAuditEntry } from "../audit/index.ts";
import { isSealedWith, openSecret, type SecretKeyring, sealSecret } from "../webhooks/index.ts";
import { auditAccountAction } from "./account-audit.ts";
import type { SecondFactor } from "./password-check.ts";
import type { SignInUser } from "./queries.ts";
import * as queries from "./two-factor-queries.ts";

/**
 * Two-factor sign-in: TOTP (RFC 6238: SHA-1, 6 digits, 30 s steps, what every authenticator app
 * reads) and one-time recovery codes. The secret is sealed with the operator key of webhook secrets
 * (the same AES-256-GCM box and rotation), bound to its user by the associated data.
 */
const PERIOD_SECONDS = 30;
const DIGITS = 6;
/** One step either side: a phone's clock a little off still signs in (RFC 6238 §5.2). */
const DRIFT_STEPS = 1;
export const RECOVERY_CODE_COUNT = 10;
/** No 0/o, 1/l/i: a code is read off paper. 10 characters of 32 carry 50 bits. */
const RECOVERY_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";
const RECOVERY_LENGTH = 10;

const keyringOf = (config: Config): SecretKeyring => ({
  current: requireWebhookSecretKey(config),
  previous: config.webhook.previousSecretKey,
});
const associatedDataOf = (merchantId: string, userId: string) => `two_factor/${merchantId}/${userId}`;

const totpOf = (secret: Secret, label = "", issuer = "") =>
  new TOTP({ issuer, label, algorithm: "SHA1", digits: DIGITS, period: PERIOD_SECONDS, secret });

const hashRecoveryCode = (code: string) => createHash("sha256").update(code).digest();

/** A recovery code as typed: case, spaces and dashes do not matter. */
const normalizeRecoveryCode = (typed: string) => typed.toLowerCase().replace(/[\s-]/g, "");

function newRecoveryCode(): string {
  const characters = Array.from({ length: RECOVERY_LENGTH }, () => RECOVERY_ALPHABET[randomInt(32)]).join("");
  return `${characters.slice(0, 5)}-${characters.slice(5)}`;
}

export const twoFactorEnabled = (user: SignInUser) => user.two_factor_enabled_at !== null;

/**
 * The time step a TOTP code is right for at `nowMs` (±1 step), or null. The step, not only a yes, so
 * that the caller can refuse a step already used.
 */
function stepOfCode(secret: Secret, code: string, nowMs: number): number | null {
  if (!/^\d{6}$/.test(code)) {
    return null;
  }
  const delta = totpOf(secret).validate({ token: code, timestamp: nowMs, window: DRIFT_STEPS });
  return delta === null ? null : TOTP.counter({ period: PERIOD_SECONDS, timestamp: nowMs }) + delta;
}

export type Enrolment = { otpauthUri: string; secret: string; qrPngDataUrl: string };

/** Starts turning 2FA on: a new secret, pending until a code from it is confirmed. */
export async function startEnrolment(
  database: Database,
  config: Config,
  tenant: Tenant,
  input: { user: SignInUser; client: RequestClient },
): Promise<Enrolment> {
  const secret = new Secret({ size: 20 });
  const sealed = sealSecret(keyringOf(config), secret.base32, associatedDataOf(tenant.merchantId, input.user.user_id));
  await database.transaction(async (transaction) => {
    const written = await queries.writePendingSecret(transaction, {
      merchantId: tenant.merchantId,
      userId: input.user.user_id,
      sealed,
    });
    if (!written) {
      throw conflict("two_factor_already_enabled", "Two-factor sign-in is already on: turn it off first.");
    }
    await auditAccountAction(transaction, tenant, {
      action: "user.two_factor_enrolment_started",
      target: { type: "dashboard_user", id: input.user.user_id },
      client: input.client,
    });
  });
  const otpauthUri = totpOf(secret, input.user.email, new URL(config.publicBaseUrl).host).toString();
  return { otpauthUri, secret: secret.base32, qrPngDataUrl: qrPngDataUrl(otpauthUri) };
}

/** Turns 2FA on with a right code from the pending secret; answers the recovery codes, the only time they exist in clear. */
export async function confirmEnrolment(
  database: Database,
  config: Config,
  tenant: Tenant,
  input: { user: SignInUser; code: string; client: RequestClient },
): Promise<string[]> {
  const sealed = input.user.two_factor_secret_ciphertext;
  if (sealed === null || twoFactorEnabled(input.user)) {
    throw conflict(
      "two_factor_not_pending",
      "Start turning two-factor sign-in on first (POST /v1/session/two_factor).",
    );
  }
  const secret = Secret.fromBase32(
    openSecret(keyringOf(config), sealed, associatedDataOf(tenant.merchantId, input.user.user_id)),
  );
  const step = stepOfCode(secret, input.code.trim(), config.sessions.clock());
  if (step === null) {
    throw invalidRequest("invalid_otp", "The code is not right: type the 6 digits your authenticator app shows now.");
  }
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await database.transaction(async (transaction) => {
    const enabled = await queries.enable(transaction, {
      merchantId: tenant.merchantId,
      userId: input.user.user_id,
      sealed,
      step,
      recoveryCodeHashes: codes.map((code) => hashRecoveryCode(normalizeRecoveryCode(code))),
    });
    if (!enabled) {
      throw conflict("two_factor_not_pending", "The enrolment changed meanwhile: start again.");
    }
    await auditAccountAction(transaction, tenant, {
      action: "user.two_factor_enabled",
      target: { type: "dashboard_user", id: input.user.user_id },
      client: input.client,
    });
  });
  return codes;
}

export async function disableTwoFactor(
  database: Database,
  tenant: Tenant,
  input: { user: SignInUser; client: RequestClient },
): Promise<void> {
  await database.transaction(async (transaction) => {
    if (!(await queries.disable(transaction, tenant.merchantId, input.user.user_id))) {
      throw conflict("two_factor_not_enabled", "Two-factor sign-in is not on.");
    }
    await auditAccountAction(transaction, tenant, {
      action: "user.two_factor_disabled",
      target: { type: "dashboard_user", id: input.user.user_id },
      client: input.client,
    });
  });
}

/**
 * Checks the second factor of a user who has 2FA on: a TOTP code whose step is later than the last
 * accepted one (a code seen over a shoulder or replayed is refused), or an unused recovery code, which
 * is spent. Both take effect in one conditional update each, so concurrent uses cannot both pass.
 */
export async function verifySecondFactor(
  database: Database,
  config: Config,
  input: { user: SignInUser; otp: string; client: RequestClient },
): Promise<boolean> {
  const { user } = input;
  const sealed = user.two_factor_secret_ciphertext;
  if (sealed === null || !twoFactorEnabled(user)) {
    return true;
  }
  const typed = input.otp.trim();
  const ids = { merchantId: user.merchant_id, userId: user.user_id };
  if (/^\d{6}$/.test(typed)) {
    const secret = Secret.fromBase32(
      openSecret(keyringOf(config), sealed, associatedDataOf(ids.merchantId, ids.userId)),
    );
    const step = stepOfCode(secret, typed, config.sessions.clock());
    return step !== null && (await queries.takeStep(database, { ...ids, step }));
  }
  const spent = await queries.spendRecoveryCode(database, {
    ...ids,
    codeHash: hashRecoveryCode(normalizeRecoveryCode(typed)),
  });
  if (spent) {
    await recordAuditEntry(database, {
      merchantId: ids.merchantId,
      action: "user.two_factor_recovery_code_used",
      actor: { kind: "dashboard_user", id: ids.userId },
      livemode: null,
      target: { type: "dashboard_user", id: ids.userId },
      client: input.client,
    });
  }
  return spent;
}

/** The second factor of a sign-in or step-up that sent `otp` (or none), for checkPassword. */
export const secondFactorOf =
  (database: Database, config: Config, otp: string | undefined, client: RequestClient): SecondFactor =>
  async (user) => {
    if (!twoFactorEnabled(user)) {
      return "ok";
    }
    if (otp === undefined || otp.trim() === "") {
      return "missing";
    }
    return (await verifySecondFactor(database, config, { user, otp, client })) ? "ok" : "wrong";
  };

/**
 * Re-encrypts every TOTP secret under the current key: the second step of a key rotation, beside the
 * webhook secrets' (`reseal-webhook-secrets` runs both), while the previous key is still configured.
 * Safe to re-run; a secret changed meanwhile (a new enrolment) was sealed under the current key anyway.
 */
export async function resealTwoFactorSecrets(database: Database, config: Config): Promise<{ resealed: number }> {
  const keyring = keyringOf(config);
  let resealed = 0;
  let after: { merchantId: string; id: string } | undefined;
  for (;;) {
    const batch = await queries.selectSealedSecrets(database, { after, limit: 500 });
    for (const user of batch.filter((candidate) => !isSealedWith(keyring.current, candidate.sealed))) {
      const associatedData = associatedDataOf(user.merchant_id, user.id);
      const plain = openSecret(keyring, user.sealed, associatedData);
      const updated = await queries.updateSealedSecret(database, {
        merchantId: user.merchant_id,
        id: user.id,
        read: user.sealed,
        resealed: sealSecret(keyring, plain, associatedData),
      });
      resealed += updated ? 1 : 0;
    }
    const last = batch.at(-1);
    if (last === undefined) {
      return { resealed };
    }
    after = { merchantId: last.merchant_id, id: last.id };
  }
}
