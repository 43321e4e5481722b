import type { ModuleFace } from "../../platform/module.ts";
import { deviceRoutes } from "./device-routes.ts";
import { keyRoutes } from "./key-routes.ts";
import { sessionRoutes } from "./routes.ts";

/**
 * Browser sign-in for the dashboard and the till: sessions in PostgreSQL behind an HttpOnly cookie,
 * CSRF tokens bound to them, brute-force limits, step-up, and key management from the dashboard.
 * The HTTP platform calls `sessionAuthenticator` to resolve a session principal; the routes are
 * `sessionRoutes` (sign-in, sign-out, step-up, password, session list), `deviceRoutes` (till devices)
 * and `keyRoutes`. Who may call what is each route's declared access (src/platform/http/access.ts);
 * step-up freshness comes from the statement that authenticates the session.
 */
export {
  sessionAuthenticator,
  setSessionCashier,
  tillSessionOf,
  warmUp,
} from "./service.ts";
export { hashToken, sessionCookieName } from "./tokens.ts";
export { resealTwoFactorSecrets } from "./two-factor.ts";

export const sessionsModule: ModuleFace<unknown> = {
  name: "sessions",
  routes: () => [...sessionRoutes(), ...deviceRoutes(), ...keyRoutes()],
};
