import { randomUUID } from "node:crypto";
import jsQRModule from "jsqr";
import { PNG } from "pngjs";
import request from "supertest";
import { z } from "zod";
import { collidingCodes } from "../../../tests/support/colliding-codes.ts";
import { newMerchant } from "../../../tests/support/factories.ts";
import { paymentsTestWorld } from "../../../tests/support/payments.ts";
import { createSandboxGateway, SANDBOX_MAGIC_AMOUNTS } from "../../gateway/sandbox.ts";
import type { PaymentGateway } from "../../gateway/wallet-gateway.ts";
import { sql } from "../../platform/db/pool.ts";
import * as payments from "./service.ts";

/** Creating and listing payments: validation, codes, QR, idempotency, the merchant's filters. */

// jsqr is CommonJS with `exports.default`: depending on the loader, the import is the function or its module.
const jsQR = ((jsQRModule as { default?: unknown }).default ?? jsQRModule) as typeof jsQRModule.default;
const world = paymentsTestWorld();
const countSchema = z.object({ count: z.number() });

describe("creating a payment", () => {
  test("returns every field: code, real PNG QR, deep link, USSD, checkout URL, 10-minute expiry, fee", async () => {
    const { app } = world.setup();
    const response = await world.create(app, world.shop.testKey, {
      amount_cents: 1000,
      narration: "Order 42",
      merchant_ref: "order-42",
      metadata: { table: 7, vip: true },
      success_url: "https://shop.example.com/thanks",
      cancel_url: "https://shop.example.com/cart",
    });
    expect(response.status).toBe(201);
    const payment = response.body;
    expect(payment).toMatchObject({
      object: "payment",
      livemode: false,
      status: "pending",
      amount_cents: 1000,
      currency: "USD",
      fee_cents: 15,
      narration: "Order 42",
      merchant_ref: "order-42",
      metadata: { table: 7, vip: true },
      success_url: "https://shop.example.com/thanks",
      cancel_url: "https://shop.example.com/cart",
      paid_at: null,
      checkout_url: `https://pay.example.com/checkout/${payment.id}`,
    });
    expect(payment.id).toMatch(/^pay_[0-9A-Za-z]{24}$/);
    expect(payment.code).toMatch(/^[0-9]{9}$/);
    expect(payment.deep_link).toBe(`wallet://pay?code=${payment.code}`);
    expect(payment.ussd).toContain(payment.code);
    expect(payment.reference).toMatch(/^PR/);
    expect(Date.parse(payment.expires_at) - Date.parse(payment.created_at)).toBe(600_000);
    const png = Buffer.from(payment.qr_png_data_url.replace(/^data:image\/png;base64,/, ""), "base64");
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    // A QR reader finds the deep link in it.
    const image = PNG.sync.read(png);
    expect(jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data).toBe(payment.deep_link);
  });

  test("a created payment is due for its first poll after the schedule's first delay, and enqueues no job", async () => {
    const { app } = world.setup();
    const payment = (await world.create(app, world.shop.testKey, { amount_cents: 1000 })).body;
    const row = await world.pollFieldsOf(payment.id);
    // The first poll comes the schedule's first delay (2 s) after creation; the expiry at expires_at.
    expect(row.next_poll_at?.getTime()).toBe(Date.parse(payment.created_at) + 2000);
    expect(row.poll_count).toBe(0);
    expect(
      await world.db.database.oneFirst(sql.type(countSchema)`
        SELECT count(*)::int AS count FROM graphile_worker._private_jobs WHERE payload::text LIKE ${`%${payment.id}%`}`),
    ).toBe(0);
  });

  test.each([
    ["zero", { amount_cents: 0 }, "invalid_amount"],
    ["negative", { amount_cents: -5 }, "invalid_amount"],
    ["fractional", { amount_cents: 10.5 }, "invalid_amount"],
    ["a string", { amount_cents: "100" }, "invalid_amount"],
    ["missing", {}, "invalid_amount"],
    ["too large", { amount_cents: 1_000_000_001 }, "invalid_amount"],
    ["an unknown currency", { amount_cents: 100, currency: "EUR" }, "invalid_currency"],
    ["a relative success_url", { amount_cents: 100, success_url: "/thanks" }, "parameter_invalid"],
    ["a javascript: cancel_url", { amount_cents: 100, cancel_url: "javascript:alert(1)" }, "parameter_invalid"],
    ["metadata with an object value", { amount_cents: 100, metadata: { a: { b: 1 } } }, "parameter_invalid"],
    ["an unknown field", { amount_cents: 100, tip: 5 }, "parameter_unknown"],
  ])("refuses %s", async (_, body, code) => {
    const { app } = world.setup();
    const response = await world.create(app, world.shop.testKey, body);
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ type: "invalid_request", code });
    expect(
      await world.db.database.oneFirst(sql.type(countSchema)`
      SELECT count(*)::int AS count FROM payments WHERE merchant_id = ${world.shop.id}`),
    ).toBe(0);
  });

  test("metadata: a __proto__ key is refused naming the field; constructor and prototype are kept as given", async () => {
    const { app } = world.setup();
    // Parsed, as the API parses a body: an object literal would set the prototype instead of a key.
    for (const metadata of ['{"__proto__": "x"}', '{"table": 7, "__proto__": {"nested": true}}']) {
      const refused = await world.create(app, world.shop.testKey, {
        amount_cents: 100,
        metadata: JSON.parse(metadata),
      });
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatchObject({ type: "invalid_request", code: "parameter_invalid" });
      expect(refused.body.error.message).toMatch(/metadata.*__proto__/);
    }
    expect(
      await world.db.database.oneFirst(sql.type(countSchema)`
      SELECT count(*)::int AS count FROM payments WHERE merchant_id = ${world.shop.id}`),
    ).toBe(0);

    const metadata = { constructor: "c", prototype: 1, table: 7 };
    const created = await world.create(app, world.shop.testKey, { amount_cents: 100, metadata });
    expect(created.status).toBe(201);
    expect(created.body.metadata).toEqual(metadata);
    expect(
      await world.db.database.oneFirst(sql.type(z.object({ metadata: z.unknown() }))`
      SELECT metadata FROM payments WHERE id = ${created.body.id}`),
    ).toEqual(metadata);
  });

  test("currency defaults to USD; ZWG is accepted; the fee never exceeds the amount", async () => {
    const { app } = world.setup();
    const costly = await newMerchant(world.db.database, { fee_bps: 0, fee_fixed_cents: 500 });
    expect((await world.create(app, world.shop.testKey, { amount_cents: 100 })).body.currency).toBe("USD");
    expect((await world.create(app, world.shop.testKey, { amount_cents: 100, currency: "ZWG" })).body.currency).toBe(
      "ZWG",
    );
    expect((await world.create(app, costly.testKey, { amount_cents: 300 })).body.fee_cents).toBe(300);
    expect(payments.feeCents(1_000_000_000, { fee_bps: 10_000, fee_fixed_cents: 0 })).toBe(1_000_000_000);
    expect(payments.feeCents(333, { fee_bps: 150, fee_fixed_cents: 10 })).toBe(15);
  });

  test("requires an Idempotency-Key; 10 concurrent identical requests create one payment", async () => {
    const { app } = world.setup();
    const missing = await request(app)
      .post("/v1/payments")
      .set("Authorization", `Bearer ${world.shop.testKey}`)
      .send({ amount_cents: 100 });
    expect(missing.body.error.code).toBe("missing_idempotency_key");
    const key = randomUUID();
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => world.create(app, world.shop.testKey, { amount_cents: 700 }, key)),
    );
    const created = responses.filter((response) => response.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((response) => response.body.id)).size).toBe(1);
    for (const response of responses.filter((candidate) => candidate.status !== 201)) {
      expect(response.status).toBe(409);
      expect(response.body.error.code).toBe("idempotency_in_flight");
    }
    const replay = await world.create(app, world.shop.testKey, { amount_cents: 700 }, key);
    expect(replay.body.id).toBe(created[0]?.body.id);
    expect(
      await world.db.database.oneFirst(sql.type(countSchema)`
      SELECT count(*)::int AS count FROM payments WHERE merchant_id = ${world.shop.id}`),
    ).toBe(1);
  });

  test("a replay is the first answer byte for byte, QR included, while the stored record keeps no image", async () => {
    const { app } = world.setup();
    const key = randomUUID();
    const first = await world.create(app, world.shop.testKey, { amount_cents: 850 }, key);
    expect(first.status).toBe(201);
    expect(first.body.qr_png_data_url).toMatch(/^data:image\/png;base64,/);
    const replay = await world.create(app, world.shop.testKey, { amount_cents: 850 }, key);
    expect(replay.headers["idempotent-replayed"]).toBe("true");
    expect(replay.text).toBe(first.text);
    const stored = await world.db.database.oneFirst(sql.type(z.object({ response_body: z.string() }))`
      SELECT response_body FROM idempotency_keys WHERE merchant_id = ${world.shop.id} AND key = ${key}`);
    expect(stored).not.toContain("data:image");
    expect(stored).toBe(JSON.stringify({ ...first.body, qr_png_data_url: "" }));
  });

  test("sandbox levers: gateway unavailable and code generation failure are 502s, and a retry runs again", async () => {
    const { app } = world.setup();
    const key = randomUUID();
    const unavailable = await world.create(
      app,
      world.shop.testKey,
      { amount_cents: SANDBOX_MAGIC_AMOUNTS.gatewayUnavailable },
      key,
    );
    expect(unavailable.status).toBe(502);
    expect(unavailable.body.error).toMatchObject({ type: "gateway_error", code: "gateway_error" });
    const failed = await world.create(app, world.shop.testKey, {
      amount_cents: SANDBOX_MAGIC_AMOUNTS.codeGenerationFailed,
    });
    expect(failed.status).toBe(502);
    expect(failed.body.error.code).toBe("code_generation_failed");
    // Not stored: the same key runs the request again (and fails again, the lever being the amount).
    expect(
      (await world.create(app, world.shop.testKey, { amount_cents: SANDBOX_MAGIC_AMOUNTS.gatewayUnavailable }, key))
        .status,
    ).toBe(502);
  });

  test("a code still live for another payment is replaced by a fresh one; a gateway issuing only live codes fails", async () => {
    const sandbox = createSandboxGateway({ autoSettleMs: 3_600_000 });
    const codes = collidingCodes(sandbox.issuePaymentCode);
    const { issuedCodes } = codes;
    const colliding: PaymentGateway = { ...sandbox, issuePaymentCode: codes.issue };
    const { app } = world.setup({}, { test: colliding, live: colliding });
    const first = await world.create(app, world.shop.testKey, { amount_cents: 1000 });
    const liveCode: string = first.body.code;

    codes.repeat(liveCode, 2);
    const second = await world.create(app, world.shop.testKey, { amount_cents: 2000 });
    expect(second.status).toBe(201);
    expect(issuedCodes.slice(1)).toEqual([liveCode, liveCode, second.body.code]);
    expect(second.body.code).not.toBe(liveCode);
    const pngOf = (dataUrl: string) => PNG.sync.read(Buffer.from(dataUrl.split(",")[1] ?? "", "base64"));
    const qr = pngOf(second.body.qr_png_data_url);
    expect(jsQR(new Uint8ClampedArray(qr.data), qr.width, qr.height)?.data).toBe(second.body.deep_link);
    const amounts = await world.db.database.anyFirst(sql.type(z.object({ amount_cents: z.number() }))`
      SELECT amount_cents FROM payments WHERE merchant_id = ${world.shop.id} ORDER BY amount_cents`);
    expect(amounts).toEqual([1000, 2000]);

    codes.repeat(liveCode, 3);
    const key = randomUUID();
    const failed = await world.create(app, world.shop.testKey, { amount_cents: 3000 }, key);
    expect(failed.status).toBe(502);
    expect(failed.body.error.code).toBe("code_generation_failed");
    expect(issuedCodes.slice(4)).toEqual([liveCode, liveCode, liveCode]);
    // Nothing written and the key released: the client's retry with the same key runs again.
    const retried = await world.create(app, world.shop.testKey, { amount_cents: 3000 }, key);
    expect(retried.status).toBe(201);
    expect(
      await world.db.database.oneFirst(sql.type(countSchema)`
        SELECT count(*)::int AS count FROM payments WHERE merchant_id = ${world.shop.id} AND amount_cents = 3000`),
    ).toBe(1);
  });

  test("live payments without a configured gateway fail with 502 gateway_error, creating nothing", async () => {
    const { app } = world.setup();
    const response = await world.create(app, world.shop.liveKey, { amount_cents: 100 });
    expect(response.status).toBe(502);
    expect(response.body.error.code).toBe("gateway_error");
  });
});

describe("listing", () => {
  test("filters by status and merchant_ref, pages newest first, never shows another merchant or world", async () => {
    const { app } = world.setup();
    const ids: string[] = [];
    for (let index = 0; index < 5; index += 1) {
      ids.push(
        (
          await world.create(app, world.shop.testKey, {
            amount_cents: 100 + index,
            merchant_ref: index % 2 === 0 ? "even" : "odd",
          })
        ).body.id,
      );
    }
    await request(app).post(`/checkout/${ids[0]}/mockpay`).send({});
    const other = await newMerchant(world.db.database);
    await world.create(app, other.testKey, { amount_cents: 100 });
    const list = (query: Record<string, string | number>, key = world.shop.testKey) =>
      request(app).get("/v1/payments").query(query).set("Authorization", `Bearer ${key}`);

    const firstPage = await list({ limit: 3 });
    expect(firstPage.body.data.map((payment: { id: string }) => payment.id)).toEqual(ids.slice(2).reverse());
    const secondPage = await list({ limit: 3, cursor: firstPage.body.next_cursor });
    expect(secondPage.body.data.map((payment: { id: string }) => payment.id)).toEqual(ids.slice(0, 2).reverse());
    expect(secondPage.body.has_more).toBe(false);
    expect((await list({ status: "paid" })).body.data.map((payment: { id: string }) => payment.id)).toEqual([ids[0]]);
    expect((await list({ merchant_ref: "odd" })).body.data).toHaveLength(2);
    expect((await list({}, world.shop.liveKey)).body.data).toEqual([]);
    const foreign = await request(app).get(`/v1/payments/${ids[1]}`).set("Authorization", `Bearer ${other.testKey}`);
    expect(foreign.status).toBe(404);
    expect((await list({ status: "settled" })).status).toBe(400);
  });
});

test("a statement with a new payment's insert that fails on its code, id or reference asks for a fresh preparation; other failures do not", async () => {
  const tenant = { merchantId: world.shop.id, livemode: false };
  const prepared = (code: string, reference: string) => ({
    id: `pay_${randomUUID().replaceAll("-", "").slice(0, 24)}`,
    input: { amount_cents: 100, currency: "USD" as const },
    issued: { code, gatewayReference: `gw_${code}` },
    feeCents: 2,
    reference,
    createdAt: new Date(),
    expiresAt: new Date(Date.now() + 600_000),
    firstPollAt: null,
  });
  const write = (insert: ReturnType<typeof payments.pendingPaymentOf>) =>
    world.db.database
      .query(
        sql.unsafe`WITH written AS (${payments.pendingPaymentsInsert([insert], () => sql.fragment`TRUE`)}) SELECT id FROM written`,
      )
      .then(
        () => null,
        (error: unknown) => error,
      );
  const first = payments.pendingPaymentOf(tenant, prepared("918273645", "PRFIRST0001"));
  expect(await write(first)).toBeNull();
  const sameCode = payments.pendingPaymentOf(tenant, prepared("918273645", "PRFIRST0002"));
  const sameReference = payments.pendingPaymentOf(tenant, prepared("918273646", "PRFIRST0001"));
  for (const again of [sameCode, sameReference]) {
    const failure = await write(again);
    expect(payments.codeCollisionOf(failure, again.payment)).toBeInstanceOf(Error);
  }
  // A failure of another kind (here the merchants foreign key) is the caller's to answer.
  const orphan = payments.pendingPaymentOf(
    { merchantId: "m_missing", livemode: false },
    prepared("918273647", "PRFIRST0003"),
  );
  expect(payments.codeCollisionOf(await write(orphan), orphan.payment)).toBeNull();
});
