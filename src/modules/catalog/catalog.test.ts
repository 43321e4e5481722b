import { newMerchant } from "../../../tests/support/factories.ts";
import { client, createProduct, movesOf, onHandOf, posSetup, productsTestWorld } from "../../../tests/support/pos.ts";

const world = productsTestWorld();

describe("creating products", () => {
  test("returns every field with the defaults; the id is prod_", async () => {
    const response = await world.live.post("/v1/products", { name: "Cola 330ml" });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.stringMatching(/^prod_[0-9A-Za-z]{24}$/),
      object: "product",
      name: "Cola 330ml",
      sku: null,
      barcode: null,
      category: null,
      price_cents: null,
      currency: "USD",
      track_stock: true,
      stock_qty: 0,
      low_stock_at: 0,
      low_stock: true,
      tax_rate_bp: null,
      active: true,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const fetched = await world.live.get(`/v1/products/${response.body.id}`);
    expect(fetched.body).toEqual(response.body);
  });

  test("the opening stock_qty applies whichever key creates the product, journaled as a live opening count", async () => {
    for (const [api, keyId] of [
      [world.live, world.shop.liveKeyId],
      [world.testWorld, world.shop.testKeyId],
    ] as const) {
      const product = await createProduct(api, {
        name: "Bread",
        price_cents: 120,
        currency: "ZWG",
        barcode: `600${keyId}`,
        sku: "BRD-1",
        category: "Bakery",
        stock_qty: 40,
        low_stock_at: 5,
      });
      expect(product).toMatchObject({ stock_qty: 40, low_stock: false, currency: "ZWG", price_cents: 120 });
      expect(await onHandOf(world.db, product.id)).toBe(40);
      expect(await movesOf(world.db, product.id)).toEqual([
        expect.objectContaining({
          livemode: true,
          kind: "count",
          qty_delta: 40,
          stock_qty_after: 40,
          actor_id: keyId,
          note: "Opening quantity",
          sale_id: null,
        }),
      ]);
    }
  });

  test("untracked products show no on-hand, are never low, and refuse an opening quantity", async () => {
    const service = await createProduct(world.live, { name: "Delivery", price_cents: 500, track_stock: false });
    expect(service).toMatchObject({ track_stock: false, stock_qty: null, low_stock: false });
    expect(await movesOf(world.db, service.id)).toEqual([]);
    const refused = await world.live.post("/v1/products", { name: "Repair", track_stock: false, stock_qty: 3 });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ type: "invalid_request", code: "stock_not_tracked" });
  });

  test.each([
    ["no name", {}, "parameter_missing"],
    ["an empty name", { name: "  " }, "parameter_invalid"],
    ["a negative price", { name: "x", price_cents: -1 }, "invalid_amount"],
    ["a fractional price", { name: "x", price_cents: 1.5 }, "invalid_amount"],
    ["a price in a string", { name: "x", price_cents: "100" }, "invalid_amount"],
    ["an unknown currency", { name: "x", currency: "EUR" }, "invalid_currency"],
    ["a negative opening quantity", { name: "x", stock_qty: -4 }, "invalid_quantity"],
    ["a fractional opening quantity", { name: "x", stock_qty: 2.5 }, "invalid_quantity"],
    ["a negative threshold", { name: "x", low_stock_at: -1 }, "invalid_quantity"],
    ["an unknown field", { name: "x", colour: "red" }, "parameter_unknown"],
  ])("refuses %s with 400 and creates nothing", async (_, body, code) => {
    const response = await world.live.post("/v1/products", body);
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ type: "invalid_request", code });
    expect((await world.live.get("/v1/products", { active: "all" })).body.data).toEqual([]);
  });
});

describe("barcodes", () => {
  test("are unique per merchant (409 barcode_taken on create and patch), inactive products included; another merchant may reuse one", async () => {
    const first = await createProduct(world.live, { name: "Milk", barcode: "6001234567890" });
    const duplicate = await world.testWorld.post("/v1/products", { name: "Other milk", barcode: "6001234567890" });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.error).toMatchObject({ type: "invalid_request", code: "barcode_taken" });

    const second = await createProduct(world.live, { name: "Juice", barcode: "6009999999999" });
    const patched = await world.live.patch(`/v1/products/${second.id}`, { barcode: "6001234567890" });
    expect(patched.status).toBe(409);
    expect(patched.body.error.code).toBe("barcode_taken");

    await world.live.patch(`/v1/products/${first.id}`, { active: false });
    expect((await world.live.post("/v1/products", { name: "Milk again", barcode: "6001234567890" })).status).toBe(409);

    // Many products may have no barcode.
    await createProduct(world.live, { name: "Loose sweets" });
    await createProduct(world.live, { name: "Loose nuts" });

    const other = await newMerchant(world.db.database);
    const otherApp = client(posSetup(world.db).app, other.liveKey);
    const reused = await otherApp.post("/v1/products", { name: "Their milk", barcode: "6001234567890" });
    expect(reused.status).toBe(201);
    // The scanner lookup finds each merchant's own product.
    expect((await otherApp.get("/v1/products", { barcode: "6001234567890" })).body.data.map(idOf)).toEqual([
      reused.body.id,
    ]);
  });
});

const idOf = (product: { id: string }) => product.id;

describe("reading and changing products", () => {
  test("PATCH changes catalog fields, null clears them, on-hand is not a catalog field", async () => {
    const product = await createProduct(world.live, { name: "Soap", price_cents: 250, sku: "S-1", category: "Home" });
    const changes = {
      name: "Soap bar",
      price_cents: null,
      currency: "ZWG",
      sku: null,
      category: "Bathroom",
      low_stock_at: 3,
      track_stock: false,
    };
    const patched = await world.live.patch(`/v1/products/${product.id}`, changes);
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ ...changes, stock_qty: null });
    expect(Date.parse(patched.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(product.updated_at as string));
    const stockPatch = await world.live.patch(`/v1/products/${product.id}`, { stock_qty: 10 });
    expect(stockPatch.status).toBe(400);
    expect(stockPatch.body.error.code).toBe("parameter_unknown");
    const badPrice = await world.live.patch(`/v1/products/${product.id}`, { price_cents: -5 });
    expect(badPrice.body.error.code).toBe("invalid_amount");
  });

  test("unknown ids and other merchants' products are 404 resource_missing for GET and PATCH", async () => {
    const product = await createProduct(world.live, { name: "Secret recipe" });
    const other = await newMerchant(world.db.database);
    const stranger = client(posSetup(world.db).app, other.liveKey);
    for (const response of [
      await world.live.get("/v1/products/prod_doesnotexist"),
      await world.live.patch("/v1/products/prod_doesnotexist", { name: "x" }),
      await stranger.get(`/v1/products/${product.id}`),
      await stranger.patch(`/v1/products/${product.id}`, { name: "Stolen" }),
    ]) {
      expect(response.status).toBe(404);
      expect(response.body.error).toMatchObject({ type: "invalid_request", code: "resource_missing" });
    }
    expect((await world.live.get(`/v1/products/${product.id}`)).body.name).toBe("Secret recipe");
    expect((await stranger.get("/v1/products", { active: "all" })).body.data).toEqual([]);
  });

  test("the catalog and its on-hand are shared by the test and live worlds", async () => {
    const product = await createProduct(world.testWorld, { name: "Shared", stock_qty: 7 });
    expect((await world.live.get(`/v1/products/${product.id}`)).body).toMatchObject({ name: "Shared", stock_qty: 7 });
    await world.live.patch(`/v1/products/${product.id}`, { name: "Renamed live" });
    expect((await world.testWorld.get(`/v1/products/${product.id}`)).body.name).toBe("Renamed live");
  });

  test("soft delete hides a product from the default list and from sales; restore brings it back; history stays", async () => {
    const product = await createProduct(world.live, { name: "Seasonal", price_cents: 100, stock_qty: 10 });
    const sold = await world.live.post("/v1/sales", { tender: "cash", items: [{ product_id: product.id, qty: 2 }] });
    expect(sold.status).toBe(201);
    const deleted = await world.live.patch(`/v1/products/${product.id}`, { active: false });
    expect(deleted.body).toMatchObject({ active: false, stock_qty: 8 });
    expect((await world.live.get("/v1/products")).body.data).toEqual([]);
    expect((await world.live.get("/v1/products", { active: "false" })).body.data.map(idOf)).toEqual([product.id]);
    expect((await world.live.get("/v1/products", { active: "all" })).body.data.map(idOf)).toEqual([product.id]);
    expect((await world.live.get(`/v1/products/${product.id}`)).status).toBe(200);
    const refused = await world.live.post("/v1/sales", { tender: "cash", items: [{ product_id: product.id, qty: 1 }] });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe("product_inactive");
    // The past sale and the journal are untouched.
    expect((await world.live.get(`/v1/sales/${sold.body.id}`)).body).toMatchObject({
      status: "completed",
      items: [{ product_id: product.id, name: "Seasonal", qty: 2, unit_cents: 100, line_total_cents: 200 }],
    });
    expect((await movesOf(world.db, product.id)).map((move) => move.kind)).toEqual(["count", "sale"]);

    const restored = await world.live.patch(`/v1/products/${product.id}`, { active: true });
    expect(restored.body.active).toBe(true);
    expect((await world.live.get("/v1/products")).body.data.map(idOf)).toEqual([product.id]);
    expect(
      (await world.live.post("/v1/sales", { tender: "cash", items: [{ product_id: product.id, qty: 1 }] })).body.status,
    ).toBe("completed");
    expect(await onHandOf(world.db, product.id)).toBe(7);
  });

  test("low_stock: tracked and on-hand at or below the threshold, negative on-hand included", async () => {
    const product = await createProduct(world.live, { name: "Eggs", price_cents: 30, stock_qty: 6, low_stock_at: 5 });
    expect(product.low_stock).toBe(false);
    await world.live.post("/v1/sales", { tender: "cash", items: [{ product_id: product.id, qty: 1 }] });
    expect((await world.live.get(`/v1/products/${product.id}`)).body).toMatchObject({ stock_qty: 5, low_stock: true });
    await world.live.post("/v1/sales", { tender: "cash", items: [{ product_id: product.id, qty: 9 }] });
    expect((await world.live.get(`/v1/products/${product.id}`)).body).toMatchObject({ stock_qty: -4, low_stock: true });
  });
});

describe("listing and searching", () => {
  test("q matches a substring of the name, sku or barcode, case-insensitively; wildcards are literal", async () => {
    const cola = await createProduct(world.live, { name: "Coca-Cola 330ml", sku: "BEV-001", barcode: "5449000000996" });
    const fanta = await createProduct(world.live, { name: "Fanta Orange", sku: "BEV-002", barcode: "5449000011527" });
    const percent = await createProduct(world.live, { name: "100% Juice", sku: "JU_1" });
    const search = async (q: string) => (await world.live.get("/v1/products", { q })).body.data.map(idOf);
    expect(await search("cola")).toEqual([cola.id]);
    expect(await search("COLA 33")).toEqual([cola.id]);
    expect(await search("bev-00")).toEqual([cola.id, fanta.id]);
    expect(await search("0011527")).toEqual([fanta.id]);
    expect(await search("%")).toEqual([percent.id]);
    expect(await search("u_1")).toEqual([percent.id]);
    expect(await search("_")).toEqual([percent.id]);
    expect(await search("zzz")).toEqual([]);
  });

  test("barcode is an exact match, category filters, and the active filter defaults to true", async () => {
    const a = await createProduct(world.live, { name: "A", barcode: "111", category: "Drinks" });
    const b = await createProduct(world.live, { name: "B", barcode: "1111", category: "Drinks" });
    const c = await createProduct(world.live, { name: "C", category: "Food" });
    await world.live.patch(`/v1/products/${b.id}`, { active: false });
    expect((await world.live.get("/v1/products", { barcode: "111" })).body.data.map(idOf)).toEqual([a.id]);
    expect((await world.live.get("/v1/products", { barcode: "1111" })).body.data).toEqual([]);
    expect((await world.live.get("/v1/products", { barcode: "1111", active: "all" })).body.data.map(idOf)).toEqual([
      b.id,
    ]);
    expect((await world.live.get("/v1/products", { category: "Drinks" })).body.data.map(idOf)).toEqual([a.id]);
    expect((await world.live.get("/v1/products", { category: "Food" })).body.data.map(idOf)).toEqual([c.id]);
    expect((await world.live.get("/v1/products", { active: "maybe" })).body.error.code).toBe("parameter_invalid");
  });

  test("pages in name order with has_more and next_cursor; limit at most 500; a bad cursor is a 400", async () => {
    const names = ["delta", "alpha", "echo", "charlie", "bravo", "alpha"];
    const created = [];
    for (const name of names) {
      created.push(await createProduct(world.live, { name }));
    }
    const expected = created
      .map((product) => ({ name: product.name as string, id: product.id }))
      .sort((left, right) =>
        left.name === right.name ? (left.id < right.id ? -1 : 1) : left.name < right.name ? -1 : 1,
      )
      .map(idOf);
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 3; page += 1) {
      const response = await world.live.get("/v1/products", { limit: 2, ...(cursor === undefined ? {} : { cursor }) });
      expect(response.status).toBe(200);
      seen.push(...response.body.data.map(idOf));
      expect(response.body.has_more).toBe(page < 2);
      cursor = response.body.next_cursor ?? undefined;
    }
    expect(seen).toEqual(expected);
    expect((await world.live.get("/v1/products", { limit: 500 })).status).toBe(200);
    expect((await world.live.get("/v1/products", { limit: 501 })).body.error.code).toBe("parameter_invalid");
    expect((await world.live.get("/v1/products", { cursor: "not-a-cursor" })).body.error.code).toBe(
      "parameter_invalid",
    );
  });
});

describe("the change feed (updated_since)", () => {
  test("lists products changed since an instant in (updated_at, id) order, deactivated ones with active=all, across pages", async () => {
    const { sql } = await import("../../platform/db/pool.ts");
    const names = ["Milk", "Bread", "Eggs", "Salt"];
    const created = [];
    for (const name of names) {
      created.push(await createProduct(world.live, { name, price_cents: 100 }));
    }
    // Timestamps moved on the database, not slept through: two old products, two recent.
    const [milk, bread, eggs, salt] = created.map((product) => product.id) as [string, string, string, string];
    await world.db.database.query(sql.unsafe`
      UPDATE products SET updated_at = now() - interval '2 hours' WHERE id IN (${milk}, ${bread})`);
    const since = new Date(Date.now() - 3600_000).toISOString();
    await world.live.patch(`/v1/products/${milk}`, { price_cents: 120 }).expect(200);
    await world.live.patch(`/v1/products/${bread}`, { active: false }).expect(200);

    const first = await world.live.get("/v1/products", { updated_since: since, active: "all", limit: 2 }).expect(200);
    const second = await world.live
      .get("/v1/products", { updated_since: since, active: "all", limit: 2, cursor: first.body.next_cursor })
      .expect(200);
    expect(first.body.has_more).toBe(true);
    expect(second.body.has_more).toBe(false);
    const listed = [...first.body.data, ...second.body.data];
    expect(listed.map((product: { id: string }) => product.id).sort()).toEqual([milk, bread, eggs, salt].sort());
    const stamps = listed.map((product: { updated_at: string }) => product.updated_at);
    expect(stamps).toEqual([...stamps].sort());
    expect(listed.find((product: { id: string }) => product.id === bread)).toMatchObject({ active: false });
    expect(listed.find((product: { id: string }) => product.id === milk)).toMatchObject({ price_cents: 120 });

    // Active products only by default; stock moves are not catalog changes.
    const later = new Date().toISOString();
    await world.live.post("/v1/stock/receive", { product_id: eggs, qty: 3 }).expect(201);
    const none = await world.live.get("/v1/products", { updated_since: later }).expect(200);
    expect(none.body.data).toEqual([]);
    const bad = await world.live.get("/v1/products", { updated_since: since, q: "Milk" });
    expect([bad.status, bad.body.error.code]).toEqual([400, "parameter_invalid"]);
  });
});
