import { z } from "zod";
import { ERROR_CODE_META_KEY } from "./error-code.ts";
import { currencies } from "./money.ts";

/**
 * The request fields every money operation shares. Separate from `money.ts` because they bring zod:
 * browser code imports these only as types.
 */

/** A positive integer amount of cents: the specification's `invalid_amount` when it is not. */
export const amountCentsSchema = z
  .number()
  .int()
  .positive()
  .max(Number.MAX_SAFE_INTEGER)
  .meta({ [ERROR_CODE_META_KEY]: "invalid_amount", description: "Amount in integer cents, positive." });

/** `USD` or `ZWG`: the specification's `invalid_currency` otherwise. */
export const currencySchema = z
  .enum(currencies)
  .meta({ [ERROR_CODE_META_KEY]: "invalid_currency", description: "Currency: USD or ZWG." });
