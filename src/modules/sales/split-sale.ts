import { withFreshCodes } from "../../gateway/code-collisions.ts";
import type { World } from "../../kernel/world.ts";
import { sql, type Transaction } from "../../platform/db/pool.ts";
import { conflict, invalidRequest, notFound } from "../../platform/errors.ts";
import { requireOwnTill } from "../../platform/http/access.ts";
import { type CommitWithAnswer, complete, type TransactionWithAnswer } from "../../platform/idempotency/service.ts";
import type { Actor, Tenant } from "../../platform/tenant.ts";
import { type PaymentRow, payments } from "../payments/index.ts";
import { shifts } from "../shifts/index.ts";
import { endSales } from "./payment-end-queries.ts";
import * as saleQueries from "./queries.ts";
import type { SaleDependencies, SaleView } from "./reading.ts";
import { lockSale } from "./return-queries.ts";
import { insertSale, type SaleToInsert } from "./ring-up-queries.ts";
import { completionEnd, countCompletion } from "./sale-effects.ts";
import type { CreateSaleInput, SaleRow } from "./schemas.ts";
import { completeIfPaid } from "./tender-end.ts";
import * as queries from "./tender-queries.ts";
import { type AddTenderInput, SALE_TENDERS_MAX, type SaleTenderRow, type TenderInputBody } from "./tender-schemas.ts";
import { rateOfRequest, settleTenders, type TenderSettlement, tenderShort } from "./tender-settlement.ts";

/**
 * Split sales (docs/shop.md, "Split and two-currency tender"): a sale made with `tenders`, and a tender
 * added to a pending one. Cash only and covered, the sale completes at once; with a wallet tender it is
 * pending, its cash tenders in the drawer at once, each wallet tender with its payment, until the last
 * wallet tender is paid (`tender-end.ts`). Each is one transaction of plain calls (a split sale is not
 * the hot path a single cash sale's batched statement is), with the request's stored answer.
 */

type Recorded = { status: "completed" | "pending"; paymentId: string | null; shiftId: string | null };

/** What ringing up gives a split sale (`ring-up.ts`): the priced sale's row, and its client_sale_id race. */
export type SplitSaleSteps = {
  prepareRow: () => Promise<(recorded: Recorded) => SaleToInsert>;
  clientSaleIdTakenOr: (error: unknown, sale: SaleRow) => unknown;
};

type WalletPayments = ReadonlyMap<number, payments.PendingPaymentToInsert>;

/** `POST /v1/sales` with `tenders`: settled, then written with its answer in one transaction. */
export async function createSplitSale(
  dependencies: SaleDependencies,
  tenant: Tenant,
  input: CreateSaleInput,
  commit: CommitWithAnswer<SaleView>,
  steps: SplitSaleSteps,
): Promise<SaleView> {
  const tenders = requestTenders(input);
  const hasWallet = tenders.some((tender) => tender.kind === "wallet");
  const rowOf = await steps.prepareRow();
  const tillId = input.till_id ?? null;
  const shift =
    tillId !== null && hasCash(tenders) ? await shifts.openShiftOfTill(dependencies.database, tenant, tillId) : null;
  const drafted = rowOf({ status: hasWallet ? "pending" : "completed", paymentId: null, shiftId: shift?.id ?? null });
  // A sale's till is the drawer a cancel gives its cash back from. Without till_id its cash is in no
  // drawer, as a cash sale's (`ring-up.ts`), so it names no till; only a sale of wallet tenders alone
  // taken on a paired till is that till's, as a wallet sale is (the dashboard's Sales names it).
  const walletOnTill = !hasCash(tenders) && tenant.session?.kind === "till" ? tenant.session.deviceId : null;
  const sale = { ...drafted, till_id: tillId ?? walletOnTill };
  if (sale.total_cents === 0) {
    throw invalidRequest("invalid_amount", "tenders: a sale of nothing to pay is rung up with tender cash.");
  }
  const changeCurrency = input.change_currency ?? sale.currency;
  const rate = await rateOfRequest(dependencies.database, tenant, {
    base: sale.currency,
    currencies: [...tenders.map((tender) => tender.currency), changeCurrency],
    exchangeRateId: input.exchange_rate_id,
  });
  const settled = settleTenders({ dueCents: sale.total_cents, base: sale.currency, tenders, rate, changeCurrency });
  if (settled.dueCents > 0 && !hasWallet) {
    throw await tenderShort(dependencies.database, tenant, { dueCents: settled.dueCents, base: sale.currency, rate });
  }
  return withFreshCodes(dependencies.logger, async () => {
    const walletPayments = await prepareWalletPayments(dependencies, tenant, sale.id, tenders, 0);
    const rows = tenderRowsOf(sale, settled, { rate, firstPosition: 0, walletPayments, shiftId: shift?.id ?? null });
    const view: SaleView = {
      sale,
      payment: newestPayment(walletPayments),
      returns: [],
      tenders: rows.map((row) => ({ ...row, created_at: sale.created_at })),
    };
    await commit(view, (response) =>
      dependencies.database
        .transaction(async (transaction) => {
          if (response !== null) await complete(transaction, response);
          await insertSale(transaction, { ...sale, status: "pending", completed_at: null });
          await recordTenders(transaction, tenant, { rows, walletPayments, tillId: shift === null ? null : tillId });
          if (sale.completed_at !== null) {
            await endSales(
              transaction,
              completionEnd(
                [{ ...sale, status: "completed", completed_at: sale.completed_at }],
                undefined,
                () => view.tenders ?? [],
              ),
            );
          }
          return true;
        })
        .catch((error: unknown) => {
          throw collisionOf(error, walletPayments) ?? steps.clientSaleIdTakenOr(error, sale);
        }),
    );
    if (sale.status === "completed") countCompletion(sale);
    return view;
  });
}

/** A single tender (`tender`) with split tender's fields: 400 parameter_invalid. */
export function refuseMixedTender(input: CreateSaleInput): void {
  if (input.tender !== undefined && (input.tenders ?? input.change_currency ?? input.exchange_rate_id) !== undefined) {
    throw invalidRequest(
      "parameter_invalid",
      "tender: give either tender (one tender, with tendered_cents) or tenders (with change_currency, exchange_rate_id).",
    );
  }
}

const hasCash = (tenders: readonly TenderInputBody[]) => tenders.some((tender) => tender.kind === "cash");

/** The request's tenders; required without a single tender. */
function requestTenders(input: CreateSaleInput): readonly TenderInputBody[] {
  if (input.tenders === undefined) {
    throw invalidRequest("parameter_missing", "tender: a sale needs tender (cash or wallet) or tenders.");
  }
  if (input.tendered_cents !== undefined) {
    throw invalidRequest("parameter_invalid", "tendered_cents: with tenders, each tender says what it paid.");
  }
  return input.tenders;
}

/**
 * `POST /v1/sales/:id/tenders`: a tender added to a pending split sale, settled against what is still
 * due; a wallet tender's payment prepared first (its code), then everything in one transaction under
 * the sale's row lock, in which the sale completes when the tender pays what was left.
 */
export async function addTender(
  dependencies: SaleDependencies,
  tenant: Tenant,
  request: { saleId: string; input: AddTenderInput },
  inTransaction: TransactionWithAnswer<SaleView>,
): Promise<SaleView> {
  const { input } = request;
  const sale = await saleQueries.selectSale(dependencies.database, tenant, request.saleId);
  if (sale === null) {
    throw notFound(`No such sale: ${request.saleId}.`);
  }
  // A till adds tenders only to its own sales: their cash goes into, and a cancel takes it out of, the sale's drawer.
  requireOwnTill(tenant.session, sale.till_id);
  const before = await queries.selectTendersOfSales(dependencies.database, tenant.merchantId, [sale.id]);
  requireOpenSplitSale(sale, before);
  const tender = { kind: input.kind, currency: input.currency, amount_cents: input.amount_cents };
  const changeCurrency = input.change_currency ?? sale.currency;
  const rate = await rateOfRequest(dependencies.database, tenant, {
    base: sale.currency,
    currencies: [tender.currency, changeCurrency],
    exchangeRateId: input.exchange_rate_id,
  });
  const settle = (tenders: readonly SaleTenderRow[]) =>
    requireOneChangeCurrency(
      tenders,
      settleTenders({ dueCents: dueOf(sale, tenders), base: sale.currency, tenders: [tender], rate, changeCurrency }),
    );
  settle(before);
  // A tender's cash goes into its sale's drawer, the one a cancel gives it back from: naming another is refused.
  if (input.till_id !== undefined && input.till_id !== sale.till_id) {
    throw invalidRequest(
      "parameter_invalid",
      `till_id: a tender's cash goes into its sale's drawer (${sale.till_id ?? "none: a sale of no till"}).`,
    );
  }
  const tillId = tender.kind === "cash" ? sale.till_id : null;
  const view = await withFreshCodes(dependencies.logger, async () => {
    const walletPayments = await prepareWalletPayments(dependencies, tenant, sale.id, [tender], before.length);
    return inTransaction(async (transaction) => {
      const locked = await lockSale(transaction, tenant, sale.id);
      const tenders = await queries.selectTendersOfSales(transaction, tenant.merchantId, [sale.id]);
      requireOpenSplitSale(locked ?? sale, tenders);
      const shiftId = tillId === null ? null : (await shifts.lockOpenShiftOfTill(transaction, tenant, tillId)).id;
      const rows = tenderRowsOf(sale, settle(tenders), {
        rate,
        firstPosition: tenders.length,
        walletPayments,
        shiftId,
      });
      await recordTenders(transaction, tenant, { rows, walletPayments, tillId: null });
      const all = [...tenders, ...rows.map((row) => ({ ...row, created_at: new Date() }))];
      const now = await completeIfPaid(transaction, locked ?? sale, all);
      return { sale: now, payment: newestPayment(walletPayments), returns: [], tenders: all };
    }).catch((error: unknown) => {
      throw collisionOf(error, walletPayments) ?? error;
    });
  });
  if (view.sale.status === "completed") countCompletion(view.sale);
  return view;
}

/** The currency a sale's tenders already gave change in (null: none yet). */
const changeGivenIn = (tenders: readonly SaleTenderRow[]) =>
  tenders.find((row) => row.change_cents !== null && row.change_cents > 0)?.change_currency ?? null;

/**
 * A sale gives all its change in one currency, so the sale's `change` (and its receipt) says all of
 * it: a tender added to a sale that already gave change gives more only in that currency.
 */
function requireOneChangeCurrency(tenders: readonly SaleTenderRow[], settled: TenderSettlement): TenderSettlement {
  const given = changeGivenIn(tenders);
  if (
    given !== null &&
    settled.change !== null &&
    settled.change.amountCents > 0 &&
    settled.change.currency !== given
  ) {
    throw invalidRequest(
      "parameter_invalid",
      `change_currency: this sale already gave change in ${given}; give this change in ${given} too.`,
    );
  }
  return settled;
}

function requireOpenSplitSale(sale: SaleRow, tenders: readonly SaleTenderRow[]): void {
  if (sale.tender !== "split" || sale.status !== "pending") {
    throw conflict(
      "sale_not_pending",
      `Sale ${sale.id} is ${sale.status === "pending" ? "a single-tender sale" : sale.status}: only a pending ` +
        "sale made with tenders takes another tender.",
    );
  }
  if (tenders.length >= SALE_TENDERS_MAX) {
    throw invalidRequest(
      "parameter_invalid",
      `A sale takes at most ${SALE_TENDERS_MAX} tenders; cancel it and start again.`,
    );
  }
}

/** What a split sale still has due: its total less what its paid and pending tenders contribute. */
const dueOf = (sale: SaleRow, tenders: readonly SaleTenderRow[]) =>
  sale.total_cents -
  tenders.reduce((sum, tender) => sum + (tender.status === "failed" ? 0 : tender.contributed_cents), 0);

/** Each wallet tender's payment (its code from the gateway), by its position among the sale's tenders. */
async function prepareWalletPayments(
  dependencies: SaleDependencies,
  tenant: Tenant,
  saleId: string,
  tenders: readonly TenderInputBody[],
  firstPosition: number,
): Promise<WalletPayments> {
  const prepared = await Promise.all(
    tenders.map(async (tender, index) => {
      if (tender.kind !== "wallet") return [];
      const position = firstPosition + index;
      const payment = await payments.preparePayment(dependencies, tenant, {
        amount_cents: tender.amount_cents,
        currency: tender.currency,
        narration: "Till sale",
        metadata: { sale_id: saleId, tender_index: position },
      });
      return [[position, payments.pendingPaymentOf(tenant, payment)] as const];
    }),
  );
  return new Map(prepared.flat());
}

const newestPayment = (walletPayments: WalletPayments): PaymentRow | null =>
  [...walletPayments.values()].at(-1)?.payment ?? null;

const collisionOf = (error: unknown, walletPayments: WalletPayments) =>
  [...walletPayments.values()]
    .map((row) => payments.codeCollisionOf(error, row.payment))
    .find((found) => found !== null) ?? null;

/**
 * The tenders' rows: each with what it counts for and contributes, the rate it was taken at (copied),
 * its payment (wallet) or drawer (cash), and the change on the tender that covered the sale (the
 * last: no tender may follow one that covered it, so the kernel takes the change from it alone).
 */
function tenderRowsOf(
  sale: SaleRow,
  settled: TenderSettlement,
  options: {
    rate: { id: string; other_per_base_micros: number } | null;
    firstPosition: number;
    walletPayments: WalletPayments;
    shiftId: string | null;
  },
): queries.TenderToInsert[] {
  return settled.tenders.map((tender, index) => {
    const position = options.firstPosition + index;
    const converted = tender.currency !== sale.currency && options.rate !== null;
    const change = index === settled.tenders.length - 1 ? settled.change : null;
    return {
      merchant_id: sale.merchant_id,
      sale_id: sale.id,
      position,
      livemode: sale.livemode,
      kind: tender.kind,
      status: tender.kind === "cash" ? "paid" : "pending",
      currency: tender.currency,
      amount_cents: tender.amountCents,
      credit_cents: tender.creditCents,
      contributed_cents: tender.contributedCents,
      exchange_rate_id: converted ? (options.rate?.id ?? null) : null,
      other_per_base_micros: converted ? (options.rate?.other_per_base_micros ?? null) : null,
      change_currency: change?.currency ?? null,
      change_cents: change?.amountCents ?? null,
      payment_id: options.walletPayments.get(position)?.payment.id ?? null,
      shift_id: tender.kind === "cash" ? options.shiftId : null,
    };
  });
}

/**
 * The tenders written: wallet tenders' payments, the rows, and the cash of cash tenders in their
 * drawer (`tillId`'s open shift, share-locked here when the caller has not locked it): each cash
 * tender's amount in its currency in, the change out in its currency (kind `change`).
 */
async function recordTenders(
  transaction: Transaction,
  world: World & { actor: Actor },
  written: { rows: readonly queries.TenderToInsert[]; walletPayments: WalletPayments; tillId: string | null },
): Promise<void> {
  const rows = written.rows;
  if (written.tillId !== null) {
    const held = await shifts.lockOpenShiftOfTill(transaction, world, written.tillId);
    if (rows.some((row) => row.shift_id !== null && row.shift_id !== held.id)) {
      throw shifts.shiftNotOpen(written.tillId);
    }
  }
  if (written.walletPayments.size > 0) {
    await queries.insertPayments(
      transaction,
      payments.pendingPaymentsInsert([...written.walletPayments.values()], () => sql.fragment`TRUE`),
    );
  }
  await queries.insertTenders(transaction, rows);
  for (const row of rows) {
    if (row.shift_id === null) continue;
    const move = { merchantId: row.merchant_id, shiftId: row.shift_id, saleId: row.sale_id, returnId: null };
    await shifts.recordSaleCash(transaction, {
      ...move,
      kind: "sale",
      currency: row.currency,
      amountCents: row.amount_cents,
      actor: world.actor,
    });
    if (row.change_currency !== null && row.change_cents !== null && row.change_cents > 0) {
      await shifts.recordSaleCash(transaction, {
        ...move,
        kind: "change",
        currency: row.change_currency,
        amountCents: -row.change_cents,
        actor: world.actor,
      });
    }
  }
}
