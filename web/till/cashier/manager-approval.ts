import { signal } from "@preact/signals";
import type { ApiError } from "../../lib/api.ts";
import { api } from "../../lib/session.ts";

/** What a manager's PIN approves (the API's `action` of POST /v1/session/manager_approvals). */
export type ManagerAction = "return" | "cash_pay_out" | "shift_close" | "product_update" | "exchange_rate" | "discount";

export const actionLabels: Record<ManagerAction, string> = {
  return: "a return",
  cash_pay_out: "a cash pay-out",
  shift_close: "closing the drawer with a difference",
  product_update: "a product change",
  exchange_rate: "setting the rate of the day",
  discount: "a discount over the limit",
};

/** The request the manager dialog is open for; undefined: closed. */
export const managerRequest = signal<
  { action: ManagerAction; resolve: (token: string) => void; cancel: () => void } | undefined
>(undefined);

/** The action a refused request was for, from its path (the requests that can answer `manager_required`). */
export function managerActionOf(path: string): ManagerAction {
  if (path.endsWith("/returns")) return "return";
  if (path.endsWith("/cash_moves")) return "cash_pay_out";
  if (path.endsWith("/close")) return "shift_close";
  if (path.endsWith("/exchange_rates")) return "exchange_rate";
  if (path.endsWith("/sales")) return "discount";
  return "product_update";
}

/**
 * Opens the manager dialog and waits: the approval's token once a manager's PIN is accepted; the
 * original refusal thrown again when the dialog is cancelled.
 */
export function askManager(action: ManagerAction, refusal: ApiError): Promise<string> {
  managerRequest.value?.cancel();
  return new Promise<string>((resolve, reject) => {
    managerRequest.value = {
      action,
      resolve: (token) => {
        managerRequest.value = undefined;
        resolve(token);
      },
      cancel: () => {
        managerRequest.value = undefined;
        reject(refusal);
      },
    };
  });
}

/** A manager's PIN for one request of `action`: the approval token (the API's refusal is thrown). */
export async function approve(managerId: string, pin: string, action: ManagerAction): Promise<string> {
  const approval = await api.post<{ token: string }>(
    "/v1/session/manager_approvals",
    { cashier_id: managerId, pin, action },
    { world: "test" },
  );
  return approval.token;
}

/** The cashier switched in changes their own PIN (the current one is checked first). */
export async function changeOwnPin(currentPin: string, newPin: string): Promise<void> {
  await api.post("/v1/session/cashier/pin", { current_pin: currentPin, new_pin: newPin }, { world: "test" });
}
