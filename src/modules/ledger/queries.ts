import type { FragmentSqlToken } from "slonik";
import { z } from "zod";
import { type Currency, currencies } from "../../kernel/money.ts";
import { type Queryable, sql, type Transaction } from "../../platform/db/pool.ts";
import {
  type EntryRow,
  type EntryType,
  entryRowSchema,
  type LedgerAccount,
  type PostingInput,
  type PostingRow,
  postingRowSchema,
  type TransactionRow,
  transactionRowSchema,
} from "./schemas.ts";

const TRANSACTION_COLUMNS = sql.fragment`merchant_id, id, livemode, posting_key, description, source_type, source_id, reverses_transaction_id, created_at`;
const POSTING_COLUMNS = sql.fragment`merchant_id, id, transaction_id, livemode, account, entry_type, currency, amount_cents, balance_after_cents, seq, created_at`;

/** Inserts the transaction; null when a transaction with the same posting key already exists. */
export async function insertTransaction(
  transaction: Transaction,
  row: Omit<TransactionRow, "created_at">,
): Promise<TransactionRow | null> {
  return transaction.maybeOne(sql.type(transactionRowSchema)`
    INSERT INTO ledger_transactions (merchant_id, id, livemode, posting_key, description, source_type, source_id, reverses_transaction_id)
    VALUES (${row.merchant_id}, ${row.id}, ${row.livemode}, ${row.posting_key}, ${row.description}, ${row.source_type},
      ${row.source_id}, ${row.reverses_transaction_id})
    ON CONFLICT (merchant_id, posting_key) DO NOTHING
    RETURNING ${TRANSACTION_COLUMNS}`);
}

/** A merchant's ledger transaction by its id or by the posting key it was made under. */
export async function selectTransaction(
  database: Queryable,
  merchantId: string,
  by: { id: string } | { postingKey: string },
): Promise<TransactionRow | null> {
  const match = "id" in by ? sql.fragment`id = ${by.id}` : sql.fragment`posting_key = ${by.postingKey}`;
  return database.maybeOne(sql.type(transactionRowSchema)`
    SELECT ${TRANSACTION_COLUMNS} FROM ledger_transactions WHERE merchant_id = ${merchantId} AND ${match}`);
}

/**
 * Inserts a transaction's postings in the given order: the database applies each to its account's
 * balance as it goes, so callers list credits before debits.
 */
export async function insertPostings(
  transaction: Transaction,
  batch: {
    merchantId: string;
    livemode: boolean;
    transactionId: string;
    postings: readonly (PostingInput & { id: string })[];
  },
): Promise<readonly PostingRow[]> {
  const column = (pick: (posting: PostingInput & { id: string }) => string | number, type: "text" | "int8") =>
    sql.array(batch.postings.map(pick), type);
  return transaction.any(sql.type(postingRowSchema)`
    INSERT INTO ledger_postings (merchant_id, id, transaction_id, livemode, account, entry_type, currency, amount_cents)
    SELECT ${batch.merchantId}, p.id, ${batch.transactionId}, ${batch.livemode}, p.account, p.entry_type, p.currency, p.amount_cents
    FROM unnest(
      ${column((posting) => posting.id, "text")}::text[],
      ${column((posting) => posting.account, "text")}::text[],
      ${column((posting) => posting.entryType, "text")}::text[],
      ${column((posting) => posting.currency, "text")}::text[],
      ${column((posting) => posting.amountCents, "int8")}::int8[]
    ) WITH ORDINALITY AS p (id, account, entry_type, currency, amount_cents, position)
    ORDER BY p.position
    RETURNING ${POSTING_COLUMNS}`);
}

/** A ledger transaction and its postings (in the order they are applied), for `postingCtes`. */
export type TransactionToPost = {
  row: Omit<TransactionRow, "created_at">;
  postings: readonly (PostingInput & { id: string })[];
};

/**
 * Ledger transactions and their postings as data-modifying CTEs, for a caller that writes them in
 * its own statement: `ledger_candidate` (the transactions offered), `ledger_posted` (`merchant_id`,
 * `id` of those written) and `ledger_posted_entries` (their postings). A candidate is written only
 * when `when` holds for it (`when` may name it `c`) and its posting key is new; its postings only
 * with it, in the order given, transaction after transaction (the database applies each to its
 * account's balance as it goes, under that balance row's lock; see `insertPostings`).
 */
export function postingCtes(transactions: readonly TransactionToPost[], when: FragmentSqlToken): FragmentSqlToken {
  const rows = transactions.map((transaction) => transaction.row);
  const postings = transactions.flatMap((transaction) =>
    transaction.postings.map((posting) => ({ ...posting, row: transaction.row })),
  );
  const text = <T>(values: readonly T[]) => sql.array(values as never[], "text");
  return sql.fragment`
    ledger_candidate AS (
      SELECT * FROM unnest(
        ${text(rows.map((row) => row.merchant_id))}::text[], ${text(rows.map((row) => row.id))}::text[],
        ${sql.array(
          rows.map((row) => row.livemode),
          "bool",
        )}::bool[], ${text(rows.map((row) => row.posting_key))}::text[],
        ${text(rows.map((row) => row.description))}::text[], ${text(rows.map((row) => row.source_type))}::text[],
        ${text(rows.map((row) => row.source_id))}::text[], ${text(rows.map((row) => row.reverses_transaction_id))}::text[])
      AS c (merchant_id, id, livemode, posting_key, description, source_type, source_id, reverses_transaction_id)),
    ledger_posted AS (
      INSERT INTO ledger_transactions (merchant_id, id, livemode, posting_key, description, source_type, source_id,
        reverses_transaction_id)
      SELECT c.merchant_id, c.id, c.livemode, c.posting_key, c.description, c.source_type, c.source_id,
        c.reverses_transaction_id
      FROM ledger_candidate c
      WHERE ${when}
      ON CONFLICT (merchant_id, posting_key) DO NOTHING
      RETURNING merchant_id, id),
    ledger_posted_entries AS (
      INSERT INTO ledger_postings (merchant_id, id, transaction_id, livemode, account, entry_type, currency, amount_cents)
      SELECT p.merchant_id, p.id, p.transaction_id, p.livemode, p.account, p.entry_type, p.currency, p.amount_cents
      FROM unnest(
        ${text(postings.map((posting) => posting.row.merchant_id))}::text[],
        ${text(postings.map((posting) => posting.id))}::text[],
        ${text(postings.map((posting) => posting.row.id))}::text[],
        ${sql.array(
          postings.map((posting) => posting.row.livemode),
          "bool",
        )}::bool[],
        ${text(postings.map((posting) => posting.account))}::text[],
        ${text(postings.map((posting) => posting.entryType))}::text[],
        ${text(postings.map((posting) => posting.currency))}::text[],
        ${sql.array(
          postings.map((posting) => posting.amountCents),
          "int8",
        )}::int8[]
      ) WITH ORDINALITY AS p (merchant_id, id, transaction_id, livemode, account, entry_type, currency, amount_cents,
        position)
      JOIN ledger_posted t ON t.merchant_id = p.merchant_id AND t.id = p.transaction_id
      ORDER BY p.position
      RETURNING id)`;
}

export async function selectPostingsOfTransaction(
  database: Queryable,
  merchantId: string,
  transactionId: string,
): Promise<readonly PostingRow[]> {
  return database.any(sql.type(postingRowSchema)`
    SELECT ${POSTING_COLUMNS} FROM ledger_postings
    WHERE merchant_id = ${merchantId} AND transaction_id = ${transactionId}
    ORDER BY seq`);
}

const balanceRowSchema = z.object({ currency: z.enum(currencies), balance_cents: z.number().int() });

export async function selectAccountBalances(
  database: Queryable,
  account: { merchantId: string; livemode: boolean; account: LedgerAccount },
): Promise<readonly z.infer<typeof balanceRowSchema>[]> {
  return database.any(sql.type(balanceRowSchema)`
    SELECT currency, balance_cents FROM ledger_balances
    WHERE merchant_id = ${account.merchantId} AND livemode = ${account.livemode} AND account = ${account.account}`);
}

// The payment's merchant_ref rides along so the dashboard shows the merchant's own reference, not the
// wallet's (a lookup by the payments table's primary key, one per row of a page).
const ENTRY_COLUMNS = sql.fragment`p.merchant_id, p.id, p.transaction_id, p.livemode, p.account, p.entry_type, p.currency,
  p.amount_cents, p.balance_after_cents, p.seq, p.created_at, t.description, t.source_type, t.source_id, t.reverses_transaction_id,
  CASE WHEN t.source_type = 'payment' THEN (
    SELECT pay.merchant_ref FROM payments pay WHERE pay.merchant_id = t.merchant_id AND pay.id = t.source_id
  ) END AS source_merchant_ref`;

export type EntryFilter = {
  merchantId: string;
  livemode: boolean;
  entryType?: EntryType | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
  limit: number;
};

/**
 * The merchant's available-balance postings in seq order: newest first, before `pastSeq` when given
 * (a page of the list), or oldest first, after it (a batch of a statement).
 */
export async function selectEntries(
  database: Queryable,
  filter: EntryFilter & { order: "newest_first" | "oldest_first"; pastSeq?: number | undefined },
): Promise<readonly EntryRow[]> {
  const newestFirst = filter.order === "newest_first";
  const past =
    filter.pastSeq === undefined
      ? sql.fragment``
      : newestFirst
        ? sql.fragment`AND p.seq < ${filter.pastSeq}`
        : sql.fragment`AND p.seq > ${filter.pastSeq}`;
  return database.any(sql.type(entryRowSchema)`
    SELECT ${ENTRY_COLUMNS}
    FROM ledger_postings p
    JOIN ledger_transactions t ON t.merchant_id = p.merchant_id AND t.id = p.transaction_id
    WHERE ${entryConditions(filter)} ${past}
    ORDER BY p.seq ${newestFirst ? sql.fragment`DESC` : sql.fragment`ASC`}
    LIMIT ${filter.limit}`);
}

function entryConditions(filter: EntryFilter) {
  const conditions = [
    sql.fragment`p.merchant_id = ${filter.merchantId}`,
    sql.fragment`p.livemode = ${filter.livemode}`,
    sql.fragment`p.account = 'merchant_available'`,
  ];
  if (filter.entryType !== undefined) {
    conditions.push(sql.fragment`p.entry_type = ${filter.entryType}`);
  }
  if (filter.from !== undefined) {
    conditions.push(sql.fragment`p.created_at >= ${filter.from.toISOString()}::timestamptz`);
  }
  if (filter.to !== undefined) {
    conditions.push(sql.fragment`p.created_at < ${filter.to.toISOString()}::timestamptz`);
  }
  return sql.join(conditions, sql.fragment` AND `);
}

/** The merchant's available balance in `currency` just before `before`: its last posting's balance. */
export async function selectAvailableBalanceBefore(
  database: Queryable,
  options: { merchantId: string; livemode: boolean; currency: Currency; before: Date },
): Promise<number> {
  const balance = await database.maybeOneFirst(sql.type(z.object({ balance_after_cents: z.number().int() }))`
    SELECT balance_after_cents FROM ledger_postings
    WHERE merchant_id = ${options.merchantId} AND livemode = ${options.livemode} AND account = 'merchant_available'
      AND currency = ${options.currency} AND created_at < ${options.before.toISOString()}::timestamptz
    ORDER BY created_at DESC
    LIMIT 1`);
  return balance ?? 0;
}
