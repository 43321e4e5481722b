import type { z } from "zod";
import { gatewayCallDurationSeconds } from "./metrics.ts";
import {
  accountWireSchema,
  type PayoutWire,
  paymentCodeSchema,
  payoutWireSchema,
  type UtilityPaymentWire,
  utilityPaymentWireSchema,
  type WalletTransferWire,
  walletTransferWireSchema,
  withdrawalCodeWireSchema,
} from "./protocol.ts";
import {
  type AccountHolder,
  type ChangeToWalletCompleted,
  CodeGenerationError,
  GatewayUnavailableError,
  type IssuedPaymentCode,
  type IssuePaymentCodeRequest,
  type PaymentCodeInquiry,
  type PaymentCodeStatus,
  type PaymentCodeVoid,
  type PaymentCodeVoidRequest,
  type PayoutStatus,
  type TransferStatus,
  type UtilityPaymentCompleted,
  type WalletGateway,
  type WithdrawalCodeStatus,
} from "./wallet-gateway.ts";

/**
 * The live world's gateway: the protocol of docs/gateway-protocol.md over HTTP. Every call has a
 * deadline; calls are idempotent (on the platform's payment, payout, withdrawal or transfer id), so a
 * failed or unanswered call is retried a bounded number of times with a short backoff, then reported
 * as unavailable. Whether an unanswered money-moving call took effect is settled by inquiry.
 *
 * Longer than 70 lines on purpose: it is the whole `WalletGateway` interface (each operation a short
 * request-and-parse under `timed`) over one closure holding the base URL, the deadline and the
 * retrying `call`; split into files, every operation would take that state as arguments and the
 * protocol would no longer read as one list beside docs/gateway-protocol.md.
 */
export function createHttpGateway(options: {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
  retries: number;
}): WalletGateway {
  const base = options.baseUrl.replace(/\/+$/, "");

  /** Times a whole call (retries included) and labels it with its outcome. */
  async function timed<T>(operation: string, work: () => Promise<T>): Promise<T> {
    const stop = gatewayCallDurationSeconds.startTimer({ operation });
    try {
      const result = await work();
      stop({ outcome: "ok" });
      return result;
    } catch (error) {
      stop({ outcome: error instanceof CodeGenerationError ? "code_generation_failed" : "unavailable" });
      throw error;
    }
  }

  /**
   * One protocol call with its retries. With `notFound: "null"`, a 404 `not_found` answer is a result
   * (the gateway does not know the object), returned as null.
   */
  async function call(
    method: "GET" | "POST",
    path: string,
    callOptions: { body?: unknown; notFound?: "null"; notSupported?: "null" } = {},
  ): Promise<unknown> {
    const { body } = callOptions;
    let lastError: Error = new GatewayUnavailableError("no attempt made");
    for (let attempt = 0; attempt <= options.retries; attempt += 1) {
      if (attempt > 0) {
        await new Promise((resolve) => setTimeout(resolve, 100 * 2 ** (attempt - 1)));
      }
      let response: Response;
      try {
        response = await fetch(`${base}${path}`, {
          method,
          headers: {
            authorization: `Bearer ${options.apiKey}`,
            ...(body === undefined ? {} : { "content-type": "application/json" }),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          signal: AbortSignal.timeout(options.timeoutMs),
        });
      } catch (error) {
        lastError = new GatewayUnavailableError(`gateway ${method} ${path}: ${(error as Error).message}`);
        continue;
      }
      const payload: unknown = await response.json().catch(() => null);
      if (response.ok) {
        return payload;
      }
      if (response.status === 404 && callOptions.notFound === "null" && errorCodeOf(payload) === "not_found") {
        return null;
      }
      // A gateway that cannot do this at all says so for good: an answer, not a fault to retry.
      if (response.status === 501 && callOptions.notSupported === "null" && errorCodeOf(payload) === "not_supported") {
        return null;
      }
      if (response.status === 422) {
        // The gateway answered: a retry would ask again for the same payment; the caller decides.
        throw new CodeGenerationError(`gateway could not issue a code (${JSON.stringify(payload)})`);
      }
      lastError = new GatewayUnavailableError(`gateway ${method} ${path} answered ${response.status}`);
      // Client errors other than 422 will not change on a retry.
      if (response.status < 500 && response.status !== 429) {
        break;
      }
    }
    throw lastError;
  }

  /** A gateway answering nonsense is as good as unavailable: never a 500 of ours. */
  function parse<S extends z.ZodType>(schema: S, payload: unknown): z.output<S> {
    const parsed = schema.safeParse(payload);
    if (!parsed.success) {
      throw new GatewayUnavailableError("the gateway's answer does not follow the protocol");
    }
    return parsed.data;
  }

  function payoutStatusOf(payout: PayoutWire, payoutId: string): Exclude<PayoutStatus, { state: "not_found" }> {
    if (payout.payout_id !== payoutId) {
      throw new GatewayUnavailableError(`gateway answered about payout ${payout.payout_id}, not ${payoutId}`);
    }
    const common = { gatewayReference: payout.reference, destinationName: payout.destination_name };
    switch (payout.status) {
      case "processing":
        return { state: "processing", ...common, acceptedAt: new Date(payout.accepted_at) };
      case "completed":
        return {
          state: "completed",
          ...common,
          acceptedAt: new Date(payout.accepted_at),
          completedAt: new Date(payout.completed_at ?? payout.accepted_at),
        };
      case "rejected":
        return { state: "rejected", ...common, reason: payout.reason ?? "rejected by the gateway" };
    }
  }

  function transferStatusOf(transfer: WalletTransferWire, transferId: string) {
    if (transfer.transfer_id !== transferId) {
      throw new GatewayUnavailableError(`gateway answered about transfer ${transfer.transfer_id}, not ${transferId}`);
    }
    if (transfer.status === "rejected") {
      return { state: "rejected", reason: transfer.reason ?? "rejected by the gateway" } as const;
    }
    return {
      state: "completed",
      gatewayReference: transfer.reference ?? transfer.transfer_id,
      completedAt: new Date(transfer.completed_at ?? Date.now()),
      recipientName: transfer.recipient_name ?? "",
    } as const;
  }

  function utilityStatusOf(payment: UtilityPaymentWire, paymentId: string) {
    if (payment.payment_id !== paymentId) {
      throw new GatewayUnavailableError(`gateway answered about payment ${payment.payment_id}, not ${paymentId}`);
    }
    if (payment.status === "rejected") {
      return { state: "rejected", reason: payment.reason ?? "rejected by the provider" } as const;
    }
    return {
      state: "completed",
      gatewayReference: payment.reference ?? payment.payment_id,
      completedAt: new Date(payment.completed_at ?? Date.now()),
      token: payment.token,
      receipt: payment.receipt ?? {},
    } as const;
  }

  return {
    issuePaymentCode: (request: IssuePaymentCodeRequest): Promise<IssuedPaymentCode> =>
      timed("issue_payment_code", async () => {
        const issued = parse(
          paymentCodeSchema,
          await call("POST", "/v1/payment-codes", {
            body: {
              payment_id: request.paymentId,
              amount_cents: request.amountCents,
              currency: request.currency,
              merchant_name: request.merchantName,
              narration: request.narration,
              expires_at: request.expiresAt.toISOString(),
            },
          }),
        );
        return { code: issued.code, gatewayReference: issued.reference };
      }),
    inquirePaymentCode: (request: PaymentCodeInquiry): Promise<PaymentCodeStatus> =>
      timed("inquire_payment_code", async () => {
        const found = parse(
          paymentCodeSchema,
          await call("GET", `/v1/payment-codes/${encodeURIComponent(request.code)}`),
        );
        if (found.payment_id !== request.paymentId) {
          throw new GatewayUnavailableError(`gateway code ${request.code} belongs to another payment`);
        }
        switch (found.status) {
          case "paid":
            return { state: "paid", paidAt: new Date(found.paid_at ?? Date.now()), payerMsisdn: found.payer_msisdn };
          case "expired":
            return { state: "expired" };
          case "unusable":
            return { state: "unusable", reason: found.reason ?? "reported unusable by the gateway" };
          case "voided":
            return { state: "unusable", reason: found.reason ?? "voided" };
          case "pending":
            return { state: "pending" };
        }
      }),
    voidPaymentCode: (request: PaymentCodeVoidRequest): Promise<PaymentCodeVoid> =>
      timed("void_payment_code", async () => {
        const answer = await call("POST", `/v1/payment-codes/${encodeURIComponent(request.code)}/void`, {
          body: { payment_id: request.paymentId },
          notSupported: "null",
        });
        if (answer === null) {
          return { state: "unsupported" };
        }
        const found = parse(paymentCodeSchema, answer);
        if (found.payment_id !== request.paymentId) {
          throw new GatewayUnavailableError(`gateway code ${request.code} belongs to another payment`);
        }
        switch (found.status) {
          case "paid":
            return { state: "paid", paidAt: new Date(found.paid_at ?? Date.now()), payerMsisdn: found.payer_msisdn };
          case "pending":
            throw new GatewayUnavailableError(`gateway left code ${request.code} payable after a void`);
          default:
            // Voided, lapsed or unusable: the code can no longer be paid.
            return { state: "voided" };
        }
      }),

    submitPayout: (request) =>
      timed("submit_payout", async () => {
        const payout = parse(
          payoutWireSchema,
          await call("POST", "/v1/payouts", {
            body: {
              payout_id: request.payoutId,
              amount_cents: request.amountCents,
              currency: request.currency,
              destination_msisdn: request.destinationMsisdn,
              reference: request.reference,
              narration: request.narration,
            },
          }),
        );
        return payoutStatusOf(payout, request.payoutId);
      }),
    inquirePayout: (request) =>
      timed("inquire_payout", async (): Promise<PayoutStatus> => {
        const found = await call("GET", `/v1/payouts/${encodeURIComponent(request.payoutId)}`, { notFound: "null" });
        return found === null
          ? { state: "not_found" }
          : payoutStatusOf(parse(payoutWireSchema, found), request.payoutId);
      }),

    lookupAccount: (request) =>
      timed("lookup_account", async (): Promise<AccountHolder> => {
        const found = await call(
          "GET",
          `/v1/accounts/${encodeURIComponent(request.msisdn)}?currency=${encodeURIComponent(request.currency)}`,
          { notFound: "null" },
        );
        if (found === null) {
          return null;
        }
        const account = parse(accountWireSchema, found);
        return {
          msisdn: account.msisdn,
          name: account.name,
          accounts: account.accounts.map((each) => ({
            accountNumber: each.account_number,
            currency: each.currency,
            type: each.type,
          })),
        };
      }),

    issueWithdrawalCode: (request) =>
      timed("issue_withdrawal_code", async () => {
        const issued = parse(
          withdrawalCodeWireSchema,
          await call("POST", "/v1/withdrawal-codes", {
            body: {
              withdrawal_id: request.withdrawalId,
              amount_cents: request.amountCents,
              currency: request.currency,
              merchant_name: request.merchantName,
              expires_at: request.expiresAt.toISOString(),
            },
          }),
        );
        return { code: issued.code, gatewayReference: issued.reference };
      }),
    inquireWithdrawalCode: (request) =>
      timed("inquire_withdrawal_code", async (): Promise<WithdrawalCodeStatus> => {
        const found = parse(
          withdrawalCodeWireSchema,
          await call("GET", `/v1/withdrawal-codes/${encodeURIComponent(request.code)}`),
        );
        if (found.withdrawal_id !== request.withdrawalId) {
          throw new GatewayUnavailableError(`gateway code ${request.code} belongs to another withdrawal`);
        }
        switch (found.status) {
          case "redeemed":
            return {
              state: "redeemed",
              redeemedAt: new Date(found.redeemed_at ?? Date.now()),
              customerMsisdn: found.customer_msisdn,
            };
          case "expired":
            return { state: "expired" };
          case "pending":
            return { state: "pending" };
        }
      }),

    sendChangeToWallet: (request) =>
      timed("send_change_to_wallet", async () =>
        transferStatusOf(
          parse(
            walletTransferWireSchema,
            await call("POST", "/v1/wallet-transfers", {
              body: {
                transfer_id: request.transferId,
                amount_cents: request.amountCents,
                currency: request.currency,
                destination_msisdn: request.destinationMsisdn,
                narration: request.narration,
              },
            }),
          ),
          request.transferId,
        ),
      ),
    inquireChangeToWallet: (request) =>
      timed("inquire_change_to_wallet", async (): Promise<TransferStatus<ChangeToWalletCompleted>> => {
        const found = await call("GET", `/v1/wallet-transfers/${encodeURIComponent(request.transferId)}`, {
          notFound: "null",
        });
        return found === null
          ? { state: "not_found" }
          : transferStatusOf(parse(walletTransferWireSchema, found), request.transferId);
      }),

    payUtility: (request) =>
      timed("pay_utility", async () =>
        utilityStatusOf(
          parse(
            utilityPaymentWireSchema,
            await call("POST", "/v1/utility-payments", {
              body: {
                payment_id: request.paymentId,
                provider: request.provider,
                product: request.product,
                amount_cents: request.amountCents,
                currency: request.currency,
                account: request.account,
                additional_data: request.additionalData,
              },
            }),
          ),
          request.paymentId,
        ),
      ),
    inquireUtilityPayment: (request) =>
      timed("inquire_utility_payment", async (): Promise<TransferStatus<UtilityPaymentCompleted>> => {
        const found = await call("GET", `/v1/utility-payments/${encodeURIComponent(request.paymentId)}`, {
          notFound: "null",
        });
        return found === null
          ? { state: "not_found" }
          : utilityStatusOf(parse(utilityPaymentWireSchema, found), request.paymentId);
      }),
  };
}

function errorCodeOf(payload: unknown): unknown {
  return (payload as { error?: { code?: unknown } } | null)?.error?.code;
}
