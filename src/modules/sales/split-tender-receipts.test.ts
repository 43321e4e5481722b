import request from "supertest";
import { salesTestWorld } from "../../../tests/support/sales.ts";
import { cashTender, sellSplit, tenderHelpers, walletTender } from "../../../tests/support/tenders.ts";

/**
 * A split sale as the shop hands it over (issue 47 point 7): the receipt page lists each tender with
 * its rate in the other currency, its state, the change in its currency and a return's refund per
 * currency. And a wallet tender taken before the cash that covered the sale with change: when that
 * wallet fails, the sale stays pending with the cash kept net of the change already given, and more
 * change is given in the same currency (the sale's change is all of it).
 */

const world = salesTestWorld();
const { openShop, drawerOf, pay } = tenderHelpers(world);

/** The receipt page's text, tags dropped and white space folded. */
async function receiptText(url: string): Promise<string> {
  const page = await request(world.setup.app).get(new URL(url).pathname);
  expect(page.status).toBe(200);
  return page.text
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

test("a two-currency split sale's receipt lists each tender, its rate, the change and a return's refund per currency", async () => {
  const api = world.testWorld;
  const { rateId, product } = await openShop(api);
  // USD 20.00: USD 5.00 cash, then ZWG 400.00 (counts floor(40000 / 26.5) = USD 15.09), change in ZWG.
  const sale = await sellSplit(api, product, 2, [cashTender("USD", 500), cashTender("ZWG", 40_000)], {
    exchange_rate_id: rateId,
    change_currency: "ZWG",
  });
  expect(sale.body).toMatchObject({ status: "completed", change: { currency: "ZWG", amount_cents: 238 } });
  const text = await receiptText(sale.body.receipt_url);
  expect(text).toContain(
    "Total USD 20.00 Paid: Split tender Cash USD 5.00 Cash ZWG 400.00 at 26.5 = USD 15.09 Change ZWG 2.38",
  );

  // One of two back: USD 10.00, the last tender first (ZWG, at its rate), all of it from the ZWG cash.
  const back = await api.post(`/v1/sales/${sale.body.id}/returns`, { items: [{ line: 0, qty: 1 }] });
  expect(back.status).toBe(201);
  const [share] = back.body.sale_return.refunds;
  expect(share).toMatchObject({ currency: "ZWG", tender_index: 1 });
  const zwgBack = (share.amount_cents / 100).toFixed(2);
  expect(await receiptText(back.body.sale_return.receipt_url)).toContain(`Refunded (cash) ZWG ${zwgBack}`);
  // The rest back, from both tenders: the sale's receipt sums what its returns paid back per currency.
  const rest = await api.post(`/v1/sales/${sale.body.id}/returns`, { items: [{ line: 0, qty: 1 }] });
  expect(rest.status).toBe(201);
  const refunds = [...back.body.sale_return.refunds, ...rest.body.sale_return.refunds];
  const sum = (currency: string) =>
    refunds
      .filter((refund: { currency: string }) => refund.currency === currency)
      .reduce((total: number, refund: { amount_cents: number }) => total + refund.amount_cents, 0);
  expect(sum("USD")).toBe(500);
  expect(await receiptText(sale.body.receipt_url)).toContain(
    `Refunded (cash) ZWG ${(sum("ZWG") / 100).toFixed(2)} + USD 5.00`,
  );
});

test("a wallet tender, then ZWG cash covering the rest with change: the wallet failing keeps the cash net of the change", async () => {
  const api = world.testWorld;
  const { rateId, shiftId, product } = await openShop(api);
  // USD 10.00: wallet USD 5.00 first, then ZWG 150.00 (counts USD 5.66): change 66 US cents as ZWG 17.49.
  const sale = await sellSplit(api, product, 1, [walletTender("USD", 500), cashTender("ZWG", 15_000)], {
    exchange_rate_id: rateId,
    change_currency: "ZWG",
  });
  expect(sale.status).toBe(201);
  expect(sale.body).toMatchObject({
    status: "pending",
    paid_cents: 500,
    due_cents: 500,
    change: { currency: "ZWG", amount_cents: 1_749 },
  });
  expect(await drawerOf(api, shiftId)).toEqual({ USD: 0, ZWG: 15_000 - 1_749 });
  expect((await pay(sale.body.tenders[0].payment_id, "expired")).body.status).toBe("expired");
  const failed = (await api.get(`/v1/sales/${sale.body.id}`)).body;
  expect(failed).toMatchObject({ status: "pending", paid_cents: 500, due_cents: 500 });
  // Expired: it paid nothing; the ZWG cash stays counted for what it contributed, USD 5.00.
  expect(failed.tenders.map((tender: { status: string }) => tender.status)).toEqual(["failed", "paid"]);
  const pendingReceipt = await receiptText(sale.body.receipt_url);
  expect(pendingReceipt).toContain("This sale is pending.");
  expect(pendingReceipt).toContain(
    "Wallet (failed: paid nothing) USD 5.00 Cash ZWG 150.00 at 26.5 = USD 5.66 Change ZWG 17.49",
  );

  // USD 6.00 cash for the USD 5.00 still due: its change goes in ZWG too, the currency the sale's
  // change was given in, so the sale's change (and its receipt) says all of it.
  const usd = { kind: "cash", currency: "USD", amount_cents: 600 };
  const refused = await api.post(`/v1/sales/${sale.body.id}/tenders`, usd);
  expect([refused.status, refused.body.error.code]).toEqual([400, "parameter_invalid"]);
  expect(refused.body.error.message).toContain("already gave change in ZWG");
  const added = await api.post(`/v1/sales/${sale.body.id}/tenders`, {
    ...usd,
    change_currency: "ZWG",
    exchange_rate_id: rateId,
  });
  // USD 1.00 over is ZWG 26.50: ZWG 17.49 + 26.50 of change in all.
  expect(added.body).toMatchObject({
    status: "completed",
    paid_cents: 1_000,
    due_cents: 0,
    change: { currency: "ZWG", amount_cents: 4_399 },
  });
  expect(await receiptText(sale.body.receipt_url)).toContain("Cash USD 6.00 Change ZWG 43.99");
  expect(await drawerOf(api, shiftId)).toEqual({ USD: 600, ZWG: 15_000 - 1_749 - 2_650 });
  expect(await world.balanceOf(api)).toEqual({ USD: 0, ZWG: 0 });
});
