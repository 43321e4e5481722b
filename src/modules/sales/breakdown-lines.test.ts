import fc from "fast-check";
import { z } from "zod";
import { apiDiscountArb, setTaxMode } from "../../../tests/support/discounts.ts";
import { newMerchant } from "../../../tests/support/factories.ts";
import { type Client, client, createProduct } from "../../../tests/support/pos.ts";
import { salesTestWorld } from "../../../tests/support/sales.ts";
import type { TaxMode } from "../../kernel/basket.ts";
import { taxPerLine } from "../../kernel/refunds.ts";
import { sql } from "../../platform/db/pool.ts";
import { type BreakdownRow, breakdownDimensions } from "./breakdown-schemas.ts";

/**
 * Issue 47 point 2: the item and category rows carry each line's share of its sale's cart discount,
 * tax and refunds, so every dimension's rows add up to the period's totals (gross, discounts, refunds,
 * tax, net), to the cent.
 */
const world = salesTestWorld();
const SEED = 47_2031;

type Totals = Omit<BreakdownRow, "key" | "label">;

/**
 * A period around now given as instants, so a run across the merchant's midnight still sees its sales;
 * in dollars only (the totals list every currency otherwise).
 */
const period = (startedMs: number) => ({
  from: new Date(startedMs - 3_600_000).toISOString(),
  to: new Date(Date.now() + 3_600_000).toISOString(),
  currency: "USD",
});

/** Each dimension's totals without the count (units by item and category, sales elsewhere). */
async function totalsByDimension(api: Client, query: Record<string, string>) {
  const answers = await Promise.all(
    breakdownDimensions.map(async (dimension) => {
      const answer = await api.get(`/v1/sales/reports/${dimension}`, query);
      expect(answer.status).toBe(200);
      return [dimension, answer.body.totals.map(({ count: _count, ...figures }: Totals) => figures)] as const;
    }),
  );
  return Object.fromEntries(answers);
}

test("a cart discount and tax added on top are spread over the lines; a returned line's refund is its paid share", async () => {
  const started = Date.now();
  await setTaxMode(world.db, world.shop.id, "exclusive");
  const cola = await createProduct(world.live, {
    name: "Cola",
    price_cents: 300,
    category: "Drinks",
    tax_rate_bp: 1500,
  });
  const bread = await createProduct(world.live, { name: "Bread", price_cents: 100, tax_rate_bp: 1500 });
  const sale = await world.live.post("/v1/sales", {
    tender: "cash",
    items: [
      { product_id: cola.id, qty: 1 },
      { product_id: bread.id, qty: 1 },
    ],
    discount: { type: "amount", amount_cents: 100 },
  });
  // Cart shares 75 and 25 (by 300 and 100); nets 225 and 75; 15 % of 300 is 45, shared 33.75 and
  // 11.25: floors 33 and 11, the cent left to the larger remainder (Cola). Total 345, gross 445.
  expect(sale.body).toMatchObject({ total_cents: 345, discount_cents: 100, tax_cents: 45 });
  const returned = await world.live.post(`/v1/sales/${sale.body.id}/returns`, { items: [{ line: 0, qty: 1 }] });
  expect(returned.body.sale_return.refund_cents).toBe(259);
  const figures = (gross: number, discount: number, tax: number, refund: number) => ({
    currency: "USD",
    count: 1,
    gross_cents: gross,
    discount_cents: discount,
    refund_cents: refund,
    tax_cents: tax,
    net_cents: gross - discount - refund,
  });
  const items = (await world.live.get("/v1/sales/reports/item", period(started))).body;
  expect(items.rows).toEqual([
    { key: bread.id, label: "Bread", ...figures(111, 25, 11, 0) },
    { key: cola.id, label: "Cola", ...figures(334, 75, 34, 259) },
  ]);
  const categories = (await world.live.get("/v1/sales/reports/category", period(started))).body;
  expect(categories.rows).toEqual([
    { key: "Drinks", label: "Drinks", ...figures(334, 75, 34, 259) },
    { key: null, label: "No category", ...figures(111, 25, 11, 0) },
  ]);
  const days = (await world.live.get("/v1/sales/reports/day", period(started))).body;
  expect(days.totals).toEqual([{ ...figures(445, 100, 45, 259), count: 1 }]);
  expect(items.totals).toEqual([{ ...figures(445, 100, 45, 259), count: 2 }]);
});

const lineArb = fc.record({
  product: fc.integer({ min: 0, max: 2 }),
  qty: fc.integer({ min: 1, max: 5 }),
  discount: apiDiscountArb,
});
const shopArb = fc.record({
  taxMode: fc.constantFrom<TaxMode>("inclusive", "exclusive"),
  products: fc.array(
    fc.record({ priceCents: fc.integer({ min: 1, max: 30_000 }), rateBp: fc.constantFrom(0, 500, 1_500, 1_550) }),
    { minLength: 3, maxLength: 3 },
  ),
  sales: fc.array(
    fc.record({
      lines: fc.array(lineArb, { minLength: 1, maxLength: 4 }),
      cartDiscount: apiDiscountArb,
      returnUnits: fc.integer({ min: 0, max: 5 }),
    }),
    { minLength: 1, maxLength: 3 },
  ),
});

const storedLine = z.object({
  product_id: z.string().nullable(),
  qty: z.number(),
  line_total_cents: z.number(),
  net_cents: z.number().optional(),
  tax_rate_bp: z.number().optional(),
});
const storedSale = z.object({
  items: z.array(storedLine),
  taxes: z.array(z.object({ rate_bp: z.number(), tax_cents: z.number() })),
  total_cents: z.number(),
  discount_cents: z.number(),
  tax_cents: z.number(),
});

test("for random baskets, cart discounts, tax modes and returns, every dimension's rows sum to the period's totals", async () => {
  await fc.assert(
    fc.asyncProperty(shopArb, async (shop) => {
      const started = Date.now();
      const merchant = await newMerchant(world.db.database, { fee_bps: 150, fee_fixed_cents: 0 });
      const api = client(world.setup.app, merchant.liveKey);
      await setTaxMode(world.db, merchant.id, shop.taxMode);
      const products = await Promise.all(
        shop.products.map((product, index) =>
          createProduct(api, {
            name: `Product ${index}`,
            price_cents: product.priceCents,
            tax_rate_bp: product.rateBp,
            ...(index === 2 ? {} : { category: `Category ${index}` }),
          }),
        ),
      );
      for (const sale of shop.sales) {
        const made = await api.post("/v1/sales", {
          tender: "cash",
          items: sale.lines.map((line) => ({
            product_id: products[line.product]?.id,
            qty: line.qty,
            ...(line.discount === undefined ? {} : { discount: line.discount }),
          })),
          ...(sale.cartDiscount === undefined ? {} : { discount: sale.cartDiscount }),
        });
        expect(made.status).toBe(201);
        const units = Math.min(sale.returnUnits, sale.lines[0]?.qty ?? 0);
        if (units > 0) {
          const returned = await api.post(`/v1/sales/${made.body.id}/returns`, { items: [{ line: 0, qty: units }] });
          expect(returned.status).toBe(201);
        }
      }
      const byDimension = await totalsByDimension(api, period(started));
      const truth = await world.db.database.one(sql.type(
        z.object({ gross: z.number(), discount: z.number(), tax: z.number(), refund: z.number() }),
      )`
        SELECT sum(total_cents + discount_cents)::int8 AS gross, sum(discount_cents)::int8 AS discount,
          sum(tax_cents)::int8 AS tax,
          (SELECT coalesce(sum(refund_cents), 0)::int8 FROM sale_returns WHERE merchant_id = ${merchant.id}) AS refund
        FROM sales WHERE merchant_id = ${merchant.id} AND status = 'completed'`);
      const expected = {
        currency: "USD",
        gross_cents: truth.gross,
        discount_cents: truth.discount,
        refund_cents: truth.refund,
        tax_cents: truth.tax,
        net_cents: truth.gross - truth.discount - truth.refund,
      };
      for (const dimension of breakdownDimensions) {
        expect({ dimension, totals: byDimension[dimension] }).toEqual({ dimension, totals: [expected] });
      }
      // The SQL's tax shares are the kernel's: each product's tax is the sum of its lines' taxPerLine.
      const sales = await world.db.database.any(sql.type(storedSale)`
        SELECT items, taxes, total_cents, discount_cents, tax_cents FROM sales WHERE merchant_id = ${merchant.id}`);
      const taxOfProduct = new Map<string, number>();
      for (const sale of sales) {
        const shares = taxPerLine(sale);
        sale.items.forEach((item, index) => {
          const key = item.product_id ?? "";
          taxOfProduct.set(key, (taxOfProduct.get(key) ?? 0) + (shares[index] ?? 0));
        });
      }
      const items = (await api.get("/v1/sales/reports/item", period(started))).body.rows as BreakdownRow[];
      expect(Object.fromEntries(items.map((row) => [row.key, row.tax_cents]))).toEqual(
        Object.fromEntries(taxOfProduct),
      );
    }),
    { seed: SEED, numRuns: 25 },
  );
});
