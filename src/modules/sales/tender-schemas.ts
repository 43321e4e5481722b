import { z } from "zod";
import { ERROR_CODE_META_KEY } from "../../kernel/error-code.ts";
import { currencies } from "../../kernel/money.ts";
import { currencySchema } from "../../kernel/money-schemas.ts";
import { tillIdSchema } from "../shifts/index.ts";

/**
 * Split and two-currency tender (docs/shop.md, "Split and two-currency tender"; the arithmetic is
 * `src/kernel/tender.ts`): the request fields, a tender's row and its representation.
 */

export const tenderKinds = ["cash", "wallet"] as const;
export const tenderStatuses = ["paid", "pending", "failed"] as const;
/** At most this many tenders in one request (a sale may gather more, one POST of a tender at a time). */
export const SALE_REQUEST_TENDERS_MAX = 4;
/** At most this many tenders on one sale, failed ones included. */
export const SALE_TENDERS_MAX = 16;
/** A tender's amount in any currency: far above any basket at any rate, far below where cents lose precision. */
export const TENDER_AMOUNT_CENTS_MAX = 1_000_000_000_000_000;

export const tenderInput = z.strictObject({
  kind: z.enum(tenderKinds).meta({ description: "cash (may exceed what is due: change) or wallet (a payment code)." }),
  currency: currencySchema,
  amount_cents: z
    .number()
    .int()
    .min(1)
    .max(TENDER_AMOUNT_CENTS_MAX)
    .meta({ [ERROR_CODE_META_KEY]: "invalid_amount", description: "What this tender pays, in its own currency." }),
});
export type TenderInputBody = z.output<typeof tenderInput>;

const exchangeRateId = z
  .string()
  .min(1)
  .max(100)
  .meta({
    description:
      "The rate the cashier used (an exchange_rate of the merchant, base = the basket's currency, other = the " +
      "tender's): required when a tender or the change is in another currency than the basket's. It may be " +
      "an older rate (an offline sale is priced with the rate the till had).",
  });
const changeCurrency = currencySchema.meta({
  description: "The currency change is given in (default: the basket's).",
});

/** The fields of `POST /v1/sales` that make a split sale. */
export const splitSaleFields = {
  tenders: z
    .array(tenderInput)
    .min(1)
    .max(SALE_REQUEST_TENDERS_MAX)
    .optional()
    .meta({
      description:
        `1 to ${SALE_REQUEST_TENDERS_MAX} tenders in the order they were taken (instead of tender/tendered_cents: ` +
        "both is parameter_invalid). Cash only and covered: completed at once. With a wallet tender: pending " +
        "until every wallet tender is paid.",
    }),
  change_currency: changeCurrency.optional(),
  exchange_rate_id: exchangeRateId.optional(),
};

/** `POST /v1/sales/:id/tenders`. */
export const addTenderBody = tenderInput.extend({
  exchange_rate_id: exchangeRateId.optional(),
  change_currency: changeCurrency.optional(),
  till_id: tillIdSchema.optional().meta({
    description:
      "The sale's till, if given: a cash tender goes into the sale's drawer (its till needs an open shift), the " +
      "one a cancel gives it back from; another till is refused with 400 parameter_invalid.",
  }),
});
export type AddTenderInput = z.output<typeof addTenderBody>;

export const saleTenderRowSchema = z.object({
  merchant_id: z.string(),
  sale_id: z.string(),
  position: z.number().int(),
  livemode: z.boolean(),
  kind: z.enum(tenderKinds),
  status: z.enum(tenderStatuses),
  currency: z.enum(currencies),
  amount_cents: z.number().int(),
  credit_cents: z.number().int(),
  contributed_cents: z.number().int(),
  exchange_rate_id: z.string().nullable(),
  other_per_base_micros: z.number().int().nullable(),
  change_currency: z.enum(currencies).nullable(),
  change_cents: z.number().int().nullable(),
  payment_id: z.string().nullable(),
  shift_id: z.string().nullable(),
  created_at: z.date(),
});
export type SaleTenderRow = z.infer<typeof saleTenderRowSchema>;

export const saleTenderSchema = z.object({
  kind: z.enum(tenderKinds),
  currency: z.enum(currencies),
  amount_cents: z.number().int(),
  credit_cents: z.number().int().meta({ description: "What it counts for, in the basket's currency." }),
  contributed_cents: z.number().int().meta({ description: "Its credit less the change it gave (basket currency)." }),
  net_amount_cents: z
    .number()
    .int()
    .meta({
      description:
        "What it paid in its own currency net of the change it gave (its amount less that change when the change " +
        "was in its currency, else in proportion to what it contributed, rounded half up; 0 unless paid): what a " +
        "full return or a cancel gives back for it.",
    }),
  exchange_rate_id: z.string().nullable().meta({ description: "The rate used (null in the basket's currency)." }),
  other_per_base_micros: z.number().int().nullable(),
  status: z.enum(tenderStatuses).meta({
    description:
      "paid; pending (a wallet tender not paid yet); failed (its payment expired or failed: it paid nothing).",
  }),
  payment_id: z.string().nullable().meta({ description: "A wallet tender's payment (null for cash)." }),
});

export const saleChangeSchema = z
  .object({ currency: z.enum(currencies), amount_cents: z.number().int() })
  .nullable()
  .meta({ description: "The change given, in the currency it was given in (null: none)." });

export const returnRefundSchema = z.object({
  currency: z.enum(currencies),
  amount_cents: z.number().int(),
  tender_index: z.number().int().meta({ description: "The sale's tender (0-based) this share pays back." }),
});
export type ReturnRefund = z.infer<typeof returnRefundSchema>;
