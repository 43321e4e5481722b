import { z } from "zod";
import { type Queryable, sql } from "../../platform/db/pool.ts";
import type { ManagerAction } from "../../platform/tenant.ts";

const approvalRowSchema = z.object({ id: z.string(), manager_id: z.string(), expires_at: z.date() });

export async function insertApproval(
  database: Queryable,
  approval: {
    merchantId: string;
    id: string;
    sessionId: string;
    managerId: string;
    requestedBy: string | null;
    action: ManagerAction;
    tokenHash: Buffer;
    lifetimeSeconds: number;
  },
): Promise<z.infer<typeof approvalRowSchema>> {
  return database.one(sql.type(approvalRowSchema)`
    INSERT INTO manager_approvals (merchant_id, id, session_id, manager_id, requested_by, action, token_hash, expires_at)
    VALUES (${approval.merchantId}, ${approval.id}, ${approval.sessionId}, ${approval.managerId},
      ${approval.requestedBy}, ${approval.action}, ${sql.binary(approval.tokenHash)},
      now() + ${approval.lifetimeSeconds}::integer * interval '1 second')
    RETURNING id, manager_id, expires_at`);
}

/**
 * Uses an approval up for its action, once: the update's row lock decides between two requests that
 * carry the same approval (one uses it, the other finds it used). Null: used, expired or another action.
 */
export async function useApproval(
  database: Queryable,
  approval: { merchantId: string; id: string; sessionId: string; action: ManagerAction },
): Promise<string | null> {
  const used = await database.maybeOne(sql.type(z.object({ manager_id: z.string() }))`
    UPDATE manager_approvals SET used_at = now()
    WHERE merchant_id = ${approval.merchantId} AND id = ${approval.id} AND session_id = ${approval.sessionId}
      AND action = ${approval.action} AND used_at IS NULL AND expires_at > now()
    RETURNING manager_id`);
  return used?.manager_id ?? null;
}

/** What the approval was used for, once the approved record exists. */
export async function markApprovalTarget(
  database: Queryable,
  approval: { merchantId: string; id: string; target: { type: string; id: string } },
): Promise<void> {
  await database.query(sql.unsafe`
    UPDATE manager_approvals SET used_for_type = ${approval.target.type}, used_for_id = ${approval.target.id}
    WHERE merchant_id = ${approval.merchantId} AND id = ${approval.id}`);
}
