import type { AnyRoute } from "./http/route.ts";
import type { PumpDefinition } from "./queue/due-pump.ts";
import type { PoolName, TaskDefinition } from "./queue/task.ts";

/**
 * What a module offers the composition, declared at its front door (`src/modules/<m>/index.ts`): its
 * HTTP routes, the tasks it gives each worker pool and the pumps (work claimed from its own rows
 * rather than from jobs: `queue/due-pump.ts`), built from the dependencies the composition
 * passes (`Dependencies`: what this module needs of them, such as the gateways). `src/wiring` holds
 * the list of modules; the API serves every module's `routes` in the list's order, then every
 * module's `adminRoutes`, which is also the order of the OpenAPI document.
 */
export type ModuleFace<Dependencies> = {
  name: string;
  routes?: (dependencies: Dependencies) => readonly AnyRoute[];
  /** Operator routes (`/admin/v1`), matched and documented after every module's own routes. */
  adminRoutes?: (dependencies: Dependencies) => readonly AnyRoute[];
  tasks?: (dependencies: Dependencies) => Partial<Record<PoolName, readonly TaskDefinition[]>>;
  pumps?: (dependencies: Dependencies) => Partial<Record<PoolName, readonly PumpDefinition[]>>;
};
