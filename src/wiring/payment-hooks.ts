import { registerPaymentHook } from "../modules/payments/hooks.ts";
import { salePaymentHook } from "../modules/sales/service.ts";

/**
 * Attaches the modules built on payments to a payment's end (see `modules/payments/hooks.ts`): a
 * wallet sale completes in its payment's settlement transaction and is cancelled in the transaction
 * that ends it unpaid. Every process that can settle or end a payment calls this through the
 * composition it builds: the API's routes (GET refresh, mockpay) and the pools' task lists (poller,
 * expiry job). Registration is by name, so calling it again changes nothing.
 */
export function installPaymentHooks(): void {
  registerPaymentHook("sales", salePaymentHook);
}
