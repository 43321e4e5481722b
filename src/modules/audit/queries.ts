import { z } from "zod";
import { type Queryable, sql } from "../../platform/db/pool.ts";
import { newId } from "../../platform/ids.ts";
import type { Actor } from "../../platform/tenant.ts";

export const auditActions = [
  "session.signed_in",
  "session.sign_in_failed",
  "session.signed_out",
  "session.revoked",
  "session.stepped_up",
  "session.step_up_failed",
  "session.device_opened",
  "session.signed_out_everywhere",
  "user.password_changed",
  "user.password_change_failed",
  "session.two_factor_failed",
  "user.two_factor_enrolment_started",
  "user.two_factor_enabled",
  "user.two_factor_disabled",
  "user.two_factor_recovery_code_used",
  "api_key.created",
  "api_key.rolled",
  "api_key.revoked",
  "till_device.paired",
  "till_device.revoked",
  "webhook_endpoint.created",
  "webhook_endpoint.secret_rolled",
  "webhook_endpoint.deactivated",
  "manager.approved",
  "exchange_rate.set",
  "shop_profile.updated",
] as const;
export type AuditAction = (typeof auditActions)[number];

/** One thing done on a merchant's account: what, by whom, in which world, on what, from where. */
export type AuditEntry = {
  merchantId: string;
  action: AuditAction;
  actor: Actor;
  livemode: boolean | null;
  target: { type: string; id: string } | null;
  client: { address: string | undefined; userAgent: string | undefined };
};

const auditRowSchema = z.object({
  merchant_id: z.string(),
  id: z.string(),
  seq: z.coerce.number().int(),
  action: z.string(),
  actor_type: z.string(),
  actor_id: z.string().nullable(),
  livemode: z.boolean().nullable(),
  target_type: z.string().nullable(),
  target_id: z.string().nullable(),
  client_address: z.string().nullable(),
  user_agent: z.string().nullable(),
  created_at: z.date(),
  actor_name: z.string().nullable(),
});
export type AuditRow = z.infer<typeof auditRowSchema>;

const USER_AGENT_LENGTH_MAX = 512;

const columnsOf = (entry: AuditEntry) => ({
  id: newId("aud"),
  address: entry.client.address?.slice(0, 64) ?? null,
  userAgent: entry.client.userAgent?.slice(0, USER_AGENT_LENGTH_MAX) ?? null,
});

export async function insertAuditEntry(database: Queryable, entry: AuditEntry): Promise<void> {
  const { id, address, userAgent } = columnsOf(entry);
  await database.query(sql.unsafe`
    INSERT INTO audit_log (merchant_id, id, action, actor_type, actor_id, livemode, target_type, target_id,
      client_address, user_agent)
    VALUES (${entry.merchantId}, ${id}, ${entry.action}, ${entry.actor.kind}, ${entry.actor.id}, ${entry.livemode},
      ${entry.target?.type ?? null}, ${entry.target?.id ?? null}, ${address}, ${userAgent})`);
}

/**
 * Who an actor is, as a person reads it: the owner's email, a cashier's or a till's name (a till
 * session's actor is its cashier, else its device, else the owner who paired it), "API key …last4".
 * Looked up when read, so a renamed cashier shows their current name; null once the actor is gone.
 */
const ACTOR_NAME = sql.fragment`CASE a.actor_type
    WHEN 'dashboard_user' THEN (SELECT u.email FROM dashboard_users u WHERE u.merchant_id = a.merchant_id AND u.id = a.actor_id)
    WHEN 'api_key' THEN (SELECT 'API key …' || k.secret_last4 FROM api_keys k WHERE k.merchant_id = a.merchant_id AND k.id = a.actor_id)
    WHEN 'till_user' THEN coalesce(
      (SELECT c.name FROM cashiers c WHERE c.merchant_id = a.merchant_id AND c.id = a.actor_id),
      (SELECT d.name FROM till_devices d WHERE d.merchant_id = a.merchant_id AND d.id = a.actor_id),
      (SELECT u.email FROM dashboard_users u WHERE u.merchant_id = a.merchant_id AND u.id = a.actor_id))
  END`;

/** The merchant's entries, newest first, before the sequence number `beforeSeq` when given. */
export async function selectAuditEntries(
  database: Queryable,
  merchantId: string,
  options: { limit: number; beforeSeq: number | undefined },
): Promise<readonly AuditRow[]> {
  return database.any(sql.type(auditRowSchema)`
    SELECT a.merchant_id, a.id, a.seq, a.action, a.actor_type, a.actor_id, a.livemode, a.target_type, a.target_id,
      a.client_address, a.user_agent, a.created_at, ${ACTOR_NAME} AS actor_name
    FROM audit_log a
    WHERE a.merchant_id = ${merchantId} AND (${options.beforeSeq ?? null}::bigint IS NULL OR a.seq < ${options.beforeSeq ?? null})
    ORDER BY a.seq DESC
    LIMIT ${options.limit + 1}`);
}
