import { type BodyOf, type CallOptions, call, type Schema } from "./call.ts";

/**
 * The shop's cashiers (managed on the dashboard) and a till's cashier session: who is switched in, a
 * manager's approval of one request. The till's calls name the TEST world: a cashier is of both worlds.
 */
export type Cashier = Schema<"Cashier">;
export type CashierRole = Cashier["role"];
export type ManagerAction = BodyOf<"/v1/session/manager_approvals", "post">["action"];

export const listCashiers = (options?: CallOptions) => call("get", "/v1/cashiers", options);

export const createCashier = (body: BodyOf<"/v1/cashiers", "post">) => call("post", "/v1/cashiers", { body });

export const updateCashier = (id: string, body: BodyOf<"/v1/cashiers/{id}", "patch">) =>
  call("patch", "/v1/cashiers/{id}", { path: { id }, body });

export const disableCashier = (id: string) => call("post", "/v1/cashiers/{id}/disable", { path: { id } });

export const unlockCashier = (id: string) => call("post", "/v1/cashiers/{id}/unlock", { path: { id } });

export const switchInCashier = (body: BodyOf<"/v1/session/cashier", "post">) =>
  call("post", "/v1/session/cashier", { world: "test", body });

export const switchOutCashier = () => call("delete", "/v1/session/cashier", { world: "test" });

export const changeOwnPin = (body: BodyOf<"/v1/session/cashier/pin", "post">) =>
  call("post", "/v1/session/cashier/pin", { world: "test", body });

export const approveByManager = (body: BodyOf<"/v1/session/manager_approvals", "post">) =>
  call("post", "/v1/session/manager_approvals", { world: "test", body });
