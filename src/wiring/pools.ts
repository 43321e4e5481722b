import type { WalletGateways } from "../gateway/wallet-gateway.ts";
import { purgeIdempotencyKeys } from "../platform/idempotency/tasks/purge-idempotency-keys.ts";
import type { PoolName, TaskDefinition } from "../platform/queue/task.ts";
import { moduleDependencies, modules } from "./modules.ts";

/** The platform's own tasks, beside the modules'. */
const platformTasks: Partial<Record<PoolName, readonly TaskDefinition[]>> = {
  "code-expiry": [purgeIdempotencyKeys],
};

/** Which tasks each worker pool runs: the modules' (in the list's order), then the platform's. */
export function poolTasks(gateways: WalletGateways): Record<PoolName, readonly TaskDefinition[]> {
  const dependencies = moduleDependencies(gateways);
  const offered = [...modules.map((module) => module.tasks?.(dependencies) ?? {}), platformTasks];
  const tasksOf = (pool: PoolName) => offered.flatMap((tasks) => tasks[pool] ?? []);
  return {
    "gateway-poller": tasksOf("gateway-poller"),
    "code-expiry": tasksOf("code-expiry"),
    "payout-processor": tasksOf("payout-processor"),
    "webhook-delivery": tasksOf("webhook-delivery"),
  };
}
