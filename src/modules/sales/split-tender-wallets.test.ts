import { randomUUID } from "node:crypto";
import { z } from "zod";
import { eventsOfType, movesOf } from "../../../tests/support/pos.ts";
import { salesTestWorld } from "../../../tests/support/sales.ts";
import { cashTender, sellSplit, tenderHelpers, walletTender } from "../../../tests/support/tenders.ts";
import { sql } from "../../platform/db/pool.ts";
import * as payments from "../payments/service.ts";

/**
 * Split sales paid by wallets (docs/shop.md, "Split and two-currency tender"): two wallet payments, one
 * in the other currency; a tender added with a wallet and replayed; and a payment settled by a process
 * without the sales hook, whose sale the next read completes once.
 */

const world = salesTestWorld();
const { openShop, drawerOf, pay } = tenderHelpers(world);

const tenderStatuses = (saleId: string) =>
  world.db.database.anyFirst(sql.type(z.object({ status: z.string() }))`
    SELECT status FROM sale_tenders WHERE sale_id = ${saleId} ORDER BY position`);

test("two wallet payments, one in ZWG: the sale completes with the second, each payment in its own currency's balance", async () => {
  const api = world.testWorld;
  const { rateId, product } = await openShop(api);
  // USD 10.00: USD 4.00 by wallet, then the USD 6.00 left asked as ZWG 159.00.
  const sale = await sellSplit(api, product, 1, [walletTender("USD", 400), walletTender("ZWG", 15_900)], {
    till_id: undefined,
    exchange_rate_id: rateId,
  });
  expect(sale.status).toBe(201);
  expect(sale.body).toMatchObject({ status: "pending", paid_cents: 0, due_cents: 1_000 });
  expect(sale.body.payment).toMatchObject({
    id: sale.body.tenders[1].payment_id,
    currency: "ZWG",
    amount_cents: 15_900,
  });
  await pay(sale.body.tenders[0].payment_id);
  expect((await api.get(`/v1/sales/${sale.body.id}`)).body).toMatchObject({ status: "pending", paid_cents: 400 });
  await pay(sale.body.tenders[1].payment_id);
  const done = (await api.get(`/v1/sales/${sale.body.id}`)).body;
  expect(done).toMatchObject({ status: "completed", paid_cents: 1_000, due_cents: 0, change: null });
  expect(await eventsOfType(world.db, world.shop.id, "sale.completed")).toHaveLength(1);
  expect(await world.balanceOf(api)).toEqual({ USD: 400 - 6, ZWG: 15_900 - 239 });
});

test("a wallet tender added to a pending sale gets its payment; replaying the request adds nothing", async () => {
  const api = world.testWorld;
  const { shiftId, product } = await openShop(api);
  const sale = await sellSplit(api, product, 1, [cashTender("USD", 300), walletTender("USD", 700)]);
  expect((await pay(sale.body.tenders[1].payment_id, "expired")).body.status).toBe("expired");
  const key = randomUUID();
  const body = { kind: "wallet", currency: "USD", amount_cents: 700 };
  const added = await api.post(`/v1/sales/${sale.body.id}/tenders`, body, key);
  const replayed = await api.post(`/v1/sales/${sale.body.id}/tenders`, body, key);
  expect(added.status).toBe(201);
  expect(replayed.body).toEqual(added.body);
  expect(added.body).toMatchObject({ status: "pending", paid_cents: 300, due_cents: 700 });
  expect(added.body.payment).toMatchObject({ id: added.body.tenders[2].payment_id, status: "pending" });
  expect(added.body.payment.qr_png_data_url).toMatch(/^data:image\/png;base64,/);
  expect(await tenderStatuses(sale.body.id)).toEqual(["paid", "failed", "pending"]);
  // A wallet may not pay more than is due.
  const over = await api.post(`/v1/sales/${sale.body.id}/tenders`, { ...body, amount_cents: 1 });
  expect([over.status, over.body.error.code]).toEqual([400, "parameter_invalid"]);
  await pay(added.body.tenders[2].payment_id);
  expect((await api.get(`/v1/sales/${sale.body.id}`)).body.status).toBe("completed");
  expect(await drawerOf(api, shiftId)).toEqual({ USD: 300, ZWG: 0 });
  expect(await world.balanceOf(api)).toEqual({ USD: 700 - 11, ZWG: 0 });
});

test("a tender's payment settled by a process without the sales hook: the next read completes the sale once", async () => {
  const api = world.testWorld;
  const { product } = await openShop(api);
  const sale = await sellSplit(api, product, 2, [cashTender("USD", 500), walletTender("USD", 1_500)]);
  const pending = await payments.getPaymentById(world.db.database, sale.body.tenders[1].payment_id);
  await payments.settlePayment({ database: world.db.database, paymentHooks: [] }, pending, {
    paidAt: new Date(),
    payerMsisdn: null,
  });
  expect(await tenderStatuses(sale.body.id)).toEqual(["paid", "pending"]);
  const read = await Promise.all([api.get(`/v1/sales/${sale.body.id}`), api.get(`/v1/sales/${sale.body.id}`)]);
  expect(read.map((response) => response.body.status)).toEqual(["completed", "completed"]);
  expect(await tenderStatuses(sale.body.id)).toEqual(["paid", "paid"]);
  expect(await eventsOfType(world.db, world.shop.id, "sale.completed")).toHaveLength(1);
  expect((await movesOf(world.db, product.id)).filter((move) => move.sale_id === sale.body.id)).toHaveLength(1);
});

test("waiting on a split sale whose wallet tender already failed answers at once: nothing is left to wait for", async () => {
  const api = world.testWorld;
  const { product } = await openShop(api);
  const sale = await sellSplit(api, product, 1, [cashTender("USD", 400), walletTender("USD", 600)]);
  expect((await pay(sale.body.tenders[1].payment_id, "expired")).body.status).toBe("expired");
  // A till whose next waiting request starts just after the failure: it must not wait out its 25 s.
  const deadline = new Promise<"waited">((resolve) => setTimeout(() => resolve("waited"), 10_000).unref());
  const answer = await Promise.race([api.get(`/v1/sales/${sale.body.id}?wait_seconds=25`), deadline]);
  expect(answer).not.toBe("waited");
  expect(answer === "waited" ? null : answer.body).toMatchObject({ status: "pending", paid_cents: 400 });
});
