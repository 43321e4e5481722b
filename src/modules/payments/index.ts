import type { Gateways } from "../../gateway/wallet-gateway.ts";
import type { ModuleFace } from "../../platform/module.ts";
import { paymentRoutes } from "./routes.ts";
import { expirePaymentTask } from "./tasks/expire-payment.ts";
import { pollPaymentTask } from "./tasks/poll-payment.ts";
import { schedulePaymentJobsTask } from "./tasks/schedule-payment-jobs.ts";
import { scheduleUnscheduledPaymentsTask } from "./tasks/schedule-unscheduled-payments.ts";

/** Wallet-code payments (README.md); other modules call `service.ts` and attach `hooks.ts`. */
export const paymentsModule: ModuleFace<{ gateways: Gateways }> = {
  name: "payments",
  routes: ({ gateways }) => paymentRoutes(gateways),
  tasks: ({ gateways }) => ({
    "gateway-poller": [schedulePaymentJobsTask, pollPaymentTask(gateways)],
    "code-expiry": [expirePaymentTask(gateways), scheduleUnscheduledPaymentsTask],
  }),
};
