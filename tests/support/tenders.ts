import request from "supertest";
import { type Client, createProduct } from "./pos.ts";
import type { salesTestWorld } from "./sales.ts";

/** The till whose drawer split-tender tests use. */
export const SPLIT_TILL = "till-split";

type Tender = { kind: "cash" | "wallet"; currency: string; amount_cents: number };
export const cashTender = (currency: string, amountCents: number): Tender => ({
  kind: "cash",
  currency,
  amount_cents: amountCents,
});
export const walletTender = (currency: string, amountCents: number): Tender => ({
  kind: "wallet",
  currency,
  amount_cents: amountCents,
});

/** POST /v1/sales: `qty` of `product` at `SPLIT_TILL` paid by `tenders`; `extra` adds to the body or overrides it. */
export const sellSplit = (
  api: Client,
  product: { id: string },
  qty: number,
  tenders: readonly Tender[],
  extra: Record<string, unknown> = {},
) => api.post("/v1/sales", { items: [{ product_id: product.id, qty }], till_id: SPLIT_TILL, tenders, ...extra });

/**
 * What the split-tender tests share over a `salesTestWorld`: a shop with a USD → ZWG rate of 26.5, an
 * open shift on `SPLIT_TILL` and a product of USD 10.00 (`openShop`); a drawer's expected cash per
 * currency (`drawerOf`); a wallet tender's payment paid or ended at the checkout (`pay`).
 */
export function tenderHelpers(world: ReturnType<typeof salesTestWorld>) {
  return {
    async openShop(api: Client, options: { till?: string } = {}) {
      const rate = await api.post("/v1/exchange_rates", { base: "USD", other: "ZWG", rate: "26.5" });
      const shift = await api.post("/v1/shifts", { till_id: options.till ?? SPLIT_TILL });
      if (rate.status !== 201 || shift.status !== 201) {
        throw new Error(`shop not opened: ${rate.status} ${shift.status}`);
      }
      const product = await createProduct(world.live, { name: "Rice", price_cents: 1_000, stock_qty: 50 });
      return { rateId: rate.body.id as string, shiftId: shift.body.id as string, product };
    },
    async drawerOf(api: Client, shiftId: string): Promise<Record<string, number>> {
      const shift = (await api.get(`/v1/shifts/${shiftId}`)).body;
      return Object.fromEntries(
        shift.cash.map((cash: { currency: string; expected_cents: number }) => [cash.currency, cash.expected_cents]),
      );
    },
    pay: (paymentId: string, outcome?: string) =>
      request(world.setup.app)
        .post(`/checkout/${paymentId}/mockpay`)
        .send(outcome === undefined ? {} : { outcome }),
  };
}
