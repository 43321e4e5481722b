import type { ModuleFace } from "../../platform/module.ts";
import { webAppRoutes } from "./routes.ts";

/**
 * The browser apps as the API serves them: hashed files under /assets (immutable) and each app's
 * shell (no-cache, strict CSP) at its path, from the build web/build.ts writes.
 */
export { webAppRoutes } from "./routes.ts";

export const webAppsModule: ModuleFace<unknown> = {
  name: "web-apps",
  routes: () => webAppRoutes,
};
