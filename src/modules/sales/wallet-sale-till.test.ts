import { randomUUID } from "node:crypto";
import { client, createProduct, posSetup } from "../../../tests/support/pos.ts";
import { salesTestWorld } from "../../../tests/support/sales.ts";
import { openTill, signIn, TEST_ORIGIN } from "../../../tests/support/sessions.ts";

/** A wallet sale rung up on a paired till is that till's, so the dashboard's Sales can name it. */

const world = salesTestWorld();

test("a wallet sale from a till session carries the till's id without naming it; one by secret key has none", async () => {
  // Sessions are taken only from the app's own origin.
  const { app } = posSetup(world.db, { PUBLIC_BASE_URL: TEST_ORIGIN });
  const owner = await signIn(app, { email: world.shop.email, password: "correct horse battery" });
  const till = await openTill(app, owner, "Back counter");
  const byKeyClient = client(app, world.shop.testKey);
  const product = await createProduct(byKeyClient, { name: "Tea", price_cents: 300, stock_qty: 5 });
  const body = { tender: "wallet", items: [{ product_id: product.id, qty: 1 }] };

  const fromTill = await till.send("post", "/v1/sales").set("Idempotency-Key", randomUUID()).send(body);
  expect(fromTill.status).toBe(201);
  expect(fromTill.body.till_id).toBe(till.deviceId);
  // As read back, which is what the dashboard lists.
  const read = await till.send("get", `/v1/sales/${fromTill.body.id}`);
  expect(read.body.till_id).toBe(till.deviceId);

  const byKey = await byKeyClient.post("/v1/sales", body);
  expect(byKey.status).toBe(201);
  expect(byKey.body.till_id).toBeNull();
});
