import type { PaymentCodeStatus } from "../../gateway/wallet-gateway.ts";
import { GatewayUnavailableError } from "../../gateway/wallet-gateway.ts";
import type { World } from "../../kernel/world.ts";
import { gatewayOf, type PaymentDependencies, type PaymentEnding } from "./dependencies.ts";
import { expirePayment, failPayment, settlePayment } from "./ending.ts";
import { watchingUnconfirmedVoid } from "./late-payments.ts";
import * as queries from "./queries.ts";
import { getPayment } from "./reading.ts";
import type { PaymentRow } from "./schemas.ts";

/**
 * A payment refreshed from the gateway: asked at most once per interval across replicas (a GET, the
 * poller), or once more, unthrottled, when its window closes (the expiry), and what it says applied.
 */

/** A payment; while pending, refreshed from the gateway first (throttled: see `refreshPayment`). */
export async function getFreshPayment(
  dependencies: PaymentDependencies,
  world: World,
  paymentId: string,
): Promise<PaymentRow> {
  return refreshPayment(dependencies, await getPayment(dependencies.database, world, paymentId));
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
export async function inquireClaimed(
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

/**
 * The poller's turn for one payment: one (throttled) inquiry. Its next turn is not this function's:
 * the claim of `claimDuePaymentPolls` set it.
 */
export function pollPayment(dependencies: PaymentDependencies, job: { paymentId: string }): Promise<PaymentRow | null> {
  return whilePending(dependencies, job.paymentId, (payment) => refreshPayment(dependencies, payment));
}

/**
 * The code window closed: one last, unthrottled inquiry decides. Paid in the last second is paid;
 * a gateway that cannot answer throws (tried again later), never an expiry by guesswork.
 */
export function expireIfUnpaid(
  dependencies: PaymentDependencies,
  job: { paymentId: string },
): Promise<PaymentRow | null> {
  return whilePending(dependencies, job.paymentId, async (payment) =>
    expireAfterInquiry(dependencies, await refreshPayment(dependencies, payment, { force: true })),
  );
}

/** A job's payment handed to `then` while pending; as it stands otherwise (null: there is none). */
async function whilePending(
  dependencies: PaymentDependencies,
  paymentId: string,
  then: (payment: PaymentRow) => Promise<PaymentRow>,
): Promise<PaymentRow | null> {
  const payment = await queries.selectPaymentById(dependencies.database, paymentId);
  return payment === null || payment.status !== "pending" ? payment : then(payment);
}

/** The last inquiry said (or someone else made it) pending, paid, failed or expired; pending expires. */
export async function expireAfterInquiry(
  dependencies: PaymentDependencies,
  refreshed: PaymentRow,
): Promise<PaymentRow> {
  if (refreshed.status !== "pending") {
    return refreshed;
  }
  return expirePayment(dependencies, refreshed, { onlyWhenDue: true });
}
