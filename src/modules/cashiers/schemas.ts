import { z } from "zod";

export const cashierRowSchema = z.object({
  merchant_id: z.string(),
  id: z.string(),
  name: z.string(),
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

export const createCashierBody = z.strictObject({
  name: z.string().trim().min(1).max(100),
  pin: pinSchema,
});

export const switchCashierBody = z.strictObject({ cashier_id: z.string().max(100), pin: pinSchema });

export const cashierIdParams = z.strictObject({ id: z.string().max(100) });

export const cashierSchema = z
  .object({
    id: z.string(),
    object: z.literal("cashier"),
    name: z.string(),
    status: z.enum(["active", "locked", "disabled"]),
    failed_pin_attempts: z.number().int(),
    locked_at: z.iso.datetime().nullable(),
    disabled_at: z.iso.datetime().nullable(),
    created_at: z.iso.datetime(),
  })
  .meta({ id: "Cashier" });

export const cashierListSchema = z.object({ data: z.array(cashierSchema) });
