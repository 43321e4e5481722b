import type { ModuleFace } from "../../platform/module.ts";
import { auditRoutes } from "./routes.ts";

/**
 * The audit log: an append-only record of who did what on a merchant's account. Other modules record
 * their entries with `recordAuditEntry` in the transaction of the change; the dashboard reads them at
 * `GET /v1/audit_log`.
 */
export { type AuditAction, type AuditEntry, insertAuditEntry as recordAuditEntry } from "./queries.ts";
export { auditRoutes } from "./routes.ts";

export const auditModule: ModuleFace<unknown> = {
  name: "audit",
  routes: () => auditRoutes,
};
