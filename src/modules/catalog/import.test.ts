import { randomUUID } from "node:crypto";
import { parse } from "csv-parse/sync";
import request from "supertest";
import { z } from "zod";
import { createProduct, movesOf, productsTestWorld } from "../../../tests/support/pos.ts";
import { sql } from "../../platform/db/pool.ts";

const world = productsTestWorld();

const preview = (csv: string | Buffer, key = world.shop.liveKey) =>
  request(world.app)
    .post("/v1/products/import/preview")
    .set("Authorization", `Bearer ${key}`)
    .set("Content-Type", "text/csv")
    .send(csv);

const apply = (csv: string, idempotencyKey: string = randomUUID()) =>
  request(world.app)
    .post("/v1/products/import")
    .set("Authorization", `Bearer ${world.shop.liveKey}`)
    .set("Idempotency-Key", idempotencyKey)
    .set("Content-Type", "text/csv")
    .send(csv);

test("tax_rate: a percentage kept as basis points, empty for the shop's default; anything else is the row's error", async () => {
  const response = await preview(lines("name,sku,tax_rate", "Beer,BR,15.5", "Bread,BD,0", "Milk,MK,", "Odd,OD,101"));
  expect(response.body.errors).toEqual([expect.objectContaining({ row: 5, column: "tax_rate" })]);
  const fixed = await apply(lines("name,sku,tax_rate", "Beer,BR,15.5", "Bread,BD,0", "Milk,MK,"));
  expect(fixed.body).toMatchObject({ created: 3 });
  const rates = await world.db.database.any(sql.unsafe`
    SELECT sku, tax_rate_bp FROM products WHERE merchant_id = ${world.shop.id} ORDER BY sku`);
  expect(rates).toEqual([
    { sku: "BD", tax_rate_bp: 0 },
    { sku: "BR", tax_rate_bp: 1_550 },
    { sku: "MK", tax_rate_bp: null },
  ]);
});

const productCount = () =>
  world.db.database.oneFirst(sql.type(z.object({ count: z.number() }))`
    SELECT count(*)::int AS count FROM products WHERE merchant_id = ${world.shop.id}`);

const lines = (...rows: string[]) => `${rows.join("\r\n")}\r\n`;

describe("the dry run", () => {
  test("lists every row's errors with row number and column, and writes nothing", async () => {
    await createProduct(world.live, { name: "Milk", barcode: "600111" });
    await createProduct(world.live, { name: "Eggs", sku: "EGG" });
    const csv = lines(
      "name,sku,barcode,price,currency,track_stock,stock_qty,low_stock_at",
      "Bread,BRD,600222,1.20,USD,true,40,5",
      ",X1,,abc,EUR,maybe,-1,",
      "Eggs,EGG,600111,2.5,ZWG,,,",
      "Rolls,RLS,600222,0.80,USD,true,,",
      "Repair,,,10,USD,false,3,",
      "Too,many,cells,1,USD,true,1,1,extra",
    );
    const response = await preview(csv);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ object: "product_import_preview", rows: 6, created: 1, updated: 0 });
    expect(
      response.body.errors.map((error: { row: number; column: string | null; code: string }) => [
        error.row,
        error.column,
        error.code,
      ]),
    ).toEqual([
      [3, "name", "parameter_missing"],
      [3, "price", "invalid_amount"],
      [3, "currency", "invalid_currency"],
      [3, "track_stock", "parameter_invalid"],
      [3, "stock_qty", "invalid_quantity"],
      [4, "barcode", "barcode_taken"],
      [5, "barcode", "barcode_taken"],
      [6, "stock_qty", "stock_not_tracked"],
      [7, null, "parameter_invalid"],
    ]);
    expect(response.body.errors[5].message).toContain('"Milk"');
    expect(response.body.errors[6].message).toContain("row 2");
    expect(await productCount()).toBe(2);
  });

  test("refuses unknown and missing header columns on row 1", async () => {
    const response = await preview(lines("sku,colour", "A,red"));
    expect(response.body.errors).toEqual([
      expect.objectContaining({ row: 1, column: "colour", code: "parameter_unknown" }),
      expect.objectContaining({ row: 1, column: "name", code: "parameter_missing" }),
    ]);
  });

  test("a file over 2 MB is 413 body_too_large; bytes that are not UTF-8 are 400 invalid_encoding", async () => {
    const large = await preview(`name\n${"x".repeat(2_000_001)}\n`);
    expect([large.status, large.body.error.code]).toEqual([413, "body_too_large"]);
    const latin1 = await preview(Buffer.from("name\nCaf\xe9\n", "latin1"));
    expect([latin1.status, latin1.body.error.code]).toEqual([400, "invalid_encoding"]);
    expect(await productCount()).toBe(0);
  });

  test("a body that is not text/csv is refused", async () => {
    const response = await world.live.post("/v1/products/import/preview", { csv: "name\nBread" });
    expect(response.status).toBe(400);
    expect(await productCount()).toBe(0);
  });
});

describe("applying", () => {
  test("creates, updates by SKU, else by barcode, with opening stock journaled for new products", async () => {
    const soap = await createProduct(world.live, { name: "Soap", sku: "SOAP-1", price_cents: 250, stock_qty: 7 });
    const milk = await createProduct(world.live, { name: "Milk", barcode: "600111", price_cents: 100 });
    const csv = lines(
      "sku,barcode,name,category,price,stock_qty",
      "SOAP-1,,Soap bar,Home,2.75,99",
      ",600111,Milk 1L,Dairy,1.10,",
      "BRD,600222,Bread,Bakery,1.20,40",
    );
    const response = await apply(csv);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ object: "product_import", rows: 3, created: 1, updated: 2, unchanged: 0 });
    const soapNow = (await world.live.get(`/v1/products/${soap.id}`)).body;
    // On-hand of an existing product is the stock module's: stock_qty is read only for new products.
    expect(soapNow).toMatchObject({
      name: "Soap bar",
      category: "Home",
      price_cents: 275,
      stock_qty: 7,
      barcode: null,
    });
    expect((await world.live.get(`/v1/products/${milk.id}`)).body).toMatchObject({ name: "Milk 1L", price_cents: 110 });
    const bread = (await world.live.get("/v1/products", { barcode: "600222" })).body.data[0];
    expect(bread).toMatchObject({ name: "Bread", sku: "BRD", price_cents: 120, currency: "USD", stock_qty: 40 });
    expect(await movesOf(world.db, bread.id)).toEqual([
      expect.objectContaining({ kind: "count", qty_delta: 40, note: "Opening quantity", livemode: true }),
    ]);
    // The same file again changes nothing.
    expect((await apply(csv)).body).toMatchObject({ created: 0, updated: 0, unchanged: 3 });
  });

  test("is atomic: one bad row and nothing is written (400 import_invalid)", async () => {
    const response = await apply(lines("name,price", "Bread,1.20", "Milk,-3", "Eggs,2.00"));
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ type: "invalid_request", code: "import_invalid" });
    expect(response.body.error.message).toContain("row 3, price");
    expect(await productCount()).toBe(0);
  });

  test("is idempotent: the same Idempotency-Key replays the answer and writes nothing again", async () => {
    const key = randomUUID();
    const csv = lines("name,sku,stock_qty", "Bread,BRD,10", "Milk,MLK,5");
    const first = await apply(csv, key);
    const replay = await apply(csv, key);
    expect(replay.status).toBe(200);
    expect(replay.headers["idempotent-replayed"]).toBe("true");
    expect(replay.body).toEqual(first.body);
    expect(await productCount()).toBe(2);
    const other = await apply(lines("name,sku", "Eggs,EGG"), key);
    expect([other.status, other.body.error.code]).toEqual([409, "idempotency_mismatch"]);
  });

  test("2,000 rows apply in one request, well within the request timeout", async () => {
    const rows = Array.from(
      { length: 2000 },
      (_, index) =>
        `Product ${index},SKU-${index},6009${String(index).padStart(8, "0")},Cat ${index % 20},1.${index % 100},12`,
    );
    const csv = lines("name,sku,barcode,category,price,stock_qty", ...rows);
    const started = performance.now();
    const created = await apply(csv);
    const createMs = performance.now() - started;
    expect(created.body).toMatchObject({ rows: 2000, created: 2000 });
    const updated = await apply(csv.replaceAll(",12\r\n", ",13\r\n").replaceAll("Product ", "Item "));
    const totalMs = performance.now() - started;
    expect(updated.body).toMatchObject({ rows: 2000, updated: 2000 });
    process.stdout.write(
      `import of 2,000 rows: create ${Math.round(createMs)} ms, update ${Math.round(totalMs - createMs)} ms\n`,
    );
    expect(totalMs).toBeLessThan(10_000);
  });
});

describe("exporting", () => {
  test("every product, archived ones too, in columns that import back unchanged", async () => {
    await createProduct(world.live, { name: "=cmd|' /C calc'!A0", sku: "EVIL", price_cents: 5 });
    const bread = await createProduct(world.live, {
      name: "Bread",
      sku: "BRD",
      barcode: "600222",
      price_cents: 120,
      stock_qty: 4,
      tax_rate_bp: 1_550,
    });
    await createProduct(world.live, { name: "Delivery", price_cents: null, track_stock: false, currency: "ZWG" });
    await world.live.patch(`/v1/products/${bread.id}`, { active: false });
    const response = await request(world.app)
      .get("/v1/products.csv")
      .set("Authorization", `Bearer ${world.shop.liveKey}`);
    expect(response.status).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^text\/csv/);
    const records = parse(response.text, { bom: true, columns: true }) as Record<string, string>[];
    expect(records.map(({ id: _id, ...rest }) => rest)).toEqual([
      {
        name: "'=cmd|' /C calc'!A0",
        sku: "EVIL",
        barcode: "",
        category: "",
        price: "0.05",
        currency: "USD",
        track_stock: "true",
        stock_qty: "0",
        low_stock_at: "0",
        tax_rate: "",
        active: "true",
      },
      {
        name: "Bread",
        sku: "BRD",
        barcode: "600222",
        category: "",
        price: "1.20",
        currency: "USD",
        track_stock: "true",
        stock_qty: "4",
        low_stock_at: "0",
        tax_rate: "15.5",
        active: "false",
      },
      {
        name: "Delivery",
        sku: "",
        barcode: "",
        category: "",
        price: "",
        currency: "ZWG",
        track_stock: "false",
        stock_qty: "",
        low_stock_at: "0",
        tax_rate: "",
        active: "true",
      },
    ]);
    const roundTrip = await apply(response.text);
    // The untracked product has neither sku nor barcode: it cannot be matched and would be created again.
    expect(roundTrip.body).toMatchObject({ unchanged: 2, created: 1 });
  });
});

describe("access", () => {
  test("a test key may use it too (a till is refused: tests/platform/access-matrix.test.ts)", async () => {
    expect((await preview(lines("name", "Bread"), world.shop.testKey)).status).toBe(200);
  });
});
