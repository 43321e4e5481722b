import { z } from "zod";
import { currencies } from "../../kernel/money.ts";
import { currencySchema } from "../../kernel/money-schemas.ts";

/** What a sales breakdown groups by (`GET /v1/sales/reports/:dimension`). */
export const breakdownDimensions = ["day", "item", "category", "cashier", "till", "tender"] as const;
export type BreakdownDimension = (typeof breakdownDimensions)[number];

export const breakdownParams = z.strictObject({ dimension: z.enum(breakdownDimensions) });

/**
 * Years a report may name: PostgreSQL has no year 0, and a date's midnight in a zone ahead of UTC can
 * fall in the year before (or after) it, so the bounds keep clear of both ends; no shop reports on them.
 */
const withinReportYears = (year: number) => year >= 1000 && year <= 9998;
const REPORT_YEARS_MESSAGE = "expected a date or instant in the years 1000 to 9998";

/**
 * A bound of the period: a date is a whole day in the merchant's time zone (its midnight there), an
 * instant is itself. A date is what people mean by "from the 1st to the 30th".
 */
const periodBoundSchema = z.union([
  z.iso
    .datetime({ offset: true })
    .transform((value) => ({ instant: new Date(value) }) as const)
    .refine((bound) => withinReportYears(bound.instant.getUTCFullYear()), REPORT_YEARS_MESSAGE),
  z.iso
    .date()
    .transform((value) => ({ date: value }) as const)
    .refine((bound) => withinReportYears(Number(bound.date.slice(0, 4))), REPORT_YEARS_MESSAGE),
]);

export type PeriodBound = z.infer<typeof periodBoundSchema>;

export const breakdownQuery = z.strictObject({
  from: periodBoundSchema.optional().meta({
    description:
      "Start (included): a date (YYYY-MM-DD, that day's midnight in the merchant's time zone) or an instant with " +
      "offset. Default: start of today in the merchant's time zone.",
  }),
  to: periodBoundSchema.optional().meta({
    description:
      "End (excluded): a date (that day's midnight in the merchant's time zone: to=2026-12-01 ends with November) " +
      "or an instant. Default: start of tomorrow in the merchant's time zone.",
  }),
  currency: currencySchema.optional().meta({ description: "Only this currency's rows (default: both)." }),
});

const figures = {
  count: z.number().int().meta({
    description: "Completed sales in the row; for item and category, units sold (before returns).",
  }),
  gross_cents: z.number().int().meta({ description: "What the sales came to before discounts (tax included)." }),
  discount_cents: z.number().int().meta({ description: "Discounts given on those sales." }),
  refund_cents: z.number().int().meta({ description: "Refunds paid in the period (by return time)." }),
  tax_cents: z.number().int().meta({ description: "Tax on those sales (included in gross and net)." }),
  net_cents: z.number().int().meta({ description: "gross − discounts − refunds: the takings kept, tax included." }),
};

export const breakdownRowSchema = z.object({
  key: z
    .string()
    .nullable()
    .meta({
      description:
        "day: YYYY-MM-DD (merchant's time zone); item: product id (null for an ad hoc line); category: the " +
        "product's category now (null: none); cashier: who recorded the sale (cashier, till device, dashboard " +
        "user or API key id); till: till id (null: no till); tender: cash or wallet.",
    }),
  label: z.string().meta({ description: "The key as people read it: names as they are now." }),
  currency: z.enum(currencies),
  ...figures,
});
export type BreakdownRow = z.infer<typeof breakdownRowSchema>;

export const breakdownTotalSchema = z.object({ currency: z.enum(currencies), ...figures });

export const salesBreakdownSchema = z
  .object({
    object: z.literal("sales_breakdown"),
    livemode: z.boolean(),
    dimension: z.enum(breakdownDimensions),
    timezone: z.string(),
    from: z.iso.datetime(),
    to: z.iso.datetime(),
    rows: z.array(breakdownRowSchema),
    totals: z.array(breakdownTotalSchema).meta({
      description: "Per currency (both listed unless `currency` is given): the sum of the rows.",
    }),
  })
  .meta({ id: "SalesBreakdown" });
