import { api } from "../session.ts";
import { type BodyOf, type CallOptions, call, type QueryOf, type Schema } from "./call.ts";

/** Sales rung up at a till or by an integration, their returns and the day's report (docs/shop.md). */
export type Sale = Schema<"Sale">;
export type SaleLine = Sale["items"][number];
export type SaleReturn = Schema<"SaleReturn">;
export type SalesReport = Schema<"SalesReport">;
export type NewSaleReturn = BodyOf<"/v1/sales/{id}/returns", "post">;

export const getSale = (id: string, query: QueryOf<"/v1/sales/{id}", "get"> = {}, options?: CallOptions) =>
  call("get", "/v1/sales/{id}", { ...options, path: { id }, query });

export const listSales = (query: QueryOf<"/v1/sales", "get">, options?: CallOptions) =>
  call("get", "/v1/sales", { ...options, query });

export const salesReport = (query: QueryOf<"/v1/sales/report", "get">) => call("get", "/v1/sales/report", { query });

/** Money: `options.idempotencyKey` is the action's key (web/lib/use-action.ts). */
export const createSale = (body: NewSale, options: CallOptions) =>
  // HAND-TYPED TENDER (below): the cast goes with that block.
  call("post", "/v1/sales", { ...options, body: body as BodyOf<"/v1/sales", "post"> });

export const cancelSale = (id: string, options?: CallOptions) =>
  call("post", "/v1/sales/{id}/cancel", { ...options, path: { id }, body: {} });

/** Money: `options.idempotencyKey` is the action's key. */
export const returnSale = (id: string, body: NewSaleReturn, options: CallOptions) =>
  call("post", "/v1/sales/{id}/returns", { ...options, path: { id }, body });

// ─── HAND-TYPED TENDER: split and two-currency tender (issue 47 points 5 and 6) ───────────────────────
// Typed by hand from the tender contract while its API is built on another branch; docs/openapi.json
// does not have these fields yet. When it does (`npm run openapi:write`): `NewSale` becomes the generated
// body again, `TenderSale` is `Sale`, `NewSaleTender` the body of POST /v1/sales/{id}/tenders,
// `addSaleTender` a `call`, and this block and `asTenderSale` go.

type Money = Sale["currency"];
export type NewTender = { kind: "cash" | "wallet"; currency: Money; amount_cents: number };
/** A sale paid by `tenders` (in the order taken) instead of `tender`/`tendered_cents`. */
export type NewSplitSale = Omit<BodyOf<"/v1/sales", "post">, "tender" | "tendered_cents"> & {
  tenders: NewTender[];
  change_currency?: Money;
  /** The rate the cashier used: required when a tender or the change is in another currency. */
  exchange_rate_id?: string;
};
export type NewSale = BodyOf<"/v1/sales", "post"> | NewSplitSale;
export type NewSaleTender = NewTender & { exchange_rate_id?: string; change_currency?: Money };
export type SaleTender = NewTender & {
  /** What it counts for in the basket's currency, and that less the change it gave back. */
  credit_cents: number;
  contributed_cents: number;
  exchange_rate_id: string | null;
  other_per_base_micros: number | null;
  status: "paid" | "pending" | "failed";
  payment_id: string | null;
};
/** Every sale as the contract represents it (old single-tender sales with one synthesized tender). */
export type TenderSale = Omit<Sale, "tender"> & {
  tender: Sale["tender"] | "split";
  tenders: SaleTender[];
  paid_cents: number;
  due_cents: number;
  change: { currency: Money; amount_cents: number } | null;
};
/** A sale answer read with the contract's fields (the API of this tree does not send them yet). */
export const asTenderSale = (sale: Sale): TenderSale => sale as unknown as TenderSale;

/** Money: adds a tender to a pending split sale; answers the sale (completed when it is covered). */
export const addSaleTender = (id: string, body: NewSaleTender, options: CallOptions) =>
  api.request<TenderSale>("POST", `/v1/sales/${encodeURIComponent(id)}/tenders`, { ...options, body });
