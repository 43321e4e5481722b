import { createTestDatabase, type TestDatabase } from "../../../tests/support/database.ts";
import { newMerchant, type TestMerchant } from "../../../tests/support/factories.ts";
import { type Client, client, posSetup } from "../../../tests/support/pos.ts";
import { sql } from "../../platform/db/pool.ts";

let db: TestDatabase;
let shop: TestMerchant;
let live: Client;

const CATALOG_SIZE = 10_000;

beforeAll(async () => {
  db = await createTestDatabase();
  shop = await newMerchant(db.database);
  live = client(posSetup(db).app, shop.liveKey);
  // A shop's full catalog: every 40th product in "Drinks", every 50th archived.
  await db.database.query(sql.unsafe`
    INSERT INTO products (merchant_id, id, name, sku, barcode, category, price_cents, currency, track_stock, active)
    SELECT ${shop.id}, 'prod_' || lpad(g::text, 24, '0'), 'Product ' || lpad(g::text, 5, '0'), 'SKU-' || g,
      '6009' || lpad(g::text, 8, '0'), CASE WHEN g % 40 = 0 THEN 'Drinks' ELSE 'Groceries' END, 100 + g, 'USD',
      true, g % 50 <> 0
    FROM generate_series(1, ${CATALOG_SIZE}) g`);
});
afterAll(() => db.close());

type Page = {
  data: { id: string; name: string; category: string; active: boolean }[];
  has_more: boolean;
  next_cursor: string | null;
};

/** Every page of a list, following next_cursor until has_more is false. */
async function allPages(query: Record<string, string | number>) {
  const items: Page["data"] = [];
  let cursor: string | undefined;
  let pages = 0;
  for (;;) {
    const response = await live.get("/v1/products", { ...query, ...(cursor === undefined ? {} : { cursor }) });
    expect(response.status).toBe(200);
    const page = response.body as Page;
    items.push(...page.data);
    pages += 1;
    if (!page.has_more) {
      expect(page.next_cursor).toBeNull();
      return { items, pages };
    }
    cursor = page.next_cursor ?? undefined;
  }
}

test("pages through 10,000 products in name order, each once, with has_more and next_cursor", async () => {
  const { items, pages } = await allPages({ active: "all", limit: 500 });
  expect(pages).toBe(20);
  expect(items).toHaveLength(CATALOG_SIZE);
  expect(new Set(items.map((item) => item.id)).size).toBe(CATALOG_SIZE);
  const names = items.map((item) => item.name);
  expect(names).toEqual([...names].sort());
});

test("filters by category and active while paging (the default page size is 100)", async () => {
  const drinks = await allPages({ category: "Drinks" });
  // 250 drinks, of which those at multiples of 200 (every 40th and every 50th) are archived.
  expect(drinks.items).toHaveLength(250 - 50);
  expect(drinks.pages).toBe(2);
  expect(drinks.items.every((item) => item.category === "Drinks" && item.active)).toBe(true);
  const archived = await allPages({ active: "false", limit: 50 });
  expect(archived.items).toHaveLength(200);
  expect(archived.items.every((item) => !item.active)).toBe(true);
});

test("searches by a name, sku or barcode substring", async () => {
  const bySku = await live.get("/v1/products", { q: "SKU-9999" });
  expect(bySku.body.data.map((item: { name: string }) => item.name)).toEqual(["Product 09999"]);
  const byName = await allPages({ q: "Product 099", limit: 500 });
  // 09900 to 09999 less the two archived (09900, 09950).
  expect(byName.items).toHaveLength(98);
});
