import { z } from "zod";
import { cashierRoles, managerActions } from "../../platform/tenant.ts";

export const cashierRowSchema = z.object({
  merchant_id: z.string(),
  id: z.string(),
  name: z.string(),
  role: z.enum(cashierRoles),
  pin_hash: z.string(),
  failed_pin_attempts: z.number().int(),
  locked_at: z.date().nullable(),
  disabled_at: z.date().nullable(),
  created_at: z.date(),
});
export type CashierRow = z.infer<typeof cashierRowSchema>;

/** Wrong PINs in a row that lock a cashier until the owner unlocks. */
export const PIN_ATTEMPTS_MAX = 5;

const pinSchema = z
  .string()
  .regex(/^[0-9]{4,6}$/)
  .meta({ description: "4 to 6 digits." });

const roleSchema = z.enum(cashierRoles).meta({
  description: "`manager`: their PIN approves returns, cash pay-outs and a drawer closed with a difference.",
});

export const createCashierBody = z.strictObject({
  name: z.string().trim().min(1).max(100),
  pin: pinSchema,
  role: roleSchema.default("cashier"),
});

export const updateCashierBody = z
  .strictObject({ name: z.string().trim().min(1).max(100).optional(), role: roleSchema.optional() })
  .refine((body) => body.name !== undefined || body.role !== undefined, { message: "Send name or role." });

export const managerApprovalBody = z.strictObject({
  cashier_id: z.string().max(100).meta({ description: "The approving manager." }),
  pin: pinSchema,
  action: z.enum(managerActions).meta({ description: "The one kind of request the approval is for." }),
});

export const changePinBody = z.strictObject({ current_pin: pinSchema, new_pin: pinSchema });

/** How long a manager's approval may wait for the request it approves. */
export const APPROVAL_LIFETIME_SECONDS = 120;

export const managerApprovalSchema = z
  .object({
    object: z.literal("manager_approval"),
    id: z.string(),
    token: z.string().meta({ description: "Send it in the Pos-Manager-Approval header of the approved request." }),
    manager_id: z.string(),
    action: z.enum(managerActions),
    expires_at: z.iso.datetime(),
  })
  .meta({ id: "ManagerApproval" });

export const switchCashierBody = z.strictObject({ cashier_id: z.string().max(100), pin: pinSchema });

export const cashierIdParams = z.strictObject({ id: z.string().max(100) });

export const cashierSchema = z
  .object({
    id: z.string(),
    object: z.literal("cashier"),
    name: z.string(),
    role: z.enum(cashierRoles),
    status: z.enum(["active", "locked", "disabled"]),
    failed_pin_attempts: z.number().int(),
    locked_at: z.iso.datetime().nullable(),
    disabled_at: z.iso.datetime().nullable(),
    created_at: z.iso.datetime(),
  })
  .meta({ id: "Cashier" });

export const cashierListSchema = z.object({ data: z.array(cashierSchema) });
