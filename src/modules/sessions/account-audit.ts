import type { Queryable } from "../../platform/db/pool.ts";
import type { Tenant } from "../../platform/tenant.ts";
import { type AuditEntry, recordAuditEntry } from "../audit/index.ts";

/**
 * Audits what the tenant's own actor did to the account's sign-in (sessions, till devices, password,
 * two-factor): entries of no world, written with the change they record (`database`, usually its
 * transaction).
 */
export function auditAccountAction(
  database: Queryable,
  tenant: Pick<Tenant, "merchantId" | "actor">,
  entry: Pick<AuditEntry, "action" | "client"> & { target: { type: string; id: string } },
): Promise<void> {
  return recordAuditEntry(database, {
    merchantId: tenant.merchantId,
    action: entry.action,
    actor: tenant.actor,
    livemode: null,
    target: entry.target,
    client: entry.client,
  });
}
