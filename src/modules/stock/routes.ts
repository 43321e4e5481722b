import { errorEnvelopeSchema } from "../../platform/http/openapi.ts";
import { type AnyRoute, defineRoute } from "../../platform/http/route.ts";
import type { Tenant } from "../../platform/tenant.ts";
import { presentProduct } from "../catalog/index.ts";
import {
  adjustBody,
  countBody,
  listMovesQuery,
  receiveBody,
  type StockMoveRow,
  stockMovePageSchema,
  stockOperationSchema,
  stockReportQuery,
  stockReportSchema,
} from "./schemas.ts";
import * as stock from "./service.ts";

export function presentMove(move: StockMoveRow) {
  return {
    id: move.id,
    object: "stock_move" as const,
    livemode: move.livemode,
    product_id: move.product_id,
    kind: move.kind,
    qty_delta: move.qty_delta,
    stock_qty_after: move.stock_qty_after,
    note: move.note,
    actor: { type: move.actor_type, id: move.actor_id },
    sale_id: move.sale_id,
    created_at: move.created_at.toISOString(),
  };
}

const worldOf = (tenant: Tenant) => ({
  merchantId: tenant.merchantId,
  livemode: tenant.livemode,
  actor: tenant.actor,
});

const operationResponses = {
  201: { description: "The journaled move and the product as it now stands.", schema: stockOperationSchema },
  404: { description: "`product_not_found`.", schema: errorEnvelopeSchema },
};

/**
 * The three stock operations (owner or cashier; idempotent when the client sends a key) answer alike:
 * the operation applied to the body's product in the route's transaction (which also stores the
 * idempotent answer), then the move and the product as it now stands.
 */
function operationRoute(
  kind: "receive" | "adjust" | "count",
  route: {
    path: string;
    operationId: string;
    summary: string;
    body: typeof receiveBody | typeof adjustBody | typeof countBody;
  },
): AnyRoute {
  return defineRoute({
    method: "post",
    path: route.path,
    operationId: route.operationId,
    summary: route.summary,
    tags: ["Stock"],
    auth: { keys: "both", owner: "session", till: "cashier" },
    idempotent: "optional",
    request: { body: route.body },
    responses: operationResponses,
    handler: ({ body, tenant, transaction }) =>
      transaction(async (tx) => {
        const result = await stock.applyOperation(tx, worldOf(tenant), {
          productId: body.product_id,
          note: body.note,
          operation: { kind, qty: body.qty },
        });
        return { status: 201, body: { move: presentMove(result.move), product: presentProduct(result.product) } };
      }),
  });
}

export const stockRoutes: AnyRoute[] = [
  operationRoute("receive", {
    path: "/v1/stock/receive",
    operationId: "receiveStock",
    summary: "Add received units to on-hand (live keys; test keys only journal) as a receive move",
    body: receiveBody,
  }),
  operationRoute("adjust", {
    path: "/v1/stock/adjust",
    operationId: "adjustStock",
    summary: "Change on-hand by a signed, non-zero delta (live keys; test keys only journal) as an adjust move",
    body: adjustBody,
  }),
  operationRoute("count", {
    path: "/v1/stock/count",
    operationId: "countStock",
    summary: "Record a stocktake: the delta to the counted quantity is computed under a lock and journaled",
    body: countBody,
  }),
  defineRoute({
    method: "get",
    path: "/v1/stock/moves",
    operationId: "listStockMoves",
    summary: "The stock journal of the key's world, newest first",
    tags: ["Stock"],
    auth: { keys: "both", owner: "session", till: "till" },
    request: { query: listMovesQuery },
    responses: { 200: { description: "A page of stock moves.", schema: stockMovePageSchema } },
    handler: async ({ query, tenant, database }) => {
      const page = await stock.listMoves(database, {
        merchantId: tenant.merchantId,
        livemode: tenant.livemode,
        productId: query.product_id,
        kind: query.kind,
        limit: query.limit,
        cursor: query.cursor,
      });
      return { body: { ...page, data: page.data.map(presentMove) } };
    },
  }),
  defineRoute({
    method: "get",
    path: "/v1/stock/report",
    operationId: "getStockReport",
    summary: "On-hand and valuation at current prices per product, totals per currency, the low-stock list",
    tags: ["Stock"],
    auth: { keys: "both", owner: "session", till: "till" },
    request: { query: stockReportQuery },
    responses: { 200: { description: "The stock report.", schema: stockReportSchema } },
    handler: async ({ query, tenant, database }) => ({
      body: await stock.stockReport(database, {
        merchantId: tenant.merchantId,
        limit: query.limit,
        cursor: query.cursor,
      }),
    }),
  }),
];
