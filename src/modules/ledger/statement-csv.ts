import { Readable } from "node:stream";
import { stringify } from "csv-stringify";
import { currencies } from "../../kernel/money.ts";
import type { Queryable } from "../../platform/db/pool.ts";
import { availableBalancesBefore, statementEntries } from "./service.ts";

/**
 * The statement CSV (RFC 4180, CRLF line ends, UTF-8 with a byte-order mark so spreadsheets detect the
 * encoding). One `opening_balance` row per currency, one row per entry of the period with the balance
 * after it in its currency, one `closing_balance` row per currency. Amounts appear twice: exact integer
 * cents, and in major units for people. Text that a spreadsheet would run as a formula is escaped.
 */
export const STATEMENT_COLUMNS = [
  "posted_at",
  "currency",
  "entry_type",
  "description",
  "amount",
  "balance",
  "amount_cents",
  "balance_cents",
  "entry_id",
  "transaction_id",
  "source_type",
  "source_id",
] as const;

type StatementRow = Record<(typeof STATEMENT_COLUMNS)[number], string | number>;

const toMajorUnits = (cents: number) => cents / 100;

function balanceRow(
  kind: "opening_balance" | "closing_balance",
  at: Date | undefined,
  currency: string,
  cents: number,
) {
  return {
    posted_at: at?.toISOString() ?? "",
    currency,
    entry_type: kind,
    description: kind === "opening_balance" ? "Opening balance" : "Closing balance",
    amount: "",
    balance: toMajorUnits(cents),
    amount_cents: "",
    balance_cents: cents,
    entry_id: "",
    transaction_id: "",
    source_type: "",
    source_id: "",
  } satisfies StatementRow;
}

async function* statementRows(
  database: Queryable,
  period: { merchantId: string; livemode: boolean; from: Date | undefined; to: Date },
): AsyncGenerator<StatementRow> {
  const running = await availableBalancesBefore(database, { ...period, before: period.from });
  for (const currency of currencies) {
    yield balanceRow("opening_balance", period.from, currency, running.get(currency) ?? 0);
  }
  for await (const entry of statementEntries(database, period)) {
    running.set(entry.currency, entry.balance_after_cents);
    yield {
      posted_at: entry.created_at.toISOString(),
      currency: entry.currency,
      entry_type: entry.entry_type,
      description: entry.description,
      amount: toMajorUnits(entry.amount_cents),
      balance: toMajorUnits(entry.balance_after_cents),
      amount_cents: entry.amount_cents,
      balance_cents: entry.balance_after_cents,
      entry_id: entry.id,
      transaction_id: entry.transaction_id,
      source_type: entry.source_type,
      source_id: entry.source_id,
    };
  }
  for (const currency of currencies) {
    yield balanceRow("closing_balance", period.to, currency, running.get(currency) ?? 0);
  }
}

/** Streams the statement: rows are read in batches and written as they come, in constant memory. */
export function statementCsv(
  database: Queryable,
  period: { merchantId: string; livemode: boolean; from: Date | undefined; to: Date },
): Readable {
  const csv = stringify({
    header: true,
    columns: [...STATEMENT_COLUMNS],
    bom: true,
    record_delimiter: "windows",
    escape_formulas: true,
  });
  const rows = Readable.from(statementRows(database, period));
  rows.on("error", (error) => csv.destroy(error));
  return rows.pipe(csv);
}
