import { signal } from "@preact/signals";
import { type ApiError, approveByManager, changeOwnPin as changePin, type ManagerAction } from "../../lib/api.ts";

export type { ManagerAction };

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
  const approval = await approveByManager({ cashier_id: managerId, pin, action });
  return approval.token;
}

/** The cashier switched in changes their own PIN (the current one is checked first). */
export async function changeOwnPin(currentPin: string, newPin: string): Promise<void> {
  await changePin({ current_pin: currentPin, new_pin: newPin });
}
