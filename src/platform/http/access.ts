import { forbidden, managerRequired } from "../errors.ts";
import type { SessionFacts, Tenant } from "../tenant.ts";

/**
 * Who may call a merchant route, declared on the route itself (`auth` of `defineRoute`). A principal a
 * route does not name is refused before its input is read: deny by default.
 *
 * - `keys`: the merchant's secret keys, in both worlds (`"both"`) or only the test world (`"test"`, the
 *   sandbox levers). A key is the merchant's own server: it has no password to type again.
 * - `owner`: the owner signed in to the dashboard. `"step_up"`: the password (and the second factor,
 *   when on) typed in this session within `SESSION_STEP_UP_WINDOW_SECONDS`.
 * - `till`: a till session, opened by a paired device. `"till"`: the till as it is; `"cashier"`: when the
 *   merchant has cashiers, one must be switched in (and then acts); `"manager"`: a manager switched in,
 *   or a manager's PIN approving this one request (`Pos-Manager-Approval`), when the merchant has cashiers.
 */
export type Access = {
  keys?: "both" | "test";
  owner?: "session" | "step_up";
  till?: "till" | "cashier" | "manager";
};

/** The principals the route × principal test and `docs/security.md` name. */
export const principals = [
  "test_key",
  "live_key",
  "owner",
  "owner_stale_step_up",
  "till",
  "cashier",
  "manager",
] as const;
export type PrincipalName = (typeof principals)[number];

/** The codes of a refusal by policy (the route × principal test tells them from the route's own answers). */
export const refusalCodes = [
  "principal_not_allowed",
  "step_up_required",
  "cashier_required",
  "manager_required",
  "missing_session",
  "missing_api_key",
] as const;

/** Whether a principal passes a route's declared access (what `authorize` enforces, in words for the docs). */
export function allows(access: Access, principal: PrincipalName): boolean {
  switch (principal) {
    case "test_key":
      return access.keys !== undefined;
    case "live_key":
      return access.keys === "both";
    case "owner":
      return access.owner !== undefined;
    case "owner_stale_step_up":
      return access.owner === "session";
    case "till":
      return access.till === "till";
    case "cashier":
      return access.till === "till" || access.till === "cashier";
    case "manager":
      return access.till !== undefined;
  }
}

/** Whether the route accepts any browser session, so the platform reads the session cookie for it. */
export const acceptsSessions = (access: Access) => access.owner !== undefined || access.till !== undefined;

const notAllowed = (who: string) =>
  forbidden("principal_not_allowed", `${who} may not do this: see docs/security.md for who may call each route.`);

/**
 * Refuses a resolved principal its route does not allow (403). The session's facts (kind, step-up
 * freshness, cashier switched in) come from the one statement that authenticated it.
 */
export function authorize(access: Access, tenant: Tenant): void {
  const session = tenant.session;
  if (session === undefined) {
    if (access.keys === undefined || (access.keys === "test" && tenant.livemode)) {
      throw notAllowed(tenant.livemode ? "A live secret key" : "A secret key");
    }
    return;
  }
  if (session.kind === "dashboard") {
    if (access.owner === undefined) {
      throw notAllowed("The dashboard");
    }
    if (access.owner === "step_up" && !session.stepUpFresh) {
      throw stepUpRequired();
    }
    return;
  }
  authorizeTill(access, session);
}

function authorizeTill(access: Access, session: NonNullable<Tenant["session"]>): void {
  if (access.till === undefined || session.deviceId === null) {
    throw notAllowed("A till");
  }
  if (access.till === "till" || !session.hasCashiers) {
    return;
  }
  const cashier = session.cashier;
  if (access.till === "manager" && cashier?.role !== "manager" && session.approvedBy === null) {
    throw managerRequired("A manager's PIN is needed for this: ask a manager to approve it.");
  }
  if (cashier === null && session.approvedBy === null) {
    throw forbidden("cashier_required", "Switch a cashier in with their PIN first.");
  }
}

export const stepUpRequired = () =>
  forbidden(
    "step_up_required",
    "Enter your password again (POST /v1/session/step_up): this action needs it typed in this session just now.",
  );

/**
 * For a handler whose need of step-up depends on its input (a live key minted, rolled or revoked, a
 * live webhook endpoint added): a session must have typed its password just now; a key passes (the
 * merchant's server has no password to type).
 */
export function requireStepUpOfSession(tenant: Tenant): void {
  if (tenant.session !== undefined && !tenant.session.stepUpFresh) {
    throw stepUpRequired();
  }
}

/**
 * A till acts only on its own drawer: a till session's `till_id` (a sale's, a return's, a shift's) must
 * be its paired device's id, the till's name for its drawer. Keys and the owner's dashboard may name any.
 */
export function requireOwnTill(session: SessionFacts | undefined, tillId: string | null | undefined): void {
  if (session?.kind !== "till" || tillId === null || tillId === undefined || tillId === session.deviceId) {
    return;
  }
  throw forbidden("till_mismatch", `This till is ${session.deviceId}: it acts only on its own drawer, not ${tillId}.`);
}
