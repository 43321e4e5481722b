import request from "supertest";
import { z } from "zod";
import { testApp, testConfig } from "../../../tests/support/app.ts";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/database.ts";
import { newMerchant, type TestMerchant } from "../../../tests/support/factories.ts";
import { endpointRegistrar } from "../../../tests/support/webhook-deliveries.ts";
import { sql } from "../../platform/db/pool.ts";
import { verifyWebhook, WebhookVerificationError } from "../../sdk/verify-webhook.ts";
import { signatureHeader } from "./signature.ts";

/** Registering webhook endpoints, and verifying a delivery's signature as a receiver does. */

let db: TestDatabase;
let app: ReturnType<typeof testApp>;
let shop: TestMerchant;

beforeAll(async () => {
  db = await createTestDatabase();
  app = testApp({ database: db.database, config: testConfig(db.url) });
});
beforeEach(async () => {
  shop = await newMerchant(db.database);
});
afterAll(() => db.close());

const { createEndpoint, registered } = endpointRegistrar(() => app);

describe("registering endpoints", () => {
  test("the secret is whsec_ + 32 random bytes, shown once, and stored only encrypted", async () => {
    const created = await registered(shop.testKey, { url: "http://127.0.0.1:9/hooks" });
    expect(created).toMatchObject({ object: "webhook_endpoint", livemode: false, event_types: ["*"], active: true });
    expect(created.id).toMatch(/^we_/);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const stored = await db.database.one(sql.type(z.object({ secret_ciphertext: z.instanceof(Buffer) }))`
      SELECT secret_ciphertext FROM webhook_endpoints WHERE merchant_id = ${shop.id} AND id = ${created.id}`);
    expect(stored.secret_ciphertext.includes(Buffer.from(created.secret.slice(6)))).toBe(false);
    expect(stored.secret_ciphertext.includes(Buffer.from(created.secret.slice(10, 30)))).toBe(false);

    const list = await request(app).get("/v1/webhook_endpoints").set("Authorization", `Bearer ${shop.testKey}`);
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0].secret).toBeUndefined();
    expect(list.body.data[0].secret_last4).toBe(created.secret.slice(-4));
    expect(JSON.stringify(list.body)).not.toContain(created.secret);
    // The live world has its own endpoints.
    const live = await request(app).get("/v1/webhook_endpoints").set("Authorization", `Bearer ${shop.liveKey}`);
    expect(live.body.data).toEqual([]);
  });

  test.each([
    ["http in live", "http://93.184.216.34/hooks"],
    ["loopback", "https://127.0.0.1/hooks"],
    ["localhost", "https://localhost/hooks"],
    ["private network", "https://10.1.2.3/hooks"],
    ["cloud metadata", "https://169.254.169.254/latest/meta-data"],
    ["IPv6 loopback", "https://[::1]/hooks"],
    ["IPv4-mapped loopback", "https://[::ffff:127.0.0.1]/hooks"],
    ["unique-local IPv6", "https://[fd00:ec2::254]/hooks"],
    ["carrier-grade NAT", "https://100.100.100.200/hooks"],
    ["credentials in the URL", "https://user:pass@93.184.216.34/hooks"],
    ["not a URL", "hooks.example.com"],
    ["another scheme", "ftp://93.184.216.34/hooks"],
  ])("a live endpoint is refused with invalid_url: %s", async (_, url) => {
    const response = await createEndpoint(shop.liveKey, { url });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ type: "invalid_request", code: "invalid_url" });
  });

  test("a public https target is accepted in live; http and private targets are allowed in test by default", async () => {
    expect((await createEndpoint(shop.liveKey, { url: "https://93.184.216.34/hooks" })).status).toBe(201);
    expect((await createEndpoint(shop.testKey, { url: "http://localhost:9/hooks" })).status).toBe(201);
  });

  test("an operator can deny private targets in test too, or allow them in live (on-premises)", async () => {
    const deny = testApp({ database: db.database, config: testConfig(db.url, { WEBHOOK_PRIVATE_TARGETS: "deny" }) });
    const refused = await request(deny)
      .post("/v1/webhook_endpoints")
      .set("Authorization", `Bearer ${shop.testKey}`)
      .send({ url: "http://127.0.0.1:9/hooks" });
    expect(refused.body.error?.code).toBe("invalid_url");
    const allow = testApp({ database: db.database, config: testConfig(db.url, { WEBHOOK_PRIVATE_TARGETS: "allow" }) });
    const accepted = await request(allow)
      .post("/v1/webhook_endpoints")
      .set("Authorization", `Bearer ${shop.liveKey}`)
      .send({ url: "https://10.1.2.3/hooks" });
    expect(accepted.status).toBe(201);
  });

  test("event_types must be known types or *", async () => {
    const response = await createEndpoint(shop.testKey, {
      url: "http://127.0.0.1:9/",
      event_types: ["payment.refunded"],
    });
    expect(response.status).toBe(400);
    expect((await createEndpoint(shop.testKey, { url: "http://127.0.0.1:9/", event_types: [] })).status).toBe(400);
  });
});

describe("verifyWebhook", () => {
  const secret = "whsec_test_secret";
  const body = JSON.stringify({ id: "evt_1", type: "payment.paid", livemode: false, created_at: "x", data: {} });
  const header = (timestamp: number, signedBody = body, key = secret) =>
    signatureHeader({ secrets: [key], timestampSeconds: timestamp, body: signedBody });
  const now = 1_800_000_000;

  test("accepts a fresh, correct signature over the raw body", async () => {
    expect(verifyWebhook(Buffer.from(body), header(now), secret, { now_s: now + 10 }).id).toBe("evt_1");
  });

  test("accepts a header with several v1 signatures when any one matches (a secret roll's overlap)", async () => {
    const both = signatureHeader({ secrets: ["whsec_new", secret], timestampSeconds: now, body });
    expect(both).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    expect(verifyWebhook(body, both, secret, { now_s: now }).id).toBe("evt_1");
    expect(verifyWebhook(body, both, "whsec_new", { now_s: now }).id).toBe("evt_1");
    expect(() => verifyWebhook(body, both, "whsec_other", { now_s: now })).toThrow(
      expect.objectContaining({ reason: "signature_mismatch" }),
    );
    const five = signatureHeader({ secrets: ["a", "b", "c", "d", secret], timestampSeconds: now, body });
    expect(() => verifyWebhook(body, five, secret, { now_s: now })).toThrow(
      expect.objectContaining({ reason: "malformed_header" }),
    );
  });

  test.each([
    ["a missing header", undefined],
    ["a header without v1", "t=1800000000"],
    ["a header with extra parts", "t=1800000000,v1=ab,v0=cd"],
    ["a non-hex digest", `t=1800000000,v1=${"z".repeat(64)}`],
    ["a second v1 that is not a digest", `t=1800000000,v1=${"a".repeat(64)},v1=`],
  ])("rejects %s as malformed", (_, value) => {
    expect(() => verifyWebhook(body, value, secret, { now_s: now })).toThrow(
      expect.objectContaining({ reason: "malformed_header" }),
    );
  });

  test("rejects a stale or future timestamp, a changed body and a wrong secret", async () => {
    expect(() => verifyWebhook(body, "", secret)).toThrow(WebhookVerificationError);
    const signed = header(now);
    expect(() => verifyWebhook(body, signed, secret, { now_s: now + 301 })).toThrow(
      expect.objectContaining({ reason: "timestamp_out_of_tolerance" }),
    );
    expect(() => verifyWebhook(body, signed, secret, { now_s: now - 301 })).toThrow(
      expect.objectContaining({ reason: "timestamp_out_of_tolerance" }),
    );
    expect(() => verifyWebhook(`${body} `, signed, secret, { now_s: now })).toThrow(
      expect.objectContaining({ reason: "signature_mismatch" }),
    );
    expect(() => verifyWebhook(body, header(now, body, "whsec_other"), secret, { now_s: now })).toThrow(
      expect.objectContaining({ reason: "signature_mismatch" }),
    );
  });
});
