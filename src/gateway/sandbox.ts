import { randomInt } from "node:crypto";
import { holderNameOf, referenceOf, utilityReceiptOf, walletAccountNumberOf } from "./network-data.ts";
import {
  type AccountHolder,
  type AccountLookupRequest,
  type ChangeToWalletCompleted,
  type ChangeToWalletInquiry,
  type ChangeToWalletRequest,
  CodeGenerationError,
  GatewayUnavailableError,
  type IssuedPaymentCode,
  type IssuedWithdrawalCode,
  type IssuePaymentCodeRequest,
  type IssueWithdrawalCodeRequest,
  type PaymentCodeInquiry,
  type PaymentCodeStatus,
  type PaymentCodeVoid,
  type PaymentCodeVoidRequest,
  type PayoutInquiry,
  type PayoutStatus,
  type SubmitPayoutRequest,
  type TransferAttempts,
  type TransferOutcome,
  type TransferStatus,
  type UtilityPaymentCompleted,
  type UtilityPaymentInquiry,
  type UtilityPaymentRequest,
  type WalletGateway,
  type WithdrawalCodeInquiry,
  type WithdrawalCodeStatus,
} from "./wallet-gateway.ts";

/**
 * The test world's gateway: in-process, deterministic and time-driven. It keeps no state, so every
 * API replica and worker agrees: a payment settles by itself `autoSettleMs` after its code was issued
 * (18 s by default), and these amounts (in cents) trigger the other outcomes:
 */
export const SANDBOX_MAGIC_AMOUNTS = {
  /** Creating the payment (or withdrawal code) fails with 502 `gateway_error`. */
  gatewayUnavailable: 10_502,
  /** Creating the payment (or withdrawal code) fails with 502 `code_generation_failed`. */
  codeGenerationFailed: 10_503,
  /** The gateway reports the code unusable: the payment fails (`payment.failed`). */
  codeUnusable: 10_410,
  /** Never settles by itself: it stays pending until mockpay or expiry. */
  neverSettles: 10_408,
} as const;

/**
 * Money out is steered by the last four digits of the destination (the payout wallet, the
 * change-to-wallet number, the utility account, the looked-up number):
 */
export const SANDBOX_MAGIC_ENDINGS = {
  /**
   * Payouts: accepted, then rejected when they settle (`failed`, balance restored). Change-to-wallet
   * and utility payments: refused at once. Account lookup: no such wallet.
   */
  rejected: "0000",
  /** The first submission fails as a transient gateway fault; the next one goes through. */
  transientFault: "0096",
} as const;

const endsWith = (account: string, ending: string) => account.endsWith(ending);

/**
 * Whether the stateless sandbox "received" a submission: the transient-fault destination's first
 * attempt never arrives; any other attempt does.
 */
function received(destination: string, attempts: number): boolean {
  return attempts >= (endsWith(destination, SANDBOX_MAGIC_ENDINGS.transientFault) ? 2 : 1);
}

function transientFault(destination: string, attempt: number): void {
  if (endsWith(destination, SANDBOX_MAGIC_ENDINGS.transientFault) && attempt === 1) {
    throw new GatewayUnavailableError("sandbox: transient fault on the first attempt (destination ending 0096)");
  }
}

/**
 * The test world's gateway. Longer than 70 lines on purpose: it is the whole `WalletGateway`
 * interface, each operation a few lines of the deterministic rules above, in one closure over the
 * clock and the settle delays they share; it reads as the list of the sandbox's answers.
 */
export function createSandboxGateway(options: {
  autoSettleMs: number;
  /** How long after submission a payout settles (20 s by default). */
  payoutSettleMs?: number;
  now?: () => number;
}): WalletGateway {
  const now = options.now ?? Date.now;
  const payoutSettleMs = options.payoutSettleMs ?? 20_000;

  function randomCode(): string {
    return String(randomInt(0, 1_000_000_000)).padStart(9, "0");
  }

  function magicAmountFaults(amountCents: number): void {
    if (amountCents === SANDBOX_MAGIC_AMOUNTS.gatewayUnavailable) {
      throw new GatewayUnavailableError("sandbox: gateway unavailable (magic amount)");
    }
    if (amountCents === SANDBOX_MAGIC_AMOUNTS.codeGenerationFailed) {
      throw new CodeGenerationError("sandbox: code generation failed (magic amount)");
    }
  }

  function payoutStatusAt(request: { payoutId: string; destinationMsisdn: string }, acceptedAt: Date): PayoutStatus {
    const gatewayReference = `sbx_${request.payoutId}`;
    const destinationName = holderNameOf(request.destinationMsisdn);
    const settlesAt = acceptedAt.getTime() + payoutSettleMs;
    if (now() < settlesAt) {
      return { state: "processing", gatewayReference, destinationName, acceptedAt };
    }
    if (endsWith(request.destinationMsisdn, SANDBOX_MAGIC_ENDINGS.rejected)) {
      return {
        state: "rejected",
        gatewayReference,
        destinationName,
        reason: "sandbox: the destination wallet is closed (account ending 0000)",
      };
    }
    return { state: "completed", gatewayReference, destinationName, acceptedAt, completedAt: new Date(settlesAt) };
  }

  function changeOutcome(
    request: { transferId: string; destinationMsisdn: string },
    at: Date,
  ): TransferOutcome<ChangeToWalletCompleted> {
    if (endsWith(request.destinationMsisdn, SANDBOX_MAGIC_ENDINGS.rejected)) {
      return { state: "rejected", reason: "sandbox: no wallet is registered for this number" };
    }
    return {
      state: "completed",
      gatewayReference: referenceOf("CTW", request.transferId),
      completedAt: at,
      recipientName: holderNameOf(request.destinationMsisdn),
    };
  }

  function utilityOutcome(
    request: Omit<UtilityPaymentRequest, "attempt">,
    at: Date,
  ): TransferOutcome<UtilityPaymentCompleted> {
    if (endsWith(request.account, SANDBOX_MAGIC_ENDINGS.rejected)) {
      return { state: "rejected", reason: `sandbox: ${request.provider} has no account ${request.account}` };
    }
    const { providerReference, token, receipt } = utilityReceiptOf(request);
    return { state: "completed", gatewayReference: providerReference, completedAt: at, token, receipt };
  }

  /** An inquiry of an instant transfer: what the sandbox answered when it received the submission. */
  function inquireTransfer<Completed>(
    destination: string,
    attempts: TransferAttempts,
    outcome: (at: Date) => TransferOutcome<Completed>,
  ): TransferStatus<Completed> {
    if (!received(destination, attempts.attempts) || attempts.lastAttemptAt === null) {
      return { state: "not_found" };
    }
    return outcome(attempts.lastAttemptAt);
  }

  return {
    async issuePaymentCode(request: IssuePaymentCodeRequest): Promise<IssuedPaymentCode> {
      magicAmountFaults(request.amountCents);
      return { code: randomCode(), gatewayReference: `sbx_${request.paymentId}` };
    },
    async inquirePaymentCode(request: PaymentCodeInquiry): Promise<PaymentCodeStatus> {
      if (request.amountCents === SANDBOX_MAGIC_AMOUNTS.codeUnusable) {
        return { state: "unusable", reason: "sandbox: code unusable (magic amount)" };
      }
      const settlesAt = request.issuedAt.getTime() + options.autoSettleMs;
      if (request.amountCents !== SANDBOX_MAGIC_AMOUNTS.neverSettles && now() >= settlesAt) {
        return { state: "paid", paidAt: new Date(settlesAt), payerMsisdn: null };
      }
      return { state: "pending" };
    },
    // Stateless, the sandbox honours a void by the time it is asked: a code it would already have
    // settled was paid first; any other is void, and the platform never asks about it again.
    async voidPaymentCode(request: PaymentCodeVoidRequest): Promise<PaymentCodeVoid> {
      const settlesAt = request.issuedAt.getTime() + options.autoSettleMs;
      const settles =
        request.amountCents !== SANDBOX_MAGIC_AMOUNTS.neverSettles &&
        request.amountCents !== SANDBOX_MAGIC_AMOUNTS.codeUnusable;
      if (settles && now() >= settlesAt) {
        return { state: "paid", paidAt: new Date(settlesAt), payerMsisdn: null };
      }
      return { state: "voided" };
    },

    async submitPayout(request: SubmitPayoutRequest) {
      transientFault(request.destinationMsisdn, request.attempt);
      return payoutStatusAt(request, new Date(now())) as Exclude<PayoutStatus, { state: "not_found" }>;
    },
    async inquirePayout(request: PayoutInquiry): Promise<PayoutStatus> {
      const acceptedAt =
        request.acceptedAt ?? (received(request.destinationMsisdn, request.attempts) ? request.lastAttemptAt : null);
      return acceptedAt === null ? { state: "not_found" } : payoutStatusAt(request, acceptedAt);
    },

    async lookupAccount(request: AccountLookupRequest): Promise<AccountHolder> {
      if (endsWith(request.msisdn, SANDBOX_MAGIC_ENDINGS.rejected)) {
        return null;
      }
      return {
        msisdn: request.msisdn,
        name: holderNameOf(request.msisdn),
        accounts: [
          {
            accountNumber: walletAccountNumberOf(request.msisdn, request.currency),
            currency: request.currency,
            type: "wallet",
          },
        ],
      };
    },

    async issueWithdrawalCode(request: IssueWithdrawalCodeRequest): Promise<IssuedWithdrawalCode> {
      magicAmountFaults(request.amountCents);
      return { code: randomCode(), gatewayReference: `sbx_${request.withdrawalId}` };
    },
    // Test codes are claimed only through the platform's instant-settle hook: the sandbox never
    // reports a claim by itself.
    async inquireWithdrawalCode(_request: WithdrawalCodeInquiry): Promise<WithdrawalCodeStatus> {
      return { state: "pending" };
    },

    async sendChangeToWallet(request: ChangeToWalletRequest): Promise<TransferOutcome<ChangeToWalletCompleted>> {
      transientFault(request.destinationMsisdn, request.attempt);
      return changeOutcome(request, new Date(now()));
    },
    async inquireChangeToWallet(request: ChangeToWalletInquiry): Promise<TransferStatus<ChangeToWalletCompleted>> {
      return inquireTransfer(request.destinationMsisdn, request, (at) => changeOutcome(request, at));
    },

    async payUtility(request: UtilityPaymentRequest): Promise<TransferOutcome<UtilityPaymentCompleted>> {
      transientFault(request.account, request.attempt);
      return utilityOutcome(request, new Date(now()));
    },
    async inquireUtilityPayment(request: UtilityPaymentInquiry): Promise<TransferStatus<UtilityPaymentCompleted>> {
      return inquireTransfer(request.account, request, (at) => utilityOutcome(request, at));
    },
  };
}
