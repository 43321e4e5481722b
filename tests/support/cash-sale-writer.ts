import { randomBytes, randomUUID } from "node:crypto";
import { z } from "zod";
import * as events from "../../src/modules/events/service.ts";
import type { CashSaleToWrite } from "../../src/modules/sales/cash-sale-writer.ts";
import { newReceiptToken } from "../../src/modules/sales/receipt-token.ts";
import type { SaleToInsert } from "../../src/modules/sales/ring-up-queries.ts";
import { saleCompletedData } from "../../src/modules/sales/sale-effects.ts";
import { sql } from "../../src/platform/db/pool.ts";
import { claimRequestOf, type ResponseToStore } from "../../src/platform/idempotency/service.ts";
import { newId } from "../../src/platform/ids.ts";
import { createProduct, movesOf } from "./pos.ts";
import type { salesTestWorld } from "./sales.ts";

export type Product = { id: string; name: string; price_cents: number };
type Line = { product: Product; qty: number } | { name: string; qty: number; unit_cents: number };

/**
 * What the cash sale writer's tests (`src/modules/sales/cash-sale-writer*.test.ts`) write and read in
 * their world: sales as the API would answer them before writing them, claimed keys, and the rows the
 * writer leaves. A container of small helpers over one world, not one function.
 */
export function cashSaleWriterFixtures(world: ReturnType<typeof salesTestWorld>) {
  /** A completed cash sale as the API would answer it before writing it. */
  function cashSale(options: {
    livemode?: boolean;
    lines: Line[];
    shift?: { id: string; till: string };
    clientSaleId?: string;
    note?: string;
  }): SaleToInsert {
    const createdAt = new Date();
    const items = options.lines.map((line) =>
      "product" in line
        ? {
            product_id: line.product.id,
            name: line.product.name,
            qty: line.qty,
            unit_cents: line.product.price_cents,
            line_total_cents: line.qty * line.product.price_cents,
          }
        : {
            product_id: null,
            name: line.name,
            qty: line.qty,
            unit_cents: line.unit_cents,
            line_total_cents: line.qty * line.unit_cents,
          },
    );
    return {
      merchant_id: world.shop.id,
      id: newId("sale"),
      livemode: options.livemode ?? true,
      status: "completed",
      tender: "cash",
      currency: "USD",
      total_cents: items.reduce((sum, item) => sum + item.line_total_cents, 0),
      items,
      discount_cents: 0,
      discount_reason: null,
      tax_cents: 0,
      taxes: [],
      cashier: "Tendai",
      note: options.note ?? null,
      payment_id: null,
      actor_type: "api_key",
      actor_id: world.shop.liveKeyId,
      client_sale_id: options.clientSaleId ?? null,
      client_request_fingerprint: options.clientSaleId === undefined ? null : randomBytes(32),
      taken_at: createdAt,
      till_id: options.shift?.till ?? null,
      shift_id: options.shift?.id ?? null,
      receipt_token: newReceiptToken(),
      created_at: createdAt,
      completed_at: createdAt,
      cancelled_at: null,
      tendered_cents: null,
    };
  }

  /** Claims an Idempotency-Key as an accepted request would, and the response its owner would store. */
  async function claimedResponse(sale: SaleToInsert): Promise<ResponseToStore> {
    const claim = claimRequestOf({ key: randomUUID(), method: "POST", path: "/v1/sales", body: {} }, 30_000);
    await world.db.database.query(sql.unsafe`
      INSERT INTO idempotency_keys (merchant_id, livemode, key, request_method, request_path, request_fingerprint, state,
        owner_token, locked_until)
      VALUES (${sale.merchant_id}, ${sale.livemode}, ${claim.key}, 'POST', '/v1/sales', ${sql.binary(claim.fingerprint)},
        'in_flight', ${claim.ownerToken}, now() + interval '30 seconds')`);
    return {
      merchantId: sale.merchant_id,
      livemode: sale.livemode,
      key: claim.key,
      ownerToken: claim.ownerToken,
      status: 201,
      body: JSON.stringify({ id: sale.id, object: "sale" }),
    };
  }

  /** What a request hands the writer: its sale, its answer to store and its `sale.completed`. */
  const toWrite = (sale: SaleToInsert, response: ResponseToStore | null): CashSaleToWrite => ({
    sale,
    response,
    event: events.prepareEvent({
      merchantId: sale.merchant_id,
      livemode: sale.livemode,
      type: "sale.completed",
      data: saleCompletedData(sale),
    }),
  });

  const ids = (sales: readonly SaleToInsert[]) =>
    sql.array(
      sales.map((sale) => sale.id),
      "text",
    );

  const salesWritten = (sales: readonly SaleToInsert[]) =>
    world.db.database.anyFirst(sql.type(z.object({ id: z.string() }))`
      SELECT id FROM sales WHERE id = ANY(${ids(sales)}) ORDER BY id`);

  /** The transactions that wrote these sales (their rows' xmin). */
  const transactionsOf = (sales: readonly SaleToInsert[]) =>
    world.db.database.oneFirst(sql.type(z.object({ count: z.number() }))`
      SELECT count(DISTINCT xmin::text)::int AS count FROM sales WHERE id = ANY(${ids(sales)})`);

  /** The `sale.completed` events of these sales, in the feed's order. */
  const completedEventsOf = (sales: readonly SaleToInsert[]) =>
    world.db.database.any(sql.type(
      z.object({ sale_id: z.string(), data: z.record(z.string(), z.unknown()), transaction_xid: z.string() }),
    )`
      SELECT data->>'sale_id' AS sale_id, data, transaction_xid::text AS transaction_xid FROM events
      WHERE type = 'sale.completed' AND data->>'sale_id' = ANY(${ids(sales)})
      ORDER BY transaction_xid, seq`);

  const cashMovesOf = (sales: readonly SaleToInsert[]) =>
    world.db.database.any(sql.type(z.object({ sale_id: z.string(), shift_id: z.string(), amount_cents: z.number() }))`
      SELECT sale_id, shift_id, amount_cents FROM shift_cash_moves WHERE sale_id = ANY(${ids(sales)}) ORDER BY sale_id`);

  const recordOf = (response: ResponseToStore) =>
    world.db.database.one(sql.type(z.object({ state: z.string(), response_body: z.string().nullable() }))`
      SELECT state, response_body FROM idempotency_keys
      WHERE merchant_id = ${response.merchantId} AND livemode = ${response.livemode} AND key = ${response.key}`);

  const saleMovesOf = async (productId: string) =>
    (await movesOf(world.db, productId)).filter((move) => move.kind === "sale");

  async function newProduct(body: Record<string, unknown>): Promise<Product> {
    const product = await createProduct(world.live, body);
    return { id: product.id, name: String(product.name), price_cents: Number(product.price_cents) };
  }

  async function openShift(till: string): Promise<{ id: string; till: string }> {
    const opened = await world.live.post("/v1/shifts", { till_id: till });
    expect(opened.status).toBe(201);
    return { id: opened.body.id, till };
  }

  return {
    cashSale,
    claimedResponse,
    toWrite,
    salesWritten,
    transactionsOf,
    completedEventsOf,
    cashMovesOf,
    recordOf,
    saleMovesOf,
    newProduct,
    openShift,
  };
}
