import type { WalletGateways } from "../gateway/wallet-gateway.ts";
import { purgeIdempotencyKeys } from "../platform/idempotency/tasks/purge-idempotency-keys.ts";
import type { PumpDefinition } from "../platform/queue/due-pump.ts";
import type { PoolName, TaskDefinition } from "../platform/queue/task.ts";
import { type ModuleDependencies, moduleDependencies, modules } from "./modules.ts";

type ByPool<Item> = Partial<Record<PoolName, readonly Item[]>>;

/** The platform's own tasks, beside the modules'. */
const platformTasks: ByPool<TaskDefinition> = {
  "code-expiry": [purgeIdempotencyKeys],
};

/** What each pool gets: every module's offer (in the list's order), then `extra`. */
function offeredByPool<Item>(
  gateways: WalletGateways,
  offer: (module: (typeof modules)[number], dependencies: ModuleDependencies) => ByPool<Item> | undefined,
  extra: ByPool<Item> = {},
): Record<PoolName, readonly Item[]> {
  const dependencies = moduleDependencies(gateways);
  const offered = [...modules.map((module) => offer(module, dependencies) ?? {}), extra];
  const of = (pool: PoolName) => offered.flatMap((items) => items[pool] ?? []);
  return {
    "gateway-poller": of("gateway-poller"),
    "code-expiry": of("code-expiry"),
    "payout-processor": of("payout-processor"),
    "webhook-delivery": of("webhook-delivery"),
  };
}

/** Which tasks each worker pool runs: the modules' (in the list's order), then the platform's. */
export function poolTasks(gateways: WalletGateways): Record<PoolName, readonly TaskDefinition[]> {
  return offeredByPool(gateways, (module, dependencies) => module.tasks?.(dependencies), platformTasks);
}

/** Which pumps (`due-pump.ts`) each worker pool runs beside its tasks: the modules' (in the list's order). */
export function poolPumps(gateways: WalletGateways): Record<PoolName, readonly PumpDefinition[]> {
  return offeredByPool(gateways, (module, dependencies) => module.pumps?.(dependencies));
}
