/**
 * Browser sign-in for the dashboard and the till: sessions in PostgreSQL behind an HttpOnly cookie,
 * CSRF tokens bound to them, brute-force limits, step-up, and key management from the dashboard.
 * The HTTP platform calls `sessionAuthenticator` to resolve a session principal; the routes are
 * `sessionRoutes` (sign-in, sign-out, step-up, password, session list) and `keyRoutes`; other modules
 * call `requireStepUpOfSessions` before actions that need a fresh password from a person.
 */
export { deviceRoutes } from "./device-routes.ts";
export { keyRoutes } from "./key-routes.ts";
export { sessionRoutes } from "./routes.ts";
export {
  requireDashboardSession,
  requireStepUpOfSessions,
  sessionAuthenticator,
  setSessionCashier,
  tillSessionOf,
  warmUp,
} from "./service.ts";
export { sessionCookieName } from "./tokens.ts";
