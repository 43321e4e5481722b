/**
 * The browser apps as the API serves them: hashed files under /assets (immutable) and each app's
 * shell (no-cache, strict CSP) at its path, from the build web/build.ts writes.
 */
export { webAppRoutes } from "./routes.ts";
