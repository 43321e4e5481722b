import { z } from "zod";
import { currencies } from "../../kernel/money.ts";
import { currencySchema } from "../../kernel/money-schemas.ts";
import { cursorSchema, limitSchema, pageSchema } from "../../platform/http/pagination.ts";
import { actorKinds } from "../../platform/tenant.ts";

export const exchangeRateRowSchema = z.object({
  merchant_id: z.string(),
  id: z.string(),
  livemode: z.boolean(),
  base_currency: z.enum(currencies),
  other_currency: z.enum(currencies),
  other_per_base_micros: z.coerce.number().int(),
  actor_type: z.enum(actorKinds),
  actor_id: z.string(),
  created_at: z.date(),
});
export type ExchangeRateRow = z.infer<typeof exchangeRateRowSchema>;

/** Six decimals at most, as rate boards and bank notices quote them; above zero, under a billion. */
const RATE_PATTERN = /^(0|[1-9][0-9]{0,8})(\.[0-9]{1,6})?$/;

export const rateSchema = z
  .string()
  .regex(RATE_PATTERN, "expected a decimal such as 26.7843 (at most 6 decimals)")
  .refine((rate) => /[1-9]/.test(rate), "expected a rate above zero")
  .meta({
    description: "How many of the other currency one unit of the base buys, e.g. `26.7843` (at most 6 decimals).",
  });

export const setExchangeRateBody = z
  .strictObject({ base: currencySchema, other: currencySchema, rate: rateSchema })
  .refine((body) => body.base !== body.other, { message: "base and other must differ.", path: ["other"] });

export const listExchangeRatesQuery = z.strictObject({
  base: currencySchema.optional(),
  other: currencySchema.optional(),
  limit: limitSchema({ max: 100, fallback: 20 }),
  cursor: cursorSchema,
});

export const exchangeRateSchema = z
  .object({
    id: z.string(),
    object: z.literal("exchange_rate"),
    livemode: z.boolean(),
    base: z.enum(currencies),
    other: z.enum(currencies),
    rate: z.string().meta({ description: "The rate as set, without trailing zeros." }),
    other_per_base_micros: z
      .number()
      .int()
      .meta({ description: "The rate in millionths: cents of `other` one cent of `base` is worth × 1,000,000." }),
    set_by: z.object({ type: z.enum(actorKinds), id: z.string() }),
    created_at: z.string(),
  })
  .meta({ id: "ExchangeRate" });

export const exchangeRatePageSchema = pageSchema(exchangeRateSchema);
export const currentExchangeRatesSchema = z.object({ data: z.array(exchangeRateSchema) });
