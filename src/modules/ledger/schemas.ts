import { z } from "zod";
import { type Currency, currencies } from "../../kernel/money.ts";
import { invalidRequest } from "../../platform/errors.ts";
import { cursorSchema, limitSchema, pageSchema, timestampQuerySchema } from "../../platform/http/pagination.ts";

/**
 * The ledger's accounts. Each is kept per merchant, world and currency; only `merchant_available` is
 * the merchant's money (what `/v1/balance` shows and payouts draw on), and it can never go below zero.
 */
export const ledgerAccounts = [
  "merchant_available",
  "platform_fees",
  "gateway_clearing",
  "payouts_in_transit",
  "commissions",
  "adjustments",
  "utility_clearing",
] as const;
export type LedgerAccount = (typeof ledgerAccounts)[number];

/** What a posting records: the `entry_type` filter of `GET /v1/ledger` takes these values. */
export const entryTypes = [
  "payment",
  "fee",
  "payout",
  "withdrawal",
  "bank_change",
  "utility_payment",
  "commission",
  "reversal",
  "adjustment",
] as const;
export type EntryType = (typeof entryTypes)[number];

export type PostingInput = {
  account: LedgerAccount;
  entryType: EntryType;
  currency: Currency;
  /** Signed: positive increases the account's balance. */
  amountCents: number;
};

export const transactionRowSchema = z.object({
  merchant_id: z.string(),
  id: z.string(),
  livemode: z.boolean(),
  posting_key: z.string(),
  description: z.string(),
  source_type: z.string(),
  source_id: z.string(),
  reverses_transaction_id: z.string().nullable(),
  created_at: z.date(),
});
export type TransactionRow = z.infer<typeof transactionRowSchema>;

export const postingRowSchema = z.object({
  merchant_id: z.string(),
  id: z.string(),
  transaction_id: z.string(),
  livemode: z.boolean(),
  account: z.enum(ledgerAccounts),
  entry_type: z.enum(entryTypes),
  currency: z.enum(currencies),
  amount_cents: z.number().int(),
  balance_after_cents: z.number().int(),
  seq: z.number().int(),
  created_at: z.date(),
});
export type PostingRow = z.infer<typeof postingRowSchema>;

/** A merchant posting as the API shows it, with its transaction's description and source. */
export const entryRowSchema = postingRowSchema.extend({
  description: z.string(),
  source_type: z.string(),
  source_id: z.string(),
  reverses_transaction_id: z.string().nullable(),
  source_merchant_ref: z.string().nullable(),
});
export type EntryRow = z.infer<typeof entryRowSchema>;

export const balanceSchema = z
  .object({
    object: z.literal("balance"),
    livemode: z.boolean(),
    available: z.array(z.object({ currency: z.enum(currencies), amount_cents: z.number().int() })),
  })
  .meta({ id: "Balance" });

export const ledgerEntrySchema = z
  .object({
    id: z.string(),
    object: z.literal("ledger_entry"),
    livemode: z.boolean(),
    transaction_id: z.string(),
    entry_type: z.enum(entryTypes),
    currency: z.enum(currencies),
    amount_cents: z.number().int().meta({ description: "Signed: credits are positive, debits negative." }),
    balance_after_cents: z.number().int(),
    description: z.string(),
    source: z.object({
      type: z.string(),
      id: z.string(),
      merchant_ref: z
        .string()
        .nullable()
        .meta({ description: "The payment's merchant_ref when the source is a payment; else null." }),
    }),
    reverses_transaction_id: z.string().nullable(),
    created_at: z.iso.datetime(),
  })
  .meta({ id: "LedgerEntry" });

export const ledgerPageSchema = pageSchema(ledgerEntrySchema);

export const listLedgerQuery = z.strictObject({
  entry_type: z.enum(entryTypes).optional(),
  from: timestampQuerySchema.optional().meta({ description: "Entries at or after this time." }),
  to: timestampQuerySchema.optional().meta({ description: "Entries before this time." }),
  limit: limitSchema({ max: 100, fallback: 20 }),
  cursor: cursorSchema,
});

/** The longest statement period that names its start, as the sales report's (a year, leap years included). */
export const STATEMENT_PERIOD_DAYS_MAX = 366;

export const statementQuery = z.strictObject({
  from: timestampQuerySchema.optional().meta({
    description: `Statement start (inclusive); default: the first entry. At most ${STATEMENT_PERIOD_DAYS_MAX} days before \`to\`.`,
  }),
  to: timestampQuerySchema.optional().meta({ description: "Statement end (exclusive); default: now." }),
});

/**
 * The statement's period: `to` defaults to now; `from` (when given) must be before `to` and at most
 * `STATEMENT_PERIOD_DAYS_MAX` days before it. Without `from` the statement starts at the first entry.
 */
export function statementPeriod(
  query: { from?: Date | undefined; to?: Date | undefined },
  now: Date,
): { from: Date | undefined; to: Date } {
  const to = query.to ?? now;
  if (query.from !== undefined) {
    if (query.from >= to) {
      throw invalidRequest("parameter_invalid", "from must be before to (to defaults to now).");
    }
    if (to.getTime() - query.from.getTime() > STATEMENT_PERIOD_DAYS_MAX * 86_400_000) {
      throw invalidRequest("parameter_invalid", `A statement covers at most ${STATEMENT_PERIOD_DAYS_MAX} days.`);
    }
  }
  return { from: query.from, to };
}
