import { countingDatabase } from "../../../tests/support/counting-database.ts";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/database.ts";
import { newMerchant } from "../../../tests/support/factories.ts";
import { client, createProduct, posSetup } from "../../../tests/support/pos.ts";
import { createProductReader } from "./service.ts";

/** The batching product reader behind POST /v1/sales. */

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.close());

test("the reads of one turn share one statement; each merchant gets only its own products, unknown ids absent", async () => {
  const app = posSetup(db).app;
  const [first, second] = await Promise.all([newMerchant(db.database), newMerchant(db.database)]);
  const firstApi = client(app, first.liveKey);
  const secondApi = client(app, second.liveKey);
  const cola = await createProduct(firstApi, { name: "Cola", price_cents: 150 });
  const bread = await createProduct(firstApi, { name: "Bread", price_cents: 90 });
  const soap = await createProduct(secondApi, { name: "Soap", price_cents: 200 });
  const counting = countingDatabase(db.database);
  const read = createProductReader(counting.database);

  const [both, repeated, others, crossed] = await Promise.all([
    read(first.id, [cola.id, bread.id, "prod_unknown"]),
    read(first.id, [cola.id, cola.id]),
    read(second.id, [soap.id]),
    read(second.id, [cola.id]),
  ]);

  expect(counting.statements()).toBe(1);
  expect([...both.keys()].sort()).toEqual([bread.id, cola.id].sort());
  expect(both.get(cola.id)).toMatchObject({ merchant_id: first.id, name: "Cola", price_cents: 150 });
  expect([...repeated.keys()]).toEqual([cola.id]);
  expect([...others.keys()]).toEqual([soap.id]);
  expect(crossed.size).toBe(0);

  await read(first.id, [bread.id]);
  expect(counting.statements()).toBe(2);
});
