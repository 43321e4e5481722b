import request from "supertest";
import { z } from "zod";
import { newMerchant } from "../../../tests/support/factories.ts";
import { client, createProduct, posSetup } from "../../../tests/support/pos.ts";
import { servedPlatformWorld } from "../../../tests/support/served-platform.ts";
import { ok, SHOP_DAY_CASHIER, SHOP_DAY_TILL, shopDay } from "../../../tests/support/shop-http.ts";
import { sql } from "../../platform/db/pool.ts";

/**
 * Issue 47 point 2: the breakdowns name cashiers and tills as the Z report does, and the report agrees
 * with the ledger: the wallet row's net is what the wallet payments credited to the balance.
 */
const world = servedPlatformWorld();

type Breakdown = { rows: { key: string | null; label: string; currency: string; net_cents: number }[] };

test("by cashier and by till: the day's cash sales and refund under the cashier's and the till's names", async () => {
  const shop = await newMerchant(world.db.database);
  const day = await shopDay(world.platform.baseUrl, shop.email);
  const cashiers = await ok<Breakdown & { rows: Record<string, unknown>[] }>(
    day.owner.call("GET", "/v1/sales/reports/cashier"),
  );
  // USD 12.50 and 1.99, one loaf (6.25) refunded; ZWG 30.00.
  expect(cashiers.rows).toEqual([
    expect.objectContaining({
      key: day.cashierId,
      label: SHOP_DAY_CASHIER,
      currency: "USD",
      count: 2,
      gross_cents: 1449,
      refund_cents: 625,
      net_cents: 824,
    }),
    expect.objectContaining({
      key: day.cashierId,
      label: SHOP_DAY_CASHIER,
      currency: "ZWG",
      count: 1,
      gross_cents: 3000,
      refund_cents: 0,
      net_cents: 3000,
    }),
  ]);
  const tills = await ok<Breakdown>(day.owner.call("GET", "/v1/sales/reports/till"));
  expect(tills.rows.map((row) => [row.key, row.label, row.currency, row.net_cents])).toEqual([
    [day.tillId, SHOP_DAY_TILL, "USD", 824],
    [day.tillId, SHOP_DAY_TILL, "ZWG", 3000],
  ]);
  // A till reads Today (GET /v1/sales/report), not the owner's breakdowns.
  expect((await day.till.call("GET", "/v1/sales/reports/till")).status).toBe(403);
});

const postingRow = z.object({ entry_type: z.string(), amount_cents: z.number().int() });

test("the wallet row's net equals the wallet payments' credits to the balance; their fees are the balance's only other move", async () => {
  const shop = await newMerchant(world.db.database);
  const setup = posSetup(world.db);
  const api = client(setup.app, shop.testKey);
  const cola = await createProduct(api, { name: "Cola", price_cents: 1_234 });
  const paymentIds: string[] = [];
  for (const qty of [1, 3, 7]) {
    const sale = (await api.post("/v1/sales", { tender: "wallet", items: [{ product_id: cola.id, qty }] })).body;
    await request(setup.app).post(`/checkout/${sale.payment_id}/mockpay`).send({});
    paymentIds.push(sale.payment_id);
  }
  // A return of a wallet sale is paid in cash: the balance keeps the wallet payment.
  const returned = (await api.get("/v1/sales", { limit: 1 })).body.data[0];
  expect((await api.post(`/v1/sales/${returned.id}/returns`, { items: [{ line: 0, qty: 2 }] })).status).toBe(201);

  const tenders = (await api.get("/v1/sales/reports/tender")).body as Breakdown;
  const walletNet = tenders.rows.find((row) => row.key === "wallet" && row.currency === "USD")?.net_cents;
  const postings = await world.db.database.any(sql.type(postingRow)`
    SELECT p.entry_type, p.amount_cents FROM ledger_postings p
    JOIN ledger_transactions t ON t.merchant_id = p.merchant_id AND t.id = p.transaction_id
    WHERE p.merchant_id = ${shop.id} AND p.livemode = false AND p.account = 'merchant_available' AND p.currency = 'USD'
      AND t.source_type = 'payment' AND t.source_id = ANY(${sql.array(paymentIds, "text")})`);
  const sum = (entryType: string) =>
    postings.filter((row) => row.entry_type === entryType).reduce((total, row) => total + row.amount_cents, 0);
  expect(walletNet).toBe(1_234 * 11);
  expect(sum("payment")).toBe(walletNet);
  // Fees (1.5 % here) are the ledger's, shown beside the report's net, not in it.
  const fees = sum("fee");
  expect(fees).toBeLessThan(0);
  const balance = (await api.get("/v1/balance")).body;
  const available = balance.available.find((entry: { currency: string }) => entry.currency === "USD").amount_cents;
  expect(available).toBe((walletNet ?? 0) + fees);
  // The refund is in the cash row.
  expect(tenders.rows.find((row) => row.key === "cash")?.net_cents).toBe(-1_234 * 2);
});
