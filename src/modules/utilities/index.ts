import type { WalletGateways } from "../../gateway/wallet-gateway.ts";
import type { ModuleFace } from "../../platform/module.ts";
import { utilityRoutes } from "./routes.ts";
import { reconcileUtilityPaymentTask } from "./tasks/reconcile-utility-payment.ts";

/** Utility payments (README.md), instant transfers of `../money-out`. */
export const utilitiesModule: ModuleFace<{ gateways: WalletGateways }> = {
  name: "utilities",
  routes: ({ gateways }) => utilityRoutes(gateways),
  tasks: ({ gateways }) => ({ "gateway-poller": [reconcileUtilityPaymentTask(gateways)] }),
};
