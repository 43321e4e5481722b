import { CheckIntegrityConstraintViolationError, type FragmentSqlToken } from "slonik";
import { z } from "zod";
import { type Currency, currencies } from "../../kernel/money.ts";
import type { Queryable, Transaction } from "../../platform/db/pool.ts";
import { insufficientFunds, notFound } from "../../platform/errors.ts";
import { decodeCursor, type Page, toPage } from "../../platform/http/pagination.ts";
import { newId } from "../../platform/ids.ts";
import * as queries from "./queries.ts";
import type { EntryRow, EntryType, PostingInput, PostingRow, TransactionRow } from "./schemas.ts";

/**
 * The only way money moves: `post` records one balanced ledger transaction inside the caller's
 * database transaction, so the movement commits with the change that caused it or not at all.
 *
 * Invariants, each also enforced by the database (see the money-core migration):
 * - the postings of a transaction sum to zero per currency (asserted here before writing and after
 *   reading back, and checked again by a deferred trigger at commit);
 * - ledger rows are never updated or deleted; a correction is a reversal, a new transaction;
 * - a merchant's available balance never goes below zero: the debit that would overdraw it fails on
 *   the balance row's check constraint, under that row's lock, and becomes a 402 `insufficient_funds`;
 * - a movement is recorded once: its `postingKey` is unique per merchant, and posting it again
 *   returns the original transaction instead of moving money twice.
 */

export type PostedTransaction = {
  transaction: TransactionRow;
  postings: readonly PostingRow[];
  /** False when the posting key had already been used: nothing was moved this time. */
  created: boolean;
};

const AVAILABLE_NOT_NEGATIVE = "ledger_balances_available_not_negative";

/** A balanced movement to record (see `post`). */
export type PostingRequest = {
  merchantId: string;
  livemode: boolean;
  postingKey: string;
  description: string;
  source: { type: string; id: string };
  postings: readonly PostingInput[];
  reversesTransactionId?: string;
};

export async function post(transaction: Transaction, input: PostingRequest): Promise<PostedTransaction> {
  const prepared = preparePosting(input);
  const inserted = await queries.insertTransaction(transaction, prepared.row);
  if (inserted === null) {
    const existing = await queries.selectTransaction(transaction, input.merchantId, { postingKey: input.postingKey });
    if (existing === null) {
      throw new Error(`ledger transaction with posting key ${input.postingKey} vanished`);
    }
    const postings = await queries.selectPostingsOfTransaction(transaction, input.merchantId, existing.id);
    return { transaction: existing, postings, created: false };
  }
  let postings: readonly PostingRow[];
  try {
    postings = await queries.insertPostings(transaction, {
      merchantId: input.merchantId,
      livemode: input.livemode,
      transactionId: inserted.id,
      postings: prepared.postings,
    });
  } catch (error) {
    throw insufficientFundsOf(error);
  }
  assertBalanced(
    postings.map((posting) => ({
      account: posting.account,
      entryType: posting.entry_type,
      currency: posting.currency,
      amountCents: posting.amount_cents,
    })),
  );
  return { transaction: inserted, postings, created: true };
}

/**
 * Credits first: a transaction that credits and debits the same balance must not fail on the
 * intermediate state. Each posting gets its id.
 */
function creditsFirst(postings: readonly PostingInput[]): (PostingInput & { id: string })[] {
  return [...postings]
    .sort((left, right) => right.amountCents - left.amountCents)
    .map((posting) => ({ ...posting, id: newId("le") }));
}

/**
 * A debit beyond the available balance fails on the balance row's check constraint, under its lock:
 * that failure as the 402 `insufficient_funds` it means; any other error as it is.
 */
export function insufficientFundsOf(error: unknown): unknown {
  return error instanceof CheckIntegrityConstraintViolationError && error.constraint === AVAILABLE_NOT_NEGATIVE
    ? insufficientFunds()
    : error;
}

/** A movement ready to be written inside a caller's statement (`postingCtes`). */
export type PreparedPosting = queries.TransactionToPost & { transactionId: string };

/**
 * A new movement (a posting key used nowhere yet) for a caller that writes it inside its own
 * statement, beside the change that causes it, in one round trip: its postings asserted balanced
 * (the deferred trigger checks them again at commit), credits first, and its ledger transaction's id
 * drawn (`transactionId`, for the caller's rows that name it).
 */
export function preparePosting(input: PostingRequest): PreparedPosting {
  assertBalanced(input.postings);
  const transactionId = newId("ltx");
  return {
    transactionId,
    row: {
      merchant_id: input.merchantId,
      id: transactionId,
      livemode: input.livemode,
      posting_key: input.postingKey,
      description: input.description,
      source_type: input.source.type,
      source_id: input.source.id,
      reverses_transaction_id: input.reversesTransactionId ?? null,
    },
    postings: creditsFirst(input.postings),
  };
}

/**
 * Prepared movements as data-modifying CTEs of the caller's statement: each written only when `when`
 * holds for it (`when` may name the candidate transaction `c`: its `merchant_id`, `id`, …), and the
 * CTE `ledger_posted` (`merchant_id`, `id`) lists those written. The same invariants hold as for
 * `post`: each posting is applied to its balance under the balance row's lock, in the order given
 * (a caller writing several orders them by merchant, so that statements lock balances in one order),
 * the deferred trigger checks each transaction at commit, and a debit beyond the available balance
 * fails the whole statement (map its error with `insufficientFundsOf`).
 */
export function postingCtes(postings: readonly PreparedPosting[], when: FragmentSqlToken): FragmentSqlToken {
  return queries.postingCtes(postings, when);
}

/**
 * Reverses a transaction with a new one that references it and posts the opposite amounts. A
 * transaction is reversed at most once: reversing it again returns the first reversal.
 */
export async function reverse(
  transaction: Transaction,
  input: { merchantId: string; transactionId: string; description: string; entryType?: EntryType },
): Promise<PostedTransaction> {
  const original = await queries.selectTransaction(transaction, input.merchantId, { id: input.transactionId });
  if (original === null) {
    throw notFound(`No ledger transaction ${input.transactionId}.`);
  }
  const postings = await queries.selectPostingsOfTransaction(transaction, input.merchantId, original.id);
  return post(transaction, {
    merchantId: input.merchantId,
    livemode: original.livemode,
    postingKey: `reversal:${original.id}`,
    description: input.description,
    source: { type: original.source_type, id: original.source_id },
    reversesTransactionId: original.id,
    postings: postings.map((posting) => ({
      account: posting.account,
      entryType: input.entryType ?? "reversal",
      currency: posting.currency,
      amountCents: -posting.amount_cents,
    })),
  });
}

/** A bug, not a user error: postings that do not balance never reach the database. */
function assertBalanced(postings: readonly PostingInput[]): void {
  if (postings.length < 2) {
    throw new Error(`A ledger transaction needs at least two postings, got ${postings.length}`);
  }
  const totals = new Map<string, number>();
  for (const posting of postings) {
    if (!Number.isSafeInteger(posting.amountCents) || posting.amountCents === 0) {
      throw new Error(`Posting amount must be a non-zero integer number of cents, got ${posting.amountCents}`);
    }
    totals.set(posting.currency, (totals.get(posting.currency) ?? 0) + posting.amountCents);
  }
  for (const [currency, total] of totals) {
    if (total !== 0) {
      throw new Error(`Ledger postings do not balance: ${currency} sums to ${total}`);
    }
  }
}

/** The merchant's available balance in every currency (zero where nothing was ever posted). */
export async function getAvailableBalances(
  database: Queryable,
  tenant: { merchantId: string; livemode: boolean },
): Promise<{ currency: Currency; amount_cents: number }[]> {
  const rows = await queries.selectAccountBalances(database, { ...tenant, account: "merchant_available" });
  return currencies.map((currency) => ({
    currency,
    amount_cents: rows.find((row) => row.currency === currency)?.balance_cents ?? 0,
  }));
}

const seqCursor = z.tuple([z.number().int().nonnegative()]);

export async function listEntries(
  database: Queryable,
  filter: queries.EntryFilter & { cursor?: string | undefined },
): Promise<Page<EntryRow>> {
  const beforeSeq = filter.cursor === undefined ? undefined : decodeCursor(filter.cursor, seqCursor)[0];
  const rows = await queries.selectEntries(database, {
    ...filter,
    order: "newest_first",
    pastSeq: beforeSeq,
    limit: filter.limit + 1,
  });
  return toPage(rows, { limit: filter.limit, keyOf: (row) => [row.seq], present: (row) => row });
}

/**
 * The entries of a statement period, oldest first, fetched in batches so that a year of entries is
 * streamed in constant memory. Each row carries its balance after posting, per currency.
 */
export async function* statementEntries(
  database: Queryable,
  period: { merchantId: string; livemode: boolean; from?: Date | undefined; to: Date },
  batchSize = 1000,
): AsyncGenerator<EntryRow> {
  let afterSeq: number | undefined;
  for (;;) {
    const batch = await queries.selectEntries(database, {
      ...period,
      order: "oldest_first",
      pastSeq: afterSeq,
      limit: batchSize,
    });
    yield* batch;
    if (batch.length < batchSize) {
      return;
    }
    afterSeq = batch.at(-1)?.seq;
  }
}

/** The available balance per currency just before `before` (zero before the first entry). */
export async function availableBalancesBefore(
  database: Queryable,
  options: { merchantId: string; livemode: boolean; before: Date | undefined },
): Promise<Map<Currency, number>> {
  const balances = new Map<Currency, number>();
  for (const currency of currencies) {
    const before = options.before;
    balances.set(
      currency,
      before === undefined ? 0 : await queries.selectAvailableBalanceBefore(database, { ...options, currency, before }),
    );
  }
  return balances;
}
