import { Secret, TOTP } from "otpauth";
import request from "supertest";
import { z } from "zod";
import { testApp, testConfig } from "../../../tests/support/app.ts";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/database.ts";
import { newMerchant, type TestMerchant } from "../../../tests/support/factories.ts";
import { signIn, type TestSession } from "../../../tests/support/sessions.ts";
import { type ManualClock, manualClock } from "../../../tests/support/time.ts";
import { sql } from "../../platform/db/pool.ts";
import { resealTwoFactorSecrets } from "./two-factor.ts";

const PASSWORD = "correct horse battery";
const STEP_MS = 30_000;

let db: TestDatabase;
let app: ReturnType<typeof testApp>;
/**
 * The API checks codes against this clock, which stands still unless a test moves it: a code made
 * for a step stays right (or wrong) however slow the machine is.
 */
let clock: ManualClock;

beforeAll(async () => {
  db = await createTestDatabase();
  // Ten seconds into a step, so that ±1 step is unambiguous.
  clock = manualClock(Math.floor(Date.now() / STEP_MS) * STEP_MS + 10_000);
  // A high per-address limit: every test signs in from the same address; the account limit is the default 5.
  const config = testConfig(db.url, { SIGN_IN_FAILURES_PER_ADDRESS: "1000" });
  app = testApp({ database: db.database, config: { ...config, sessions: { ...config.sessions, clock: clock.now } } });
});
afterAll(() => db.close());

const codeAt = (secret: string, atMs: number) =>
  TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: atMs, algorithm: "SHA1", digits: 6, period: 30 });

/** A 6-digit code that is none of the codes of the 5 steps around now: certainly wrong. */
function wrongCode(secret: string): string {
  const near = new Set([-2, -1, 0, 1, 2].map((steps) => codeAt(secret, clock.now() + steps * STEP_MS)));
  let candidate = 0;
  while (near.has(String(candidate).padStart(6, "0"))) {
    candidate += 1;
  }
  return String(candidate).padStart(6, "0");
}

const signInBody = (shop: TestMerchant, otp?: string) => ({
  email: shop.email,
  password: PASSWORD,
  ...(otp === undefined ? {} : { otp }),
});

const auditCount = (merchantId: string, action: string) =>
  db.database.oneFirst(sql.type(z.object({ n: z.number() }))`
    SELECT count(*)::integer AS n FROM audit_log WHERE merchant_id = ${merchantId} AND action = ${action}`);

/** A merchant whose owner turned 2FA on (its code used at the clock's step); its secret and recovery codes. */
async function enrolled(): Promise<{ shop: TestMerchant; session: TestSession; secret: string; recovery: string[] }> {
  const shop = await newMerchant(db.database);
  const session = await signIn(app, { email: shop.email, password: PASSWORD });
  const started = await session.send("post", "/v1/session/two_factor").expect(201);
  const secret = started.body.secret as string;
  const confirmed = await session
    .send("post", "/v1/session/two_factor/confirm")
    .send({ code: codeAt(secret, clock.now()) })
    .expect(200);
  return { shop, session, secret, recovery: confirmed.body.recovery_codes };
}

describe("enrolment", () => {
  test("answers a pending secret (URI, base32, QR), sealed at rest; a right code turns it on with 10 recovery codes", async () => {
    const shop = await newMerchant(db.database);
    const session = await signIn(app, { email: shop.email, password: PASSWORD });
    expect((await session.send("get", "/v1/session").expect(200)).body.two_factor_enabled).toBe(false);
    const started = await session.send("post", "/v1/session/two_factor").expect(201);
    expect(started.body).toMatchObject({ object: "two_factor_enrolment" });
    expect(started.body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(started.body.otpauth_uri).toMatch(
      new RegExp(`^otpauth://totp/.*${encodeURIComponent(shop.email)}.*secret=${started.body.secret}`),
    );
    expect(started.body.qr_png_data_url).toMatch(/^data:image\/png;base64,/);
    const stored = await db.database.one(
      sql.type(
        z.object({ two_factor_secret_ciphertext: z.instanceof(Buffer), two_factor_enabled_at: z.date().nullable() }),
      )`SELECT two_factor_secret_ciphertext, two_factor_enabled_at FROM dashboard_users WHERE merchant_id = ${shop.id}`,
    );
    expect(stored.two_factor_enabled_at).toBeNull();
    expect(stored.two_factor_secret_ciphertext.toString("latin1")).not.toContain(started.body.secret);
    // Not on until confirmed: sign-in still needs no code.
    await request(app).post("/v1/session").send(signInBody(shop)).expect(201);

    const wrong = await session
      .send("post", "/v1/session/two_factor/confirm")
      .send({ code: wrongCode(started.body.secret) });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.code).toBe("invalid_otp");
    const confirmed = await session
      .send("post", "/v1/session/two_factor/confirm")
      .send({ code: codeAt(started.body.secret, clock.now()) })
      .expect(200);
    expect(confirmed.body.recovery_codes).toHaveLength(10);
    expect(new Set(confirmed.body.recovery_codes).size).toBe(10);
    expect((await session.send("get", "/v1/session").expect(200)).body.two_factor_enabled).toBe(true);
    // Only hashes are kept.
    const hashes = await db.database.anyFirst(sql.type(z.object({ code_hash: z.instanceof(Buffer) }))`
      SELECT code_hash FROM two_factor_recovery_codes WHERE merchant_id = ${shop.id}`);
    expect(hashes).toHaveLength(10);
    expect(await auditCount(shop.id, "user.two_factor_enrolment_started")).toBe(1);
    expect(await auditCount(shop.id, "user.two_factor_enabled")).toBe(1);
    // Once on, a second enrolment and a second confirm are refused: the recovery codes are answered once.
    expect((await session.send("post", "/v1/session/two_factor").expect(409)).body.error.code).toBe(
      "two_factor_already_enabled",
    );
    const again = await session
      .send("post", "/v1/session/two_factor/confirm")
      .send({ code: codeAt(started.body.secret, clock.now() + STEP_MS) })
      .expect(409);
    expect(again.body.error.code).toBe("two_factor_not_pending");
  });

  test("needs the owner's fresh step-up; bad input gets the error envelope", async () => {
    const shop = await newMerchant(db.database);
    const session = await signIn(app, { email: shop.email, password: PASSWORD });
    await db.database.query(sql.unsafe`UPDATE sessions SET password_verified_at = NULL WHERE id = ${session.id}`);
    expect((await session.send("post", "/v1/session/two_factor").expect(403)).body.error.code).toBe("step_up_required");
    await session.send("post", "/v1/session/step_up").send({ password: PASSWORD }).expect(200);
    expect((await session.send("post", "/v1/session/two_factor/confirm").send({ code: "123456" })).status).toBe(409);
    await session.send("post", "/v1/session/two_factor").expect(201);
    for (const body of [{}, { code: 123456 }, { code: "" }, { code: "x".repeat(65) }, []]) {
      const response = await session.send("post", "/v1/session/two_factor/confirm").send(body);
      expect([400, 422]).toContain(response.status);
      expect(response.body.error).toMatchObject({ type: "invalid_request" });
    }
    expect((await session.send("post", "/v1/session/two_factor/confirm").send({ code: "abcdef" })).status).toBe(400);
    const badOtp = await request(app)
      .post("/v1/session")
      .send({ ...signInBody(shop), otp: 123456 });
    expect(badOtp.status).toBeGreaterThanOrEqual(400);
    expect(badOtp.status).toBeLessThan(500);
    expect(badOtp.body.error.type).toBe("invalid_request");
    await request(app).post("/v1/session/two_factor").expect(401);
  });
});

describe("sign-in with two-factor on", () => {
  test("without a code: 401 otp_required; a wrong one: 401 invalid_otp; the right one signs in", async () => {
    const { shop, secret } = await enrolled();
    const missing = await request(app).post("/v1/session").send(signInBody(shop)).expect(401);
    expect(missing.body.error.code).toBe("otp_required");
    expect(missing.headers["set-cookie"]).toBeUndefined();
    const wrong = await request(app)
      .post("/v1/session")
      .send(signInBody(shop, wrongCode(secret)))
      .expect(401);
    expect(wrong.body.error.code).toBe("invalid_otp");
    expect(await auditCount(shop.id, "session.two_factor_failed")).toBe(1);
    // A wrong password is still just invalid_credentials, code or not.
    const wrongPassword = await request(app)
      .post("/v1/session")
      .send({ email: shop.email, password: "not it", otp: codeAt(secret, clock.now() + STEP_MS) })
      .expect(401);
    expect(wrongPassword.body.error.code).toBe("invalid_credentials");
    const signedIn = await request(app)
      .post("/v1/session")
      .send(signInBody(shop, codeAt(secret, clock.now() + STEP_MS)))
      .expect(201);
    expect(signedIn.body.two_factor_enabled).toBe(true);
  });

  test("a code is accepted once: its step again, or an earlier step, is refused (replay); ±1 step of drift", async () => {
    const { shop, secret } = await enrolled();
    // Enrolment used the current step: the same code is a replay, and so is the step before.
    for (const steps of [0, -1]) {
      const replay = await request(app)
        .post("/v1/session")
        .send(signInBody(shop, codeAt(secret, clock.now() + steps * STEP_MS)));
      expect(replay.status).toBe(401);
      expect(replay.body.error.code).toBe("invalid_otp");
    }
    // Two steps ahead is outside the drift allowed.
    const ahead = await request(app)
      .post("/v1/session")
      .send(signInBody(shop, codeAt(secret, clock.now() + 2 * STEP_MS)));
    expect(ahead.body.error.code).toBe("invalid_otp");
    // One step ahead (the phone's clock fast) is accepted, once; two concurrent uses of it: only one
    // passes (3 failures so far and 2 now stay within the account's limit of 5).
    const nextCode = codeAt(secret, clock.now() + STEP_MS);
    const together = await Promise.all(
      [0, 1].map(() => request(app).post("/v1/session").send(signInBody(shop, nextCode))),
    );
    expect(together.map((response) => response.status).sort()).toEqual([201, 401]);
    // Later, the phone's clock behind by a step: the code of the step before now is accepted.
    clock.advance(3 * STEP_MS);
    await request(app)
      .post("/v1/session")
      .send(signInBody(shop, codeAt(secret, clock.now() - STEP_MS)))
      .expect(201);
  });

  test("a recovery code signs in once (any case, spaces or dashes) and is then spent", async () => {
    const { shop, recovery } = await enrolled();
    const code = recovery[0] ?? "";
    const typed = ` ${code.toUpperCase().replace("-", " ")} `;
    await request(app).post("/v1/session").send(signInBody(shop, typed)).expect(201);
    const spent = await request(app).post("/v1/session").send(signInBody(shop, code)).expect(401);
    expect(spent.body.error.code).toBe("invalid_otp");
    expect(await auditCount(shop.id, "user.two_factor_recovery_code_used")).toBe(1);
    await request(app).post("/v1/session").send(signInBody(shop, recovery[1])).expect(201);
    // Another user's recovery code is nobody's here.
    const other = await enrolled();
    await request(app).post("/v1/session").send(signInBody(shop, other.recovery[0])).expect(401);
  });

  test("missing and wrong codes count against the account's limit before they are checked; past it even the right code is refused", async () => {
    const { shop, secret } = await enrolled();
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        request(app)
          .post("/v1/session")
          .send(signInBody(shop, index % 2 === 0 ? undefined : wrongCode(secret))),
      ),
    );
    const statuses = answers.map((response) => response.status);
    // The limit is 5 per account: 5 answers, the rest refused before any check.
    expect(statuses.filter((status) => status === 401)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(3);
    const right = await request(app)
      .post("/v1/session")
      .send(signInBody(shop, codeAt(secret, clock.now() + STEP_MS)));
    expect(right.status).toBe(429);
    expect(right.body.error.code).toBe("too_many_sign_in_attempts");
  });
});

describe("step-up and turning off", () => {
  test("step-up needs the code too (403 otp_required / invalid_otp; the session stays good); off needs step-up", async () => {
    const { shop, session, secret } = await enrolled();
    const missing = await session.send("post", "/v1/session/step_up").send({ password: PASSWORD }).expect(403);
    expect(missing.body.error.code).toBe("otp_required");
    const wrong = await session
      .send("post", "/v1/session/step_up")
      .send({ password: PASSWORD, otp: wrongCode(secret) })
      .expect(403);
    expect(wrong.body.error.code).toBe("invalid_otp");
    const wrongPassword = await session
      .send("post", "/v1/session/step_up")
      .send({ password: "not it", otp: codeAt(secret, clock.now() + STEP_MS) })
      .expect(403);
    expect(wrongPassword.body.error.code).toBe("invalid_password");
    // Still signed in.
    await session.send("get", "/v1/session").expect(200);
    await session
      .send("post", "/v1/session/step_up")
      .send({ password: PASSWORD, otp: codeAt(secret, clock.now() + STEP_MS) })
      .expect(200);

    await db.database.query(sql.unsafe`UPDATE sessions SET password_verified_at = NULL WHERE id = ${session.id}`);
    expect((await session.send("delete", "/v1/session/two_factor").expect(403)).body.error.code).toBe(
      "step_up_required",
    );
    // Two steps on, so that the code of now is later than the one the last step-up used.
    clock.advance(2 * STEP_MS);
    await session
      .send("post", "/v1/session/step_up")
      .send({ password: PASSWORD, otp: codeAt(secret, clock.now()) })
      .expect(200);
    await session.send("delete", "/v1/session/two_factor").expect(200);
    expect((await session.send("delete", "/v1/session/two_factor").expect(409)).body.error.code).toBe(
      "two_factor_not_enabled",
    );
    expect(await auditCount(shop.id, "user.two_factor_disabled")).toBe(1);
    expect((await session.send("get", "/v1/session").expect(200)).body.two_factor_enabled).toBe(false);
    await request(app).post("/v1/session").send(signInBody(shop)).expect(201);
    const left = await db.database.oneFirst(sql.type(z.object({ n: z.number() }))`
      SELECT count(*)::integer AS n FROM two_factor_recovery_codes WHERE merchant_id = ${shop.id}`);
    expect(left).toBe(0);
  });
});

describe("key rotation", () => {
  test("reseal-webhook-secrets' two-factor step re-encrypts the TOTP secret: after the old key is gone, the code still signs in", async () => {
    const { shop, secret } = await enrolled();
    const oldKey = testConfig(db.url).webhook.secretKey;
    const newKey = Buffer.alloc(32, 9).toString("base64");
    const rotating = testConfig(db.url, {
      WEBHOOK_SECRET_ENCRYPTION_KEY: newKey,
      WEBHOOK_SECRET_ENCRYPTION_KEY_PREVIOUS: oldKey?.toString("base64") ?? "",
    });
    const first = await resealTwoFactorSecrets(db.database, rotating);
    expect(first.resealed).toBeGreaterThanOrEqual(1);
    // Re-run: nothing left under the old key.
    expect((await resealTwoFactorSecrets(db.database, rotating)).resealed).toBe(0);
    const rotated = testConfig(db.url, { WEBHOOK_SECRET_ENCRYPTION_KEY: newKey, SIGN_IN_FAILURES_PER_ADDRESS: "1000" });
    const afterRotation = testApp({
      database: db.database,
      config: { ...rotated, sessions: { ...rotated.sessions, clock: clock.now } },
    });
    clock.advance(STEP_MS);
    await request(afterRotation)
      .post("/v1/session")
      .send(signInBody(shop, codeAt(secret, clock.now())))
      .expect(201);
  });
});
