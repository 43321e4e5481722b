import type { WalletGateways } from "../gateway/wallet-gateway.ts";
import { expireWithdrawalCodeTask } from "../modules/agent/tasks/expire-withdrawal-code.ts";
import { pollWithdrawalCodeTask } from "../modules/agent/tasks/poll-withdrawal-code.ts";
import { reconcileBankChangeTask } from "../modules/agent/tasks/reconcile-bank-change.ts";
import { expireDuePaymentsTask } from "../modules/payments/tasks/expire-due-payments.ts";
import { pollDuePaymentsTask } from "../modules/payments/tasks/poll-due-payments.ts";
import { processPayoutTask } from "../modules/payouts/tasks/process-payout.ts";
import { requeueStalledPayoutsTask } from "../modules/payouts/tasks/requeue-stalled-payouts.ts";
import { reconcileUtilityPaymentTask } from "../modules/utilities/tasks/reconcile-utility-payment.ts";
import { deliverWebhook } from "../modules/webhooks/tasks/deliver-webhook.ts";
import { requeueStalledWebhookDeliveries } from "../modules/webhooks/tasks/requeue-stalled-deliveries.ts";
import { purgeIdempotencyKeys } from "../platform/idempotency/tasks/purge-idempotency-keys.ts";
import type { PoolName, TaskDefinition } from "../platform/queue/task.ts";
import { installPaymentHooks } from "./payment-hooks.ts";

/** Which tasks each worker pool runs. A task identifier belongs to exactly one pool. */
export function poolTasks(gateways: WalletGateways): Record<PoolName, readonly TaskDefinition[]> {
  // The poller and the expiry job settle and end payments: wallet sales must follow them.
  installPaymentHooks();
  return {
    "gateway-poller": [
      pollDuePaymentsTask(gateways),
      pollWithdrawalCodeTask(gateways),
      reconcileBankChangeTask(gateways),
      reconcileUtilityPaymentTask(gateways),
    ],
    "code-expiry": [expireDuePaymentsTask(gateways), expireWithdrawalCodeTask(gateways), purgeIdempotencyKeys],
    "payout-processor": [processPayoutTask(gateways), requeueStalledPayoutsTask],
    "webhook-delivery": [deliverWebhook, requeueStalledWebhookDeliveries],
  };
}
