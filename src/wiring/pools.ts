import type { WalletGateways } from "../gateway/wallet-gateway.ts";
import { expireWithdrawalCodeTask } from "../modules/agent/tasks/expire-withdrawal-code.ts";
import { pollWithdrawalCodeTask } from "../modules/agent/tasks/poll-withdrawal-code.ts";
import { reconcileBankChangeTask } from "../modules/agent/tasks/reconcile-bank-change.ts";
import { expirePaymentTask } from "../modules/payments/tasks/expire-payment.ts";
import { pollPaymentTask } from "../modules/payments/tasks/poll-payment.ts";
import { schedulePaymentJobsTask } from "../modules/payments/tasks/schedule-payment-jobs.ts";
import { scheduleUnscheduledPaymentsTask } from "../modules/payments/tasks/schedule-unscheduled-payments.ts";
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
      schedulePaymentJobsTask,
      pollPaymentTask(gateways),
      pollWithdrawalCodeTask(gateways),
      reconcileBankChangeTask(gateways),
      reconcileUtilityPaymentTask(gateways),
    ],
    "code-expiry": [
      expirePaymentTask(gateways),
      scheduleUnscheduledPaymentsTask,
      expireWithdrawalCodeTask(gateways),
      purgeIdempotencyKeys,
    ],
    "payout-processor": [processPayoutTask(gateways), requeueStalledPayoutsTask],
    "webhook-delivery": [deliverWebhook, requeueStalledWebhookDeliveries],
  };
}
