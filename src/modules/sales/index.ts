import type { ModuleFace } from "../../platform/module.ts";
import { breakdownRoutes } from "./breakdown-routes.ts";
import { receiptRoutes } from "./receipt-routes.ts";
import { saleRoutes } from "./routes.ts";
import type { SaleWiring } from "./writers.ts";

export { salePaymentHook } from "./payment-end.ts";
export { type SaleWiring, saleWritersPerDatabase } from "./writers.ts";

/**
 * Sales, returns and their public receipts (README.md). `salePaymentHook` is what a payment's end
 * does to its sale: `src/wiring/modules.ts` lists it among the payment hooks it gives every module
 * that ends payments (this one too: reading a pending wallet sale refreshes its payment).
 * `saleWritersPerDatabase` is the ring-up's hot path (batching product reader and sale writers), which
 * the composition builds once (`SaleWiring`).
 */
export const salesModule: ModuleFace<SaleWiring> = {
  name: "sales",
  routes: (wiring) => [...breakdownRoutes, ...saleRoutes(wiring), ...receiptRoutes],
};
