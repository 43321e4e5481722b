import { randomUUID } from "node:crypto";
import { z } from "zod";
import { countingDatabase } from "../../../tests/support/counting-database.ts";
import { salesTestWorld } from "../../../tests/support/sales.ts";
import { sql } from "../../platform/db/pool.ts";
import { claimRequestOf, type ResponseToStore } from "../../platform/idempotency/service.ts";
import { newId } from "../../platform/ids.ts";
import * as payments from "../payments/service.ts";
import { newReceiptToken } from "./receipt-token.ts";
import { createWalletSaleWriter, type WalletSaleToWrite } from "./wallet-sale-writer.ts";

/**
 * The wallet sale writer: the wallet sales of one event-loop turn (here: the writes started together),
 * each with its payment and stored answer, in one statement and one commit; a statement the database
 * refuses is written again sale by sale, so that only the failing sale fails.
 */

const world = salesTestWorld();

/** A pending test-world wallet sale of `amountCents` and its payment, as `POST /v1/sales` prepares them, with `code`. */
function walletSale(amountCents: number, code: string): WalletSaleToWrite {
  const createdAt = new Date();
  const saleId = newId("sale");
  const payment = payments.pendingPaymentOf(
    { merchantId: world.shop.id, livemode: false },
    {
      id: `pay_${randomUUID().replaceAll("-", "").slice(0, 24)}`,
      input: { amount_cents: amountCents, currency: "USD", metadata: { sale_id: saleId } },
      issued: { code, gatewayReference: `gw_${code}` },
      feeCents: 0,
      reference: `PR${randomUUID().replaceAll("-", "").slice(0, 10).toUpperCase()}`,
      createdAt,
      expiresAt: new Date(createdAt.getTime() + 600_000),
      firstPollAt: new Date(createdAt.getTime() + 2_000),
    },
  );
  const items = [{ product_id: null, name: "Mug", qty: 1, unit_cents: amountCents, line_total_cents: amountCents }];
  return {
    sale: {
      merchant_id: world.shop.id,
      id: saleId,
      livemode: false,
      status: "pending",
      tender: "wallet",
      currency: "USD",
      total_cents: amountCents,
      items,
      discount_cents: 0,
      discount_reason: null,
      tax_cents: 0,
      taxes: [],
      cashier: null,
      note: null,
      payment_id: payment.payment.id,
      actor_type: "api_key",
      actor_id: world.shop.testKeyId,
      client_sale_id: null,
      client_request_fingerprint: null,
      taken_at: createdAt,
      till_id: null,
      shift_id: null,
      receipt_token: newReceiptToken(),
      created_at: createdAt,
      completed_at: null,
      cancelled_at: null,
      tendered_cents: null,
    },
    response: null,
    payment,
  };
}

/** The response of a request that owns its Idempotency-Key (`owned`), or of one that never claimed it. */
async function responseFor(row: WalletSaleToWrite, owned: boolean): Promise<ResponseToStore> {
  const claim = claimRequestOf({ key: randomUUID(), method: "POST", path: "/v1/sales", body: {} }, 30_000);
  if (owned) {
    await world.db.database.query(sql.unsafe`
      INSERT INTO idempotency_keys (merchant_id, livemode, key, request_method, request_path, request_fingerprint, state,
        owner_token, locked_until)
      VALUES (${world.shop.id}, false, ${claim.key}, 'POST', '/v1/sales', ${sql.binary(claim.fingerprint)},
        'in_flight', ${claim.ownerToken}, now() + interval '30 seconds')`);
  }
  return {
    merchantId: world.shop.id,
    livemode: false,
    key: claim.key,
    ownerToken: claim.ownerToken,
    status: 201,
    body: JSON.stringify({ id: row.sale.id, object: "sale" }),
  };
}

const written = async () =>
  world.db.database
    .any(sql.type(
      z.object({ sale_id: z.string(), sale_status: z.string(), payment_id: z.string(), payment_status: z.string() }),
    )`
    SELECT s.id AS sale_id, s.status AS sale_status, p.id AS payment_id, p.status AS payment_status
    FROM sales s JOIN payments p ON p.merchant_id = s.merchant_id AND p.id = s.payment_id
    WHERE s.merchant_id = ${world.shop.id}`)
    .then((rows) => [...rows].sort((a, b) => (a.sale_id < b.sale_id ? -1 : 1)));

const bySaleId = (a: WalletSaleToWrite, b: WalletSaleToWrite) => (a.sale.id < b.sale.id ? -1 : 1);

const paymentsWithout = (ids: readonly string[]) =>
  world.db.database.oneFirst(sql.type(z.object({ count: z.number() }))`
    SELECT count(*)::int AS count FROM payments
    WHERE merchant_id = ${world.shop.id} AND NOT (id = ANY (${sql.array(ids, "text")}))`);

test("wallet sales written together are one statement: each sale and its payment recorded, or neither when its request lost its key", async () => {
  const rows = [walletSale(100, "700000001"), walletSale(200, "700000002"), walletSale(300, "700000003")];
  const [owning, plain, lost] = rows;
  if (owning === undefined || plain === undefined || lost === undefined) throw new Error("three sales");
  owning.response = await responseFor(owning, true);
  lost.response = await responseFor(lost, false);
  const counting = countingDatabase(world.db.database);
  const write = createWalletSaleWriter(counting.database);
  expect(await Promise.all(rows.map((row) => write(row)))).toEqual([true, true, false]);
  expect([counting.statements(), counting.callsOf("transaction")]).toEqual([1, 0]);
  expect(await written()).toEqual(
    [owning, plain].sort(bySaleId).map((row) => ({
      sale_id: row.sale.id,
      sale_status: "pending",
      payment_id: row.payment.payment.id,
      payment_status: "pending",
    })),
  );
  expect(await paymentsWithout([owning.payment.payment.id, plain.payment.payment.id])).toBe(0);
  const stored = await world.db.database.oneFirst(sql.type(z.object({ response_body: z.string().nullable() }))`
    SELECT response_body FROM idempotency_keys WHERE merchant_id = ${world.shop.id} AND key = ${owning.response.key}`);
  expect(stored).toBe(owning.response.body);
});

test("a payment code still live elsewhere fails the statement, which is written again sale by sale: only that sale fails, as a code collision", async () => {
  const [first] = [walletSale(100, "700000011")];
  if (first === undefined) throw new Error("one sale");
  const write = createWalletSaleWriter(world.db.database);
  expect(await write(first)).toBe(true);
  const rows = [
    walletSale(200, "700000012"),
    walletSale(300, first.payment.payment.code),
    walletSale(400, "700000013"),
  ];
  const counting = countingDatabase(world.db.database);
  const writeTogether = createWalletSaleWriter(counting.database);
  const outcomes = await Promise.allSettled(rows.map((row) => writeTogether(row)));
  // The three together, then each alone.
  expect(counting.statements()).toBe(4);
  expect(outcomes.map((outcome) => outcome.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
  const [, collided] = outcomes;
  const collidedRow = rows[1];
  if (collided?.status !== "rejected" || collidedRow === undefined) throw new Error("the second sale collides");
  expect(payments.codeCollisionOf(collided.reason, collidedRow.payment.payment)).toBeInstanceOf(Error);
  expect((await written()).map((row) => row.sale_id)).toEqual(
    [first, rows[0], rows[2]].map((row) => row?.sale.id).sort(),
  );
});
