import type { Gateways } from "../../gateway/wallet-gateway.ts";
import type { ModuleFace } from "../../platform/module.ts";
import { paymentRoutes } from "./routes.ts";
import { expireDuePaymentsTask } from "./tasks/expire-due-payments.ts";
import { pollDuePaymentsTask } from "./tasks/poll-due-payments.ts";

/** Wallet-code payments (README.md); other modules call `service.ts` and attach `hooks.ts`. */
export const paymentsModule: ModuleFace<{ gateways: Gateways }> = {
  name: "payments",
  routes: ({ gateways }) => paymentRoutes(gateways),
  tasks: ({ gateways }) => ({
    "gateway-poller": [pollDuePaymentsTask(gateways)],
    "code-expiry": [expireDuePaymentsTask(gateways)],
  }),
};
