import type { ModuleFace } from "../../platform/module.ts";
import type { PaymentWiring } from "../payments/index.ts";
import { receiptRoutes } from "./receipt-routes.ts";
import { saleRoutes } from "./routes.ts";

export { salePaymentHook } from "./service.ts";

/**
 * Sales, returns and their public receipts (README.md). `salePaymentHook` is what a payment's end
 * does to its sale: `src/wiring/modules.ts` lists it among the payment hooks it gives every module
 * that ends payments (this one too: reading a pending wallet sale refreshes its payment).
 */
export const salesModule: ModuleFace<PaymentWiring> = {
  name: "sales",
  routes: (wiring) => [...saleRoutes(wiring), ...receiptRoutes],
};
