import type { WalletGateways } from "../gateway/wallet-gateway.ts";
import type { AnyRoute } from "../platform/http/route.ts";
import { moduleDependencies, modules } from "./modules.ts";

/** Every HTTP route of the API deployment, in the order they are matched and documented. */
export function apiRoutes(gateways: WalletGateways): readonly AnyRoute[] {
  const dependencies = moduleDependencies(gateways);
  return [
    ...modules.flatMap((module) => module.routes?.(dependencies) ?? []),
    ...modules.flatMap((module) => module.adminRoutes?.(dependencies) ?? []),
  ];
}
