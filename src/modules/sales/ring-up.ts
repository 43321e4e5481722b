import { createHash } from "node:crypto";
import canonicalize from "canonicalize";
import { UniqueIntegrityConstraintViolationError } from "slonik";
import { withFreshCodes } from "../../gateway/code-collisions.ts";
import { conflict } from "../../platform/errors.ts";
import type { CommitWithAnswer } from "../../platform/idempotency/service.ts";
import { newId } from "../../platform/ids.ts";
import type { Tenant } from "../../platform/tenant.ts";
import { recordApproval, requireManager } from "../cashiers/index.ts";
import type { catalog } from "../catalog/index.ts";
import type { PaymentRow } from "../payments/index.ts";
import { payments } from "../payments/index.ts";
import { shifts } from "../shifts/index.ts";
import type { CashSaleOutcome, CashSaleToWrite } from "./cash-sale-writer.ts";
import { assertItemCount, checkTakenAt, checkTendered, discountOverLimit, priceSale } from "./pricing.ts";
import * as readQueries from "./queries.ts";
import { getSale, type SaleDependencies, type SaleView, withReturns } from "./reading.ts";
import { newReceiptToken } from "./receipt-token.ts";
import * as queries from "./ring-up-queries.ts";
import { countCompletion, preparedSaleCompleted } from "./sale-effects.ts";
import type { CreateSaleInput, SaleRow } from "./schemas.ts";
import { createSplitSale, refuseMixedTender } from "./split-sale.ts";
import type { WalletSaleToWrite } from "./wallet-sale-writer.ts";

/**
 * Sales: a basket of snapshotted lines and a tender.
 *
 * Invariants:
 * - a line snapshots name, unit price and line total at sale time; the database refuses any change
 *   to a sale other than its one status transition, so catalog edits never change a past sale;
 * - cash: the sale, its stock moves, `sale.completed` and the idempotent response commit together;
 *   it counts in takings and never touches the ledger (the payable balance);
 * - wallet: the sale is pending beside its payment (created through the payments service); it
 *   completes in the very transaction that settles the payment (stock moves, `sale.completed`), or is
 *   cancelled in the transaction that expires or fails it, with nothing moved. Both happen once,
 *   whoever observes the payment's end (poller, expiry job, mockpay, GET of the payment or the sale);
 * - stock: only live sales change on-hand (see the stock module); untracked products never move;
 * - sales are per world: a test key never sees a live sale, nor another merchant's.
 *
 * Error codes: `product_not_found` (404), `product_inactive`, `price_required`, `currency_mismatch`,
 * `invalid_quantity`, `invalid_amount`, `invalid_currency`, `too_many_items`, `parameter_missing`,
 * `parameter_invalid`, `taken_at_out_of_range` (400), `resource_missing` (404), `client_sale_id_mismatch` (409),
 * `gateway_error`, `code_generation_failed` (502).
 */

/**
 * What ringing up a sale needs besides: the process's batching product reader
 * (`catalog.createProductReader`) and sale writers (`cash-sale-writer.ts`, `wallet-sale-writer.ts`),
 * built once per database in the wiring (`writers.ts`). The shop's tax settings and discount limit
 * come with the tenant (`Tenant.pricing`, read by the request's authentication).
 */
export type SaleCreationDependencies = SaleDependencies & {
  readProducts: catalog.ProductReader;
  writeCashSale: (row: CashSaleToWrite) => Promise<CashSaleOutcome>;
  writeWalletSale: (row: WalletSaleToWrite) => Promise<boolean>;
};

/**
 * What ringing up did: `created`, the sale recorded now with its answer (`commit`); `replayed`, the
 * sale its client_sale_id had already made, as it now stands, nothing recorded again.
 */
export type SaleOutcome = { kind: "created" | "replayed"; view: SaleView };

/**
 * `POST /v1/sales`. A till's queued sale replayed after its Idempotency-Key expired (its
 * client_sale_id already recorded) is `replayed`. Otherwise the sale is prepared outside any
 * transaction, then recorded with its stored answer in one statement (`commit`: sale, effects and
 * answer in one round trip): a cash sale completed, a wallet sale pending with its payment (a payment
 * code still live elsewhere fails the statement and the sale is prepared again with a fresh code). A
 * concurrent request that recorded the same client_sale_id first makes this one write nothing and
 * answer that sale (`replayed`). A completion is counted once committed.
 */
export async function createSale(
  dependencies: SaleCreationDependencies,
  tenant: Tenant,
  input: CreateSaleInput,
  commit: CommitWithAnswer<SaleView>,
): Promise<SaleOutcome> {
  const known = await findClientSale(dependencies, tenant, input);
  if (known !== null) {
    return { kind: "replayed", view: await withReturns(dependencies.database, known) };
  }
  refuseMixedTender(input);
  try {
    const view =
      input.tender === undefined
        ? await createSplitSale(dependencies, tenant, input, commit, {
            // Priced as any sale; the row made once the drawer is known (split-sale.ts).
            prepareRow: async () => {
              const prepared = await prepareSale(dependencies, tenant, input);
              return (recorded) => saleToInsert(tenant, prepared, recorded);
            },
            clientSaleIdTakenOr,
          })
        : input.tender === "cash"
          ? await createCashSale(dependencies, tenant, input, commit)
          : await createWalletSale(dependencies, tenant, input, commit);
    return { kind: "created", view };
  } catch (error) {
    if (!(error instanceof ClientSaleIdTaken)) {
      throw error;
    }
    const recorded = await findClientSale(dependencies, tenant, input);
    if (recorded === null) {
      throw error;
    }
    return { kind: "replayed", view: await withReturns(dependencies.database, recorded) };
  }
}

/**
 * A cash sale: completed at once, written with its stored answer, `sale.completed`, its stock moves
 * and, on a till, its cash in the till's open shift (read first: 409 `shift_not_open` when there is
 * none, or when it closes before the statement holds it) by `writeCashSale`, the process's batching
 * writer: one statement and one commit for the cash sales of an event-loop turn (`writeCashSales`).
 */
async function createCashSale(
  dependencies: SaleCreationDependencies,
  tenant: Tenant,
  input: CreateSaleInput,
  commit: CommitWithAnswer<SaleView>,
): Promise<SaleView> {
  const prepared = await prepareSale(dependencies, tenant, input);
  const tillId = input.till_id ?? null;
  const shift = tillId === null ? null : await shifts.openShiftOfTill(dependencies.database, tenant, tillId);
  const sale = saleToInsert(tenant, prepared, { status: "completed", paymentId: null, shiftId: shift?.id ?? null });
  const view = { sale, payment: null, returns: [] };
  await commit(view, async (response) => {
    const outcome = await dependencies
      .writeCashSale({ sale, response, event: preparedSaleCompleted(sale) })
      .catch((error: unknown) => {
        throw clientSaleIdTakenOr(error, sale);
      });
    if (!outcome.shiftOpen && tillId !== null) {
      throw shifts.shiftNotOpen(tillId);
    }
    return outcome.recorded;
  });
  countCompletion(sale);
  return view;
}

/**
 * A wallet sale: pending beside its payment, both written with the stored answer, which is made
 * before them (the payment's row is known once the gateway has issued its code), by `writeWalletSale`
 * (the process's batching writer: the wallet sales of a moment in one statement, `writeWalletSales`).
 * A code still live for another payment fails the sale's statement, which wrote nothing of it: the
 * sale is prepared again, with a new payment and a fresh code (`withFreshCodes`). Nothing is emitted
 * now: the sale completes or is cancelled with its payment's end (`payment-end.ts`).
 */
async function createWalletSale(
  dependencies: SaleCreationDependencies,
  tenant: Tenant,
  input: CreateSaleInput,
  commit: CommitWithAnswer<SaleView>,
): Promise<SaleView> {
  return withFreshCodes(dependencies.logger, async () => {
    const prepared = await prepareSale(dependencies, tenant, input);
    if (prepared.payment === null) {
      throw new TypeError(`sale ${prepared.id}: a wallet sale is prepared with its payment`);
    }
    const pendingPayment = payments.pendingPaymentOf(tenant, prepared.payment);
    const { payment } = pendingPayment;
    const sale = saleToInsert(tenant, prepared, { status: "pending", paymentId: payment.id, shiftId: null });
    const view = { sale, payment, returns: [] };
    await commit(view, (response) =>
      dependencies.writeWalletSale({ sale, response, payment: pendingPayment }).catch((error: unknown) => {
        throw payments.codeCollisionOf(error, payment) ?? clientSaleIdTakenOr(error, sale);
      }),
    );
    return view;
  });
}

/** A sale statement's failure as `ClientSaleIdTaken` when a concurrent request recorded its client_sale_id first. */
const clientSaleIdTakenOr = (error: unknown, sale: SaleRow): unknown =>
  error instanceof UniqueIntegrityConstraintViolationError && error.constraint === queries.CLIENT_SALE_ID_KEY
    ? new ClientSaleIdTaken(sale.client_sale_id ?? "")
    : error;

/** What a client_sale_id is bound to: the request's canonical JSON (RFC 8785), hashed. */
function clientRequestFingerprint(input: CreateSaleInput): Buffer {
  return createHash("sha256")
    .update(canonicalize(JSON.parse(JSON.stringify(input))) ?? "null")
    .digest();
}

/**
 * The sale a till already recorded under the request's client_sale_id, if any (a replay of a queued
 * sale); refused when that id was recorded with another request. Outlives the Idempotency-Key.
 */
async function findClientSale(
  dependencies: SaleDependencies,
  tenant: Tenant,
  input: CreateSaleInput,
): Promise<{ sale: SaleRow; payment: PaymentRow | null } | null> {
  if (input.client_sale_id === undefined) {
    return null;
  }
  const recorded = await readQueries.selectSaleByClientId(dependencies.database, tenant, input.client_sale_id);
  if (recorded === null) {
    return null;
  }
  if (!recorded.client_request_fingerprint.equals(clientRequestFingerprint(input))) {
    throw conflict(
      "client_sale_id_mismatch",
      `client_sale_id ${input.client_sale_id} names sale ${recorded.id}, recorded with a different request. ` +
        "A new sale needs a new client_sale_id.",
    );
  }
  return getSale(dependencies, tenant, recorded.id);
}

/** Thrown when a sale's statement fails because a concurrent request recorded the same client_sale_id first. */
class ClientSaleIdTaken extends Error {
  readonly clientSaleId: string;
  constructor(clientSaleId: string) {
    super(`client_sale_id ${clientSaleId} was recorded concurrently`);
    this.clientSaleId = clientSaleId;
  }
}

type PreparedSale = Awaited<ReturnType<typeof prepareSale>>;

/**
 * Phase one, outside any transaction: read the products, price the basket, and for a wallet sale have
 * the payments service prepare the payment (the gateway issues its code: a slow external call).
 */
async function prepareSale(dependencies: SaleCreationDependencies, tenant: Tenant, input: CreateSaleInput) {
  // Before any query: the basket's size bounds the product lookup.
  assertItemCount(input.items.length);
  const takenAt = checkTakenAt(input, Date.now());
  const productIds = input.items.flatMap((item) => (item.product_id === undefined ? [] : [item.product_id]));
  const products = productIds.length === 0 ? new Map() : await dependencies.readProducts(tenant.merchantId, productIds);
  const { pricing } = tenant;
  const priced = priceSale(input, products, { taxMode: pricing.taxMode, defaultTaxRateBp: pricing.defaultTaxRateBp });
  const tenderedCents = checkTendered(input, priced.total_cents);
  const id = newId("sale");
  if (discountOverLimit(priced, pricing.discountLimitBp)) {
    await approveDiscount(dependencies, tenant, id);
  }
  const payment =
    input.tender === "wallet"
      ? await payments.preparePayment(dependencies, tenant, {
          amount_cents: priced.total_cents,
          currency: priced.currency,
          narration: "Till sale",
          metadata: { sale_id: id },
        })
      : null;
  const clientRequest =
    input.client_sale_id === undefined
      ? null
      : { clientSaleId: input.client_sale_id, fingerprint: clientRequestFingerprint(input) };
  return { id, input, priced, tenderedCents, payment, takenAt, clientRequest };
}

/**
 * A discount above the shop's limit (a product sold below its catalog price counting as one, a queued
 * offline sale too: docs/shop.md, "Discounts and tax"): at a till with cashiers, a manager switched in
 * or the approval the request carries (used up and recorded here, before the sale is written: the one-statement
 * writers hold no transaction to use it up in, so a sale that then fails needs a new approval);
 * else 403 manager_required, and the till asks a manager and sends the same request again.
 */
async function approveDiscount(dependencies: SaleCreationDependencies, tenant: Tenant, saleId: string) {
  await dependencies.database.transaction(async (transaction) => {
    const approval = await requireManager(transaction, tenant, "discount");
    await recordApproval(transaction, tenant, approval, { type: "sale", id: saleId });
  });
}

/**
 * The sale row a prepared sale becomes, as the answer shows it before it is written: created now (the
 * API's clock, as a payment's creation), taken when the till says (else now), completed then if cash.
 */
function saleToInsert(
  tenant: Tenant,
  prepared: PreparedSale,
  recorded: { status: "completed" | "pending"; paymentId: string | null; shiftId: string | null },
): queries.SaleToInsert {
  const createdAt = new Date();
  const takenAt = prepared.takenAt ?? createdAt;
  return {
    merchant_id: tenant.merchantId,
    id: prepared.id,
    livemode: tenant.livemode,
    status: recorded.status,
    // No single tender: a sale made with `tenders` (split-sale.ts).
    tender: prepared.input.tender ?? "split",
    currency: prepared.priced.currency,
    total_cents: prepared.priced.total_cents,
    items: prepared.priced.items,
    discount_cents: prepared.priced.discount_cents,
    discount_reason: prepared.priced.discount_reason,
    tax_cents: prepared.priced.tax_cents,
    taxes: prepared.priced.taxes,
    cashier: emptyToNull(prepared.input.cashier),
    note: emptyToNull(prepared.input.note),
    payment_id: recorded.paymentId,
    actor_type: tenant.actor.kind,
    actor_id: tenant.actor.id,
    client_sale_id: prepared.clientRequest?.clientSaleId ?? null,
    client_request_fingerprint: prepared.clientRequest?.fingerprint ?? null,
    taken_at: takenAt,
    // A wallet sale rung up on a paired till is that till's even when the request does not name it
    // (the dashboard's Sales shows its till); a cash sale names its drawer itself (its shift hangs on it).
    till_id:
      prepared.input.till_id ??
      (prepared.input.tender === "wallet" && tenant.session?.kind === "till" ? tenant.session.deviceId : null),
    shift_id: recorded.shiftId,
    receipt_token: newReceiptToken(),
    created_at: createdAt,
    completed_at: recorded.status === "completed" ? takenAt : null,
    cancelled_at: null,
    tendered_cents: prepared.tenderedCents,
  };
}

const emptyToNull = (value: string | undefined) => (value === undefined || value === "" ? null : value);
