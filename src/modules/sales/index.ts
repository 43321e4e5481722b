import type { Gateways } from "../../gateway/wallet-gateway.ts";
import type { ModuleFace } from "../../platform/module.ts";
import { receiptRoutes } from "./receipt-routes.ts";
import { saleRoutes } from "./routes.ts";

export { salePaymentHook } from "./service.ts";

/** Sales, returns and their public receipts (README.md); `salePaymentHook` is attached to payments by `src/wiring/payment-hooks.ts`. */
export const salesModule: ModuleFace<{ gateways: Gateways }> = {
  name: "sales",
  routes: ({ gateways }) => [...saleRoutes(gateways), ...receiptRoutes],
};
