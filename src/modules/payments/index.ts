import type { ModuleFace } from "../../platform/module.ts";
import { paymentRoutes } from "./routes.ts";
import type { PaymentWiring } from "./service.ts";
import { expireDuePaymentsTask } from "./tasks/expire-due-payments.ts";
import { pollDuePaymentsTask } from "./tasks/poll-due-payments.ts";

/**
 * Wallet-code payments (README.md); other modules call `service.ts`. Its routes and tasks end
 * payments, so they take the payment hooks (`hooks.ts`) the composition lists.
 */
export const paymentsModule: ModuleFace<PaymentWiring> = {
  name: "payments",
  routes: (wiring) => paymentRoutes(wiring),
  tasks: (wiring) => ({
    "gateway-poller": [pollDuePaymentsTask(wiring)],
    "code-expiry": [expireDuePaymentsTask(wiring)],
  }),
};
