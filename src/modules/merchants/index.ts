import type { ModuleFace } from "../../platform/module.ts";
import { merchantAdminRoutes, merchantRoutes } from "./routes.ts";

export { type RateLimit, rateLimitLog, takeRateLimitSlots } from "./authentication-queries.ts";
/**
 * Merchants, dashboard users and API keys (README.md). Other modules call `merchants` (the service);
 * sessions and cashiers hash passwords with `passwords.ts`; the sessions' key routes present keys as
 * this module does, and their brute-force limits share its rate-limit log (`takeRateLimitSlots`).
 */
export { hashPassword, verifyPassword } from "./passwords.ts";
export { presentApiKey } from "./present.ts";
export {
  apiKeySchema,
  createMerchantBody,
  mintKeyBody,
  payoutDestinationBody,
  setStatusBody,
  setTimezoneBody,
} from "./schemas.ts";
export * as merchants from "./service.ts";
export { apiKeyAuthenticator } from "./service.ts";

export const merchantsModule: ModuleFace<unknown> = {
  name: "merchants",
  routes: () => merchantRoutes,
  adminRoutes: () => merchantAdminRoutes,
};
