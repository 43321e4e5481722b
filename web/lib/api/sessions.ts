import { type BodyOf, call, type Schema } from "./call.ts";

/** The dashboard user's own sessions, password, two-factor sign-in and the merchant's audit log. */
export type SessionListItem = Schema<"SessionListItem">;
export type TwoFactorEnrolment = Schema<"TwoFactorEnrolment">;
export type AuditEntry = Schema<"AuditEntry">;

export const listSessions = () => call("get", "/v1/sessions");

export const revokeSession = (id: string) => call("delete", "/v1/sessions/{id}", { path: { id } });

export const revokeAllSessions = () => call("delete", "/v1/sessions");

export const changePassword = (body: BodyOf<"/v1/session/password", "post">) =>
  call("post", "/v1/session/password", { body });

export const startTwoFactor = () => call("post", "/v1/session/two_factor", { body: {} });

export const confirmTwoFactor = (body: BodyOf<"/v1/session/two_factor/confirm", "post">) =>
  call("post", "/v1/session/two_factor/confirm", { body });

export const turnOffTwoFactor = () => call("delete", "/v1/session/two_factor");

export const listAuditLog = (limit: number) => call("get", "/v1/audit_log", { query: { limit } });
