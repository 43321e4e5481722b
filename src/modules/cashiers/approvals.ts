import { randomBytes } from "node:crypto";
import type { Database, Queryable } from "../../platform/db/pool.ts";
import { forbidden, managerRequired } from "../../platform/errors.ts";
import type { RequestClient } from "../../platform/http/route.ts";
import { newId } from "../../platform/ids.ts";
import type { ManagerAction, SessionFacts, Tenant } from "../../platform/tenant.ts";
import { recordAuditEntry } from "../audit/index.ts";
import { hashToken, tillSessionOf } from "../sessions/index.ts";
import * as approvals from "./approval-queries.ts";
import { APPROVAL_LIFETIME_SECONDS } from "./schemas.ts";
import { checkPin } from "./service.ts";

/**
 * Manager approval at the till (Loyverse's access rights): returns, cash pay-outs, a drawer closed
 * with a difference and product changes need a manager. A manager switched in does them; otherwise a
 * manager types their PIN at the till (`POST /v1/session/manager_approvals`) and the till gets a token
 * that approves one request of that action, from this till session, within `APPROVAL_LIFETIME_SECONDS`.
 * The till sends it in `Pos-Manager-Approval`; the session lookup reads it in the same statement
 * (`SessionFacts.approval`), and the action uses it up in its own transaction (`requireManager`), so
 * a token approves at most one request. Who approved is kept on the approval row and in the audit log
 * (`manager.approved`, actor: the manager, target: the return, cash move or shift).
 */

export async function approveAsManager(
  database: Database,
  tenant: Tenant,
  input: { cashier_id: string; pin: string; action: ManagerAction },
) {
  const sessionId = tillSessionOf(tenant);
  const manager = await checkPin(database, tenant.merchantId, input.cashier_id, input.pin);
  // The PIN is checked (and counted) first, so the answer tells nothing about a PIN not typed right.
  if (manager.role !== "manager") {
    throw forbidden("not_a_manager", `${manager.name} is not a manager: ask a manager to approve this.`);
  }
  const token = `mga_${randomBytes(32).toString("base64url")}`;
  const approval = await approvals.insertApproval(database, {
    merchantId: tenant.merchantId,
    id: newId("mga"),
    sessionId,
    managerId: manager.id,
    requestedBy: tenant.session?.cashier?.id ?? null,
    action: input.action,
    // Hashed as session tokens are: the session lookup hashes the header the same way.
    tokenHash: hashToken(token),
    lifetimeSeconds: APPROVAL_LIFETIME_SECONDS,
  });
  return {
    object: "manager_approval" as const,
    id: approval.id,
    token,
    manager_id: manager.id,
    action: input.action,
    expires_at: approval.expires_at.toISOString(),
  };
}

/** Who approved a restricted request: a manager switched in, or the approval the request carried. */
export type Approval = { managerId: string; approvalId: string | null };

/**
 * Refuses a restricted action at a till of a shop with cashiers unless a manager is switched in or
 * the request carries an unused approval for this very action (used up here, in the action's
 * transaction: when the action fails, the approval is still there for its retry). Keys, the owner's
 * dashboard and a shop without cashiers need no manager (null).
 */
export async function requireManager(
  transaction: Queryable,
  principal: { merchantId: string; session?: SessionFacts | undefined },
  action: ManagerAction,
): Promise<Approval | null> {
  const session = principal.session;
  if (session === undefined || session.kind !== "till" || !session.hasCashiers) {
    return null;
  }
  if (session.cashier?.role === "manager") {
    return { managerId: session.cashier.id, approvalId: null };
  }
  if (session.approval !== null && session.approval.action === action) {
    const managerId = await approvals.useApproval(transaction, {
      merchantId: principal.merchantId,
      id: session.approval.id,
      sessionId: session.id,
      action,
    });
    if (managerId !== null) {
      return { managerId, approvalId: session.approval.id };
    }
  }
  throw managerRequired(
    `A manager's PIN is needed for this (${action.replace("_", " ")}): ask a manager to approve it.`,
  );
}

/** Records what an approval approved: on its row and in the audit log, the manager as the actor. */
export async function recordApproval(
  transaction: Queryable,
  principal: { merchantId: string; livemode: boolean },
  approval: Approval | null,
  target: { type: string; id: string },
  client?: RequestClient,
): Promise<void> {
  if (approval === null || approval.approvalId === null) {
    // A manager switched in acts themselves: the record's own actor names them.
    return;
  }
  await approvals.markApprovalTarget(transaction, {
    merchantId: principal.merchantId,
    id: approval.approvalId,
    target,
  });
  await recordAuditEntry(transaction, {
    merchantId: principal.merchantId,
    action: "manager.approved",
    actor: { kind: "till_user", id: approval.managerId },
    livemode: principal.livemode,
    target,
    client: { address: client?.address, userAgent: client?.userAgent },
  });
}
