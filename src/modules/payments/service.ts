import { type FragmentSqlToken, UniqueIntegrityConstraintViolationError } from "slonik";
import { toApiGatewayError } from "../../gateway/api-errors.ts";
import { CodeCollisionError, withFreshCodes } from "../../gateway/code-collisions.ts";
import {
  type Gateways,
  GatewayUnavailableError,
  type PaymentCodeStatus,
  type PaymentGateway,
} from "../../gateway/wallet-gateway.ts";
import { formatMoney } from "../../kernel/money.ts";
import type { World } from "../../kernel/world.ts";
import type { Config } from "../../platform/config.ts";
import type { Database, Queryable } from "../../platform/db/pool.ts";
import { conflict, forbidden, notFound } from "../../platform/errors.ts";
import { createdAtKey, decodeCreatedAtCursor, type Page, toPage } from "../../platform/http/pagination.ts";
import type { ResponseToStore } from "../../platform/idempotency/service.ts";
import { newId, randomSecret } from "../../platform/ids.ts";
import { qrPngDataUrl } from "../../platform/qr/index.ts";
import type { PumpItem } from "../../platform/queue/due-pump.ts";
import { claimDueRows } from "../../platform/queue/due-rows.ts";
import type { Logger } from "../../platform/telemetry/logger.ts";
import { currentTraceparent } from "../../platform/telemetry/trace-context.ts";
import type { MerchantRow } from "../../platform/tenant.ts";
import type { EventType } from "../events/index.ts";
import { events } from "../events/index.ts";
import type { PaymentHooks } from "./hooks.ts";
import { lateObservable, recordLatePayment, watchingUnconfirmedVoid } from "./late-payments.ts";
import { paymentsTotal } from "./metrics.ts";
import { type PaymentObservedPaid, paidEventData, paymentEndWriterOf } from "./payment-ends.ts";
import * as queries from "./queries.ts";
import { type CreatePaymentInput, NOT_CANCELLED, type PaymentRow, type PaymentStatus } from "./schemas.ts";

/**
 * Payments: created with a code from the world's gateway, settled exactly once.
 *
 * Invariants:
 * - `pending → paid | expired | failed` happens once, by a guarded UPDATE; whoever observes the outcome
 *   first (poller, a GET refresh, mockpay, the expiry job's last inquiry) wins, the others change nothing;
 * - a paid payment credits the merchant exactly once (ledger posting key `payment:<id>:settle`): the
 *   gross from gateway clearing, the fee from the merchant to platform fees;
 * - an expiry is decided only after a last inquiry of the gateway, so a payment paid in the last
 *   second is paid, not expired; an unclear answer (gateway down) is retried, never guessed;
 * - the gateway is asked at most once per `PAYMENT_INQUIRY_MIN_INTERVAL_SECONDS` per payment, across
 *   every replica, however often clients poll.
 *
 * - modules built on payments (sales) attach work to a payment's end through hooks (`hooks.ts`) that
 *   run inside the transaction of the transition, so their effects happen exactly once with it; the
 *   hooks come with the dependencies (`paymentHooks`), given by the composition, never registered.
 *
 * Error codes: `invalid_amount`, `invalid_currency` (400), `gateway_error`, `code_generation_failed`
 * (502), `resource_missing` (404); for mockpay (`finishTestPayment`), `test_mode_only` (403) and
 * `payment_not_pending` (409).
 */

export type PaymentDependencies = {
  database: Database;
  config: Config;
  gateways: Gateways;
  logger: Logger;
  /** What runs inside the transaction that ends a payment (`hooks.ts`); `src/wiring/modules.ts` lists them. */
  paymentHooks: PaymentHooks;
};
/** What the composition gives the routes and tasks that reach payments: the rest comes with each request or job. */
export type PaymentWiring = Pick<PaymentDependencies, "gateways" | "paymentHooks">;
/** What ending a payment takes: the database and the hooks that run in the ending transaction. */
export type PaymentEnding = Pick<PaymentDependencies, "database" | "paymentHooks">;
const gatewayOf = (gateways: Gateways, livemode: boolean): PaymentGateway => (livemode ? gateways.live : gateways.test);

/** The merchant's fee: `fee_bps` of the amount rounded half up, plus the fixed part, at most the amount. */
export function feeCents(amountCents: number, merchant: Pick<MerchantRow, "fee_bps" | "fee_fixed_cents">): number {
  const proportional = Math.floor((amountCents * merchant.fee_bps + 5000) / 10_000);
  return Math.min(amountCents, proportional + merchant.fee_fixed_cents);
}

export function deepLinkOf(config: Config, code: string): string {
  return `${config.payment.deepLinkPrefix}${code}`;
}

/**
 * The QR code of the payment's deep link, as a PNG data URL: drawn when the payment is shown (well
 * under a tenth of a millisecond) rather than stored in every payment row and rewritten with it.
 */
export function qrPngDataUrlOf(config: Config, code: string): string {
  return qrPngDataUrl(deepLinkOf(config, code));
}

export function ussdOf(config: Config, payment: Pick<PaymentRow, "code" | "currency" | "amount_cents">): string {
  return `Dial ${config.payment.ussdPrefix}${payment.code}# and confirm ${formatMoney(payment.currency, payment.amount_cents)}`;
}

export type PreparedPayment = Awaited<ReturnType<typeof preparePayment>>;

/**
 * Phase one of creation, outside any database transaction: the gateway issues the code (a slow
 * external call must not hold a transaction), and the QR image of the deep link is drawn. The
 * payment's times are the API's clock: the whole pending row, and so the response, is known before
 * it is written.
 */
export async function preparePayment(
  dependencies: PaymentDependencies,
  tenant: World & { merchant: MerchantRow },
  input: CreatePaymentInput,
) {
  const id = newId("pay");
  const createdAt = new Date();
  const expiresAt = new Date(createdAt.getTime() + dependencies.config.paymentCodeWindowMs);
  let issued: Awaited<ReturnType<PaymentGateway["issuePaymentCode"]>>;
  try {
    issued = await gatewayOf(dependencies.gateways, tenant.livemode).issuePaymentCode({
      paymentId: id,
      amountCents: input.amount_cents,
      currency: input.currency,
      merchantName: tenant.merchant.name,
      narration: input.narration ?? null,
      expiresAt,
    });
  } catch (error) {
    throw toApiGatewayError(error);
  }
  return {
    id,
    input,
    issued,
    feeCents: feeCents(input.amount_cents, tenant.merchant),
    reference: `PR${randomSecret().slice(0, 12).toUpperCase()}`,
    createdAt,
    expiresAt,
    firstPollAt: firstPollAtOf(dependencies.config, { created_at: createdAt, expires_at: expiresAt }),
  };
}

/** The poller's first inquiry: the schedule's first delay after creation, unless the window closes first. */
export function firstPollAtOf(config: Config, payment: Pick<PaymentRow, "created_at" | "expires_at">): Date | null {
  const firstPollAt = new Date(payment.created_at.getTime() + (config.payment.pollScheduleMs[0] ?? 2000));
  return firstPollAt < payment.expires_at ? firstPollAt : null;
}

/** The row a prepared payment becomes once written. */
export function pendingRowOf(tenant: World, prepared: PreparedPayment): PaymentRow {
  return {
    merchant_id: tenant.merchantId,
    id: prepared.id,
    livemode: tenant.livemode,
    status: "pending",
    amount_cents: prepared.input.amount_cents,
    currency: prepared.input.currency,
    fee_cents: prepared.feeCents,
    narration: prepared.input.narration ?? null,
    merchant_ref: prepared.input.merchant_ref ?? null,
    metadata: prepared.input.metadata ?? {},
    success_url: prepared.input.success_url ?? null,
    cancel_url: prepared.input.cancel_url ?? null,
    reference: prepared.reference,
    code: prepared.issued.code,
    gateway_reference: prepared.issued.gatewayReference,
    expires_at: prepared.expiresAt,
    paid_at: null,
    payer_msisdn: null,
    failure_reason: null,
    last_inquiry_at: null,
    inquiry_count: 0,
    created_at: prepared.createdAt,
    updated_at: prepared.createdAt,
    ...NOT_CANCELLED,
  };
}

/** A pending payment to insert in another module's statement (`pendingPaymentsInsert`). */
export type PendingPaymentToInsert = queries.PendingPaymentToInsert;

/**
 * Phase two for a caller whose request is one statement (a wallet sale, `POST /v1/sales`): the
 * prepared payment's row to insert, with its first poll time and the request's trace, for
 * `pendingPaymentsInsert`. A code still live for another payment fails the caller's statement:
 * `codeCollisionOf` tells the caller, which prepares again with a fresh code (`withFreshCodes`).
 */
export function pendingPaymentOf(tenant: World, prepared: PreparedPayment): PendingPaymentToInsert {
  return {
    payment: pendingRowOf(tenant, prepared),
    firstPollAt: prepared.firstPollAt,
    traceparent: currentTraceparent(),
  };
}

/**
 * Pending payments' insert as a common table expression of the caller's statement (wallet sales'),
 * each written only when `when(paymentId)` holds, returning the ids written.
 */
export function pendingPaymentsInsert(
  rows: readonly PendingPaymentToInsert[],
  when: (paymentId: FragmentSqlToken) => FragmentSqlToken,
): FragmentSqlToken {
  return queries.insertPaymentsWhen(rows, when);
}

/**
 * The `CodeCollisionError` of a statement with `pendingPaymentsInsert`'s insert that failed because
 * `payment`'s code is still payable for another payment of its world (or, far less likely, its
 * random id or reference exists): the caller prepares it again, as `insertPendingPayments` does;
 * null for any other failure.
 */
export function codeCollisionOf(error: unknown, payment: Pick<PaymentRow, "code">): CodeCollisionError | null {
  return error instanceof UniqueIntegrityConstraintViolationError &&
    queries.PAYMENT_UNIQUE_KEYS.has(error.constraint ?? "")
    ? new CodeCollisionError(payment.code)
    : null;
}

/**
 * Creates a pending payment: prepares it and hands its row to `write`, whose result it returns; a
 * code still live for another payment is replaced by a fresh one (`withFreshCodes`).
 */
export async function createPendingPayment<T>(
  dependencies: PaymentDependencies,
  tenant: World & { merchant: MerchantRow },
  input: CreatePaymentInput,
  write: (payment: PaymentRow) => Promise<T>,
): Promise<T> {
  return withFreshCodes(dependencies.logger, async () =>
    write(pendingRowOf(tenant, await preparePayment(dependencies, tenant, input))),
  );
}

/**
 * `POST /v1/payments`: a pending payment (a fresh code when one collides), written with its stored
 * response in one statement by `write` (the process's batching writer, `payment-writer.ts`) through
 * `commitWithResponse` (the idempotent request's), so the row, its first poll time and the response
 * commit in one round trip, enqueuing no job; counted once committed (a replayed response does not
 * come through here).
 */
export async function createPayment<Reply>(
  dependencies: PaymentDependencies & { write: (row: queries.PaymentToInsert) => Promise<boolean> },
  tenant: World & { merchant: MerchantRow },
  input: CreatePaymentInput,
  reply: {
    present: (payment: PaymentRow) => Reply;
    commitWithResponse: (reply: Reply, write: (response: ResponseToStore | null) => Promise<boolean>) => Promise<Reply>;
  },
): Promise<Reply> {
  const traceparent = currentTraceparent();
  const committed = await createPendingPayment(dependencies, tenant, input, (created) =>
    reply.commitWithResponse(reply.present(created), (response) =>
      dependencies.write({
        payment: created,
        response,
        firstPollAt: firstPollAtOf(dependencies.config, created),
        traceparent,
      }),
    ),
  );
  paymentsTotal.inc({ event: "created", livemode: String(tenant.livemode), currency: input.currency });
  return committed;
}

/** A payment; while pending, refreshed from the gateway first (throttled: see `refreshPayment`). */
export async function getFreshPayment(
  dependencies: PaymentDependencies,
  world: World,
  paymentId: string,
): Promise<PaymentRow> {
  return refreshPayment(dependencies, await getPayment(dependencies.database, world, paymentId));
}

/**
 * mockpay (the checkout's test button): a pending test payment is settled now, or expired when the
 * payer chose that outcome; a live payment is refused (403), a final one too (409). A mockpay that
 * loses the guarded update to another observer (another mockpay, the poller, the expiry) is answered
 * as if it had come after it, 409: the payer asked for an outcome that did not happen, and the
 * winner's outcome may not be the one asked for.
 */
export async function finishTestPayment(
  ending: PaymentEnding,
  paymentId: string,
  outcome: "paid" | "expired",
): Promise<PaymentRow> {
  const payment = await getPaymentById(ending.database, paymentId);
  if (payment.livemode) {
    throw forbidden("test_mode_only", "mockpay settles test payments only.");
  }
  if (payment.status !== "pending") {
    throw notPending(payment);
  }
  const ended = await writeEnd(
    ending,
    payment,
    outcome === "expired"
      ? { status: "expired", onlyWhenDue: false }
      : { status: "paid", paidAt: new Date(), payerMsisdn: null },
  );
  if (ended === null) {
    throw notPending(await current(ending.database, payment));
  }
  return ended;
}

const notPending = (payment: PaymentRow) =>
  conflict("payment_not_pending", `The payment is already ${payment.status}.`);

/**
 * Inserts pending payments, each with its idempotent response when it has one; answers for each: written, not written (its request no longer
 * owns its key), or its own error. A code already payable for another payment of the world fails the
 * statement, which wrote nothing: the payments are written again one per statement, and only the
 * colliding one answers `CodeCollisionError`.
 */
export async function insertPendingPayments(
  database: Queryable,
  rows: readonly queries.PaymentToInsert[],
): Promise<(boolean | Error)[]> {
  try {
    const inserted = await queries.insertPayments(database, rows);
    return rows.map((row) => inserted.has(row.payment.id));
  } catch (error) {
    if (!(error instanceof UniqueIntegrityConstraintViolationError)) {
      throw error;
    }
    if (rows.length === 1) {
      return [new CodeCollisionError(rows[0]?.payment.code ?? "")];
    }
    const alone = await Promise.all(rows.map((row) => insertPendingPayments(database, [row])));
    return alone.flat();
  }
}

export async function getPayment(database: Queryable, world: World, paymentId: string): Promise<PaymentRow> {
  const payment = await queries.selectPayment(database, world, paymentId);
  if (payment === null) {
    throw notFound(`No such payment: ${paymentId}.`);
  }
  return payment;
}

/** By id alone, for the public checkout (the id is the capability). */
export async function getPaymentById(database: Queryable, paymentId: string): Promise<PaymentRow> {
  const payment = await queries.selectPaymentById(database, paymentId);
  if (payment === null) {
    throw notFound(`No such payment: ${paymentId}.`);
  }
  return payment;
}

export async function listPayments(
  database: Queryable,
  filter: World & {
    status: PaymentStatus | undefined;
    merchantRef: string | undefined;
    from: Date | undefined;
    to: Date | undefined;
    limit: number;
    cursor: string | undefined;
  },
): Promise<Page<PaymentRow>> {
  const after = decodeCreatedAtCursor(filter.cursor);
  const rows = await queries.selectPayments(database, {
    ...filter,
    after,
    limit: filter.limit + 1,
  });
  return toPage(rows, {
    limit: filter.limit,
    keyOf: createdAtKey,
    present: (row) => row,
  });
}

/**
 * Asks the gateway about a pending payment, at most once per interval across replicas, and applies
 * what it says. Returns the payment as it now stands. A gateway that cannot answer changes nothing.
 */
export async function refreshPayment(
  dependencies: PaymentDependencies,
  payment: PaymentRow,
  options: { force?: boolean } = {},
): Promise<PaymentRow> {
  if (payment.status !== "pending" && !watchingUnconfirmedVoid(payment)) {
    return payment;
  }
  const claimed = await queries.claimInquiry(dependencies.database, {
    merchantId: payment.merchant_id,
    id: payment.id,
    minIntervalMs: options.force === true ? 0 : dependencies.config.payment.inquiryMinIntervalMs,
  });
  if (claimed === null) {
    return (await queries.selectPaymentById(dependencies.database, payment.id)) ?? payment;
  }
  return inquireClaimed(dependencies, claimed, options);
}

/** Asks the gateway about a payment whose inquiry was claimed, and applies the answer. */
async function inquireClaimed(
  dependencies: PaymentDependencies,
  payment: PaymentRow,
  options: { force?: boolean },
): Promise<PaymentRow> {
  let status: PaymentCodeStatus;
  try {
    status = await gatewayOf(dependencies.gateways, payment.livemode).inquirePaymentCode({
      paymentId: payment.id,
      code: payment.code,
      amountCents: payment.amount_cents,
      issuedAt: payment.created_at,
    });
  } catch (error) {
    if (error instanceof GatewayUnavailableError && options.force !== true) {
      dependencies.logger.warn({ payment_id: payment.id, err: error }, "gateway inquiry failed");
      return payment;
    }
    throw error;
  }
  return applyGatewayStatus(dependencies, payment, status);
}

/** Applies the gateway's answer: paid settles, unusable fails, expired expires, pending changes nothing. */
async function applyGatewayStatus(
  ending: PaymentEnding,
  payment: PaymentRow,
  status: PaymentCodeStatus,
): Promise<PaymentRow> {
  switch (status.state) {
    case "paid":
      return settlePayment(ending, payment, { paidAt: status.paidAt, payerMsisdn: status.payerMsisdn });
    case "unusable":
      return failPayment(ending, payment, status.reason);
    case "expired":
      return expirePayment(ending, payment, { onlyWhenDue: false });
    case "pending":
      return payment;
  }
}

/** Re-reads a payment whose transition someone else made first. */
export async function current(database: Queryable, payment: PaymentRow): Promise<PaymentRow> {
  return (await queries.selectPaymentById(database, payment.id)) ?? payment;
}

/**
 * `pending → paid`, exactly once whoever observed the payment paid (poller, GET, callback, mockpay);
 * the loser reads the payment as it now stands. Written with the other ends of the moment
 * (`paymentEndWriterOf`): the guarded update, then, only if it won, `payment.paid`, what the hooks
 * attach (a wallet sale completes) and the ledger movement (gateway clearing to the merchant's
 * balance, less the fee to the platform), whose postings come last: they lock the merchant's balance
 * rows until the commit, the statement's own end.
 */
export async function settlePayment(
  ending: PaymentEnding,
  payment: PaymentRow,
  observation: PaymentObservedPaid,
): Promise<PaymentRow> {
  const settled = await writeEnd(ending, payment, { status: "paid", ...observation });
  if (settled !== null) {
    return settled;
  }
  // Someone cancelled or expired it first, yet the payer paid: recorded as a late payment, never lost.
  const now = await current(ending.database, payment);
  return lateObservable(now) ? recordLatePayment(ending.database, now, observation) : now;
}

const END_EVENT_TYPES = {
  paid: "payment.paid",
  expired: "payment.expired",
  failed: "payment.failed",
  cancelled: "payment.cancelled",
} as const satisfies Record<queries.PaymentEnd["status"], EventType>;

/**
 * A pending payment's end (`outcome`), exactly once whoever observed it; a payment no longer pending
 * (or, an expiry, not yet due) is read as it now stands.
 */
async function endPayment(
  ending: PaymentEnding,
  payment: PaymentRow,
  outcome: queries.PaymentEnd,
): Promise<PaymentRow> {
  return (await writeEnd(ending, payment, outcome)) ?? current(ending.database, payment);
}

/**
 * Writes a pending payment's end with the other ends of the moment (`paymentEndWriterOf`): the
 * guarded update, then, only if it won, its event (`payment.<status>`) and what the
 * hooks attach. Counted once committed. Null when it lost: the payment was no longer pending (or, an
 * expiry, not yet due), or another end of the same moment was chosen.
 */
export async function writeEnd(
  ending: PaymentEnding,
  payment: PaymentRow,
  outcome: queries.PaymentEnd,
): Promise<PaymentRow | null> {
  const ended = await paymentEndWriterOf(
    ending.database,
    ending.paymentHooks,
  )({
    payment,
    outcome,
    event: events.prepareEvent({
      merchantId: payment.merchant_id,
      livemode: payment.livemode,
      type: END_EVENT_TYPES[outcome.status],
      data: outcome.status === "paid" ? paidEventData(payment) : unpaidEventData(payment),
    }),
  });
  if (ended !== null) {
    paymentsTotal.inc({ event: outcome.status, livemode: String(payment.livemode), currency: payment.currency });
  }
  return ended;
}

/** `pending → expired`: the event, no ledger movement. */
export async function expirePayment(
  ending: PaymentEnding,
  payment: PaymentRow,
  options: { onlyWhenDue: boolean },
): Promise<PaymentRow> {
  return endPayment(ending, payment, { status: "expired", onlyWhenDue: options.onlyWhenDue });
}

/** `pending → failed` when the gateway reports the code unusable. */
async function failPayment(ending: PaymentEnding, payment: PaymentRow, reason: string): Promise<PaymentRow> {
  return endPayment(ending, payment, { status: "failed", failureReason: reason });
}

const unpaidEventData = (payment: PaymentRow) => ({ payment_id: payment.id, merchant_ref: payment.merchant_ref });

/**
 * The poller's turn for one payment: one (throttled) inquiry. Its next turn is not this function's:
 * the claim of `claimDuePaymentPolls` set it.
 */
export async function pollPayment(
  dependencies: PaymentDependencies,
  job: { paymentId: string },
): Promise<PaymentRow | null> {
  const payment = await queries.selectPaymentById(dependencies.database, job.paymentId);
  if (payment === null || payment.status !== "pending") {
    return payment;
  }
  return refreshPayment(dependencies, payment);
}

/**
 * The code window closed: one last, unthrottled inquiry decides. Paid in the last second is paid;
 * a gateway that cannot answer throws (tried again later), never an expiry by guesswork.
 */
export async function expireIfUnpaid(
  dependencies: PaymentDependencies,
  job: { paymentId: string },
): Promise<PaymentRow | null> {
  const payment = await queries.selectPaymentById(dependencies.database, job.paymentId);
  if (payment === null || payment.status !== "pending") {
    return payment;
  }
  return expireAfterInquiry(dependencies, await refreshPayment(dependencies, payment, { force: true }));
}

/** The last inquiry said (or someone else made it) pending, paid, failed or expired; pending expires. */
async function expireAfterInquiry(dependencies: PaymentDependencies, refreshed: PaymentRow): Promise<PaymentRow> {
  if (refreshed.status !== "pending") {
    return refreshed;
  }
  return expirePayment(dependencies, refreshed, { onlyWhenDue: true });
}

/**
 * The gateway-poller's claim (`claimDueRows`): up to `limit` payments whose poll is due, each an
 * item that asks about it; a paid one settles.
 */
export async function claimDuePaymentPolls(
  dependencies: PaymentDependencies,
  limit: number,
): Promise<readonly PumpItem[]> {
  return claimDueRows(dependencies, queries.DUE_PAYMENTS, "poll", limit, (payment) =>
    inquireClaimed(dependencies, payment, {}),
  );
}

/**
 * The code-expiry pool's claim (`claimDueRows`): up to `limit` pending payments whose window has
 * closed, each an item that expires it after its last inquiry; one whose inquiry cannot decide is left
 * pending, claimed again after its backoff.
 */
export async function claimDuePaymentExpiries(
  dependencies: PaymentDependencies,
  limit: number,
): Promise<readonly PumpItem[]> {
  return claimDueRows(dependencies, queries.DUE_PAYMENTS, "expiry", limit, async (payment) =>
    expireAfterInquiry(dependencies, await inquireClaimed(dependencies, payment, { force: true })),
  );
}
