import { z } from "zod";
import { ERROR_CODE_META_KEY } from "../../kernel/error-code.ts";
import { currencies } from "../../kernel/money.ts";
import { currencySchema } from "../../kernel/money-schemas.ts";
import { cursorSchema, limitSchema, pageSchema } from "../../platform/http/pagination.ts";
import { actorKinds } from "../../platform/tenant.ts";

export const shiftStatuses = ["open", "closed"] as const;
export type ShiftStatus = (typeof shiftStatuses)[number];
/** `change` and `sale_cancel`: the change a split sale gave, and what a cancelled split sale gave back. */
export const cashMoveKinds = ["float", "sale", "return", "pay_in", "pay_out", "change", "sale_cancel"] as const;
export type CashMoveKind = (typeof cashMoveKinds)[number];

/** The most one float, pay-in, pay-out or count may be: the largest sale (10,000,000.00). */
export const DRAWER_CENTS_MAX = 1_000_000_000;

export const shiftRowSchema = z.object({
  merchant_id: z.string(),
  id: z.string(),
  livemode: z.boolean(),
  till_id: z.string(),
  status: z.enum(shiftStatuses),
  opened_by_type: z.enum(actorKinds),
  opened_by_id: z.string(),
  closed_by_type: z.enum(actorKinds).nullable(),
  closed_by_id: z.string().nullable(),
  close_note: z.string().nullable(),
  created_at: z.date(),
  closed_at: z.date().nullable(),
});
export type ShiftRow = z.infer<typeof shiftRowSchema>;

export const cashMoveRowSchema = z.object({
  merchant_id: z.string(),
  id: z.string(),
  shift_id: z.string(),
  kind: z.enum(cashMoveKinds),
  currency: z.enum(currencies),
  amount_cents: z.number().int(),
  reason: z.string().nullable(),
  sale_id: z.string().nullable(),
  return_id: z.string().nullable(),
  actor_type: z.enum(actorKinds),
  actor_id: z.string(),
  created_at: z.date(),
});
export type CashMoveRow = z.infer<typeof cashMoveRowSchema>;

/** Per shift, currency and kind: the sum of the moves (signed) and how many there were. */
export const cashTotalRowSchema = z.object({
  shift_id: z.string(),
  currency: z.enum(currencies),
  kind: z.enum(cashMoveKinds),
  amount_cents: z.number().int(),
  count: z.number().int(),
});
export type CashTotalRow = z.infer<typeof cashTotalRowSchema>;

export const shiftCountRowSchema = z.object({
  shift_id: z.string(),
  currency: z.enum(currencies),
  expected_cents: z.number().int(),
  counted_cents: z.number().int(),
});
export type ShiftCountRow = z.infer<typeof shiftCountRowSchema>;

export const tillIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_.:-]{1,100}$/)
  .meta({ description: "The till (device) the drawer belongs to: 1 to 100 of A-Z a-z 0-9 _ . : -." });

const drawerCents = (description: string) =>
  z
    .number()
    .int()
    .min(0)
    .max(DRAWER_CENTS_MAX)
    .meta({ [ERROR_CODE_META_KEY]: "invalid_amount", description });

/** A list of amounts, at most one per currency. */
const perCurrency = (description: string) =>
  z
    .array(z.strictObject({ currency: currencySchema, amount_cents: drawerCents(`${description} (cents, ≥ 0).`) }))
    .max(currencies.length)
    .refine((rows) => new Set(rows.map((row) => row.currency)).size === rows.length, "each currency at most once")
    .meta({ description: `${description}, at most one entry per currency.` });

export const openShiftBody = z.strictObject({
  till_id: tillIdSchema,
  float: perCurrency("The counted opening float").default([]),
});
export type OpenShiftInput = z.output<typeof openShiftBody>;

export const cashMoveBody = z.strictObject({
  kind: z.enum(["pay_in", "pay_out"]).meta({ description: "pay_in: cash put in; pay_out: cash taken out." }),
  currency: currencySchema,
  amount_cents: drawerCents("Cents moved (positive).").min(1),
  reason: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .meta({ description: "Why (e.g. 'change from the bank', 'paid the cleaner')." }),
});
export type CashMoveInput = z.output<typeof cashMoveBody>;

export const closeShiftBody = z.strictObject({
  counted: perCurrency(
    "The cash counted in the drawer; every currency the shift holds (a float or any move) must be counted",
  ),
  note: z.string().trim().max(500).optional(),
});
export type CloseShiftInput = z.output<typeof closeShiftBody>;

export const shiftIdParams = z.strictObject({ id: z.string().max(100) });

export const listShiftsQuery = z.strictObject({
  till_id: tillIdSchema.optional(),
  status: z.enum(shiftStatuses).optional(),
  limit: limitSchema({ max: 100, fallback: 20 }),
  cursor: cursorSchema,
});

export const listCashMovesQuery = z.strictObject({
  limit: limitSchema({ max: 100, fallback: 100 }),
  cursor: cursorSchema,
});

const actorSchema = z.object({ type: z.enum(actorKinds), id: z.string() });

export const shiftCashSchema = z.object({
  currency: z.enum(currencies),
  float_cents: z.number().int(),
  cash_sales_cents: z.number().int(),
  cash_sales_count: z.number().int(),
  refunds_cents: z.number().int().meta({ description: "Cash paid back for returns (a positive amount out)." }),
  refunds_count: z.number().int(),
  pay_ins_cents: z.number().int(),
  pay_outs_cents: z.number().int().meta({ description: "A positive amount out." }),
  expected_cents: z.number().int().meta({
    description: "float + cash sales + pay-ins − refunds − pay-outs (frozen at close).",
  }),
  counted_cents: z.number().int().nullable().meta({ description: "Null while open." }),
  over_short_cents: z
    .number()
    .int()
    .nullable()
    .meta({ description: "counted − expected: positive over, negative short; null while open." }),
});

export const shiftSchema = z
  .object({
    id: z.string(),
    object: z.literal("shift"),
    livemode: z.boolean(),
    till_id: z.string(),
    status: z.enum(shiftStatuses),
    cash: z.array(shiftCashSchema).meta({ description: "One entry per currency, USD and ZWG, always both." }),
    opened_by: actorSchema,
    closed_by: actorSchema.nullable(),
    close_note: z.string().nullable(),
    opened_at: z.iso.datetime(),
    closed_at: z.iso.datetime().nullable(),
  })
  .meta({ id: "Shift" });

export const shiftPageSchema = pageSchema(shiftSchema);

export const cashMoveSchema = z
  .object({
    id: z.string(),
    object: z.literal("shift_cash_move"),
    shift_id: z.string(),
    kind: z.enum(cashMoveKinds),
    currency: z.enum(currencies),
    amount_cents: z.number().int().meta({ description: "Signed: into the drawer positive, out negative." }),
    reason: z.string().nullable(),
    sale_id: z.string().nullable(),
    return_id: z.string().nullable(),
    actor: actorSchema,
    created_at: z.iso.datetime(),
  })
  .meta({ id: "ShiftCashMove" });

export const cashMovePageSchema = pageSchema(cashMoveSchema);

export const cashMoveResultSchema = z
  .object({ cash_move: cashMoveSchema, shift: shiftSchema })
  .meta({ id: "ShiftCashMoveResult" });

/** Who did something, with the name a person reads (a cashier's, a till's, "Owner", "API key …1234"). */
const namedActorSchema = actorSchema.extend({ name: z.string() });

/** Per actor of a shift's moves: how many cash sales and refunds were theirs. */
export const actorMoveCountRowSchema = z.object({
  actor_type: z.enum(actorKinds),
  actor_id: z.string(),
  cash_sales_count: z.number().int(),
  refunds_count: z.number().int(),
});
export type ActorMoveCountRow = z.infer<typeof actorMoveCountRowSchema>;

export const actorNameRowSchema = z.object({ type: z.enum(actorKinds), id: z.string(), name: z.string() });
export type ActorNameRow = z.infer<typeof actorNameRowSchema>;

/** How many of a shift's drawer moves other than cash sales a Z report lists (a shift has a few). */
export const Z_REPORT_MOVES_MAX = 200;

/** A shift's cash sales' discounts and tax per currency (the Z report's `sales`). */
export const zReportSalesRowSchema = z.object({
  currency: z.enum(currencies),
  sales_count: z.number().int(),
  discount_cents: z.number().int(),
  tax_cents: z.number().int(),
  taxes: z
    .array(z.object({ rate_bp: z.number().int(), taxable_cents: z.number().int(), tax_cents: z.number().int() }))
    .meta({ description: "Tax per rate over the shift's sales, lowest rate first." }),
});
export type ZReportSalesRow = z.infer<typeof zReportSalesRowSchema>;

export const zReportSchema = z
  .object({
    object: z.literal("z_report"),
    shift: shiftSchema,
    till: z.object({
      id: z.string(),
      name: z.string().nullable().meta({ description: "The paired till's name; null for a till that is not paired." }),
    }),
    opened_by: namedActorSchema,
    closed_by: namedActorSchema.nullable(),
    cashiers: z
      .array(namedActorSchema.extend({ cash_sales_count: z.number().int(), refunds_count: z.number().int() }))
      .meta({
        description: "Everyone who opened, closed or moved cash in the shift, with their cash sales and refunds.",
      }),
    cash_moves: z.array(cashMoveSchema.extend({ actor: namedActorSchema })).meta({
      description: `The drawer's moves other than cash sales (float, pay-ins, pay-outs, refunds), oldest first, at most ${Z_REPORT_MOVES_MAX}; cash sales are counted in \`shift.cash\`.`,
    }),
    cash_moves_has_more: z.boolean().meta({ description: "True when the shift has more such moves than listed." }),
    sales: z.array(zReportSalesRowSchema).meta({
      description: "The shift's completed sales per currency: their count, discounts, and tax per rate.",
    }),
  })
  .meta({ id: "ZReport" });
