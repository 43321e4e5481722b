import type { ModuleFace } from "../../platform/module.ts";
import { expireDuePaymentsPump } from "./pumps/expire-due-payments.ts";
import { pollDuePaymentsPump } from "./pumps/poll-due-payments.ts";
import { type PaymentRouteWiring, paymentRoutes } from "./routes.ts";

/**
 * Wallet-code payments (README.md); other modules call `payments` (the service), cancel with
 * `cancelPayment` and present a payment with `presentPayment`. Its routes and pumps end payments, so
 * they take the payment hooks (`hooks.ts`) the composition lists.
 */
export { cancelPayment } from "./cancellation.ts";
export type { EndEffects, PaymentHook, PaymentHooks } from "./hooks.ts";
export { type PaymentWriter, paymentWriterPerDatabase } from "./payment-writer.ts";
export { presentPayment } from "./presentation.ts";
export { type PaymentRow, paymentSchema, paymentStatuses } from "./schemas.ts";
export * as payments from "./service.ts";
export { type PaymentWiring, qrPngDataUrlOf } from "./service.ts";
export type { PaymentRouteWiring };

export const paymentsModule: ModuleFace<PaymentRouteWiring> = {
  name: "payments",
  routes: (wiring) => paymentRoutes(wiring),
  pumps: (wiring) => ({
    "gateway-poller": [pollDuePaymentsPump(wiring)],
    "code-expiry": [expireDuePaymentsPump(wiring)],
  }),
};
