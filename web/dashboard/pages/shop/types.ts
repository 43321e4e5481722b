/** The shop's API objects as the shop pages name them: the generated client's (web/lib/api.ts). */
export type {
  Actor,
  Cashier,
  CashierRole,
  CashMove,
  Sale,
  SaleLine,
  SaleReturn,
  Shift,
  ShiftCash,
  TillDevice,
} from "../../../lib/api.ts";
