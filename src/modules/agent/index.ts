/**
 * The agent module's front door: withdrawal codes (cash-out), change-to-wallet and the account lookup.
 * Its routes are in ./routes.ts, its tasks in ./tasks/.
 */
export * from "./account-lookup.ts";
export * from "./bank-changes.ts";
export type { AgentDependencies } from "./dependencies.ts";
export * from "./withdrawals.ts";
