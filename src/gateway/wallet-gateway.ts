import type { Currency } from "../kernel/money.ts";

/**
 * What the platform needs from the wallet network. Three implementations answer it: the sandbox
 * (test world, in-process, deterministic), the HTTP client (live world, a real gateway or our
 * simulator), and, on the far side of that client, the gateway simulator service.
 *
 * `WalletGateway` is the whole of it: payments, payouts, account lookup, withdrawal codes (cash-out),
 * change-to-wallet transfers and utility payments. Modules declare the part they use.
 *
 * Every call is idempotent on the platform's own identifier (`paymentId`, `payoutId`, `withdrawalId`,
 * `transferId`), so a call whose outcome was unclear (a timeout) is settled by inquiry or safely
 * repeated, never guessed. Fields marked "platform knowledge" are what the platform knows of its own
 * request; a real gateway needs only the identifier, the stateless sandbox answers from them.
 */

export type IssuePaymentCodeRequest = {
  /** The platform's payment id: the gateway returns the same code when asked again for it. */
  paymentId: string;
  amountCents: number;
  currency: Currency;
  merchantName: string;
  narration: string | null;
  expiresAt: Date;
};

export type IssuedPaymentCode = {
  /** Nine digits, unique among the gateway's codes still payable. */
  code: string;
  /** The gateway's own reference for the payment. */
  gatewayReference: string;
};

export type PaymentCodeStatus =
  | { state: "pending" }
  | { state: "paid"; paidAt: Date; payerMsisdn: string | null }
  | { state: "expired" }
  /** The gateway reports the code can never be paid (blocked, cancelled by the network). */
  | { state: "unusable"; reason: string };

export type PaymentCodeInquiry = {
  paymentId: string;
  code: string;
  /** What the platform knows of the payment; a real gateway needs only the code. */
  amountCents: number;
  issuedAt: Date;
};

/** What the platform knows of the code it asks the gateway to void. */
export type PaymentCodeVoidRequest = Pick<PaymentCodeInquiry, "paymentId" | "code" | "amountCents" | "issuedAt">;

/**
 * The gateway's answer to a void: the code can no longer be paid (`voided`, also when it had lapsed),
 * it was paid first (`paid`: nothing voided, the payment settles), or this gateway cannot void codes
 * (`unsupported`: the code stays payable until it expires). Unclear answers throw
 * `GatewayUnavailableError`.
 */
export type PaymentCodeVoid =
  | { state: "voided" }
  | { state: "paid"; paidAt: Date; payerMsisdn: string | null }
  | { state: "unsupported" };

export interface PaymentGateway {
  issuePaymentCode(request: IssuePaymentCodeRequest): Promise<IssuedPaymentCode>;
  inquirePaymentCode(request: PaymentCodeInquiry): Promise<PaymentCodeStatus>;
  /** Asks the network to refuse any later payment of the code; idempotent on the payment. */
  voidPaymentCode(request: PaymentCodeVoidRequest): Promise<PaymentCodeVoid>;
}

// Payouts: money from the merchant's balance to its verified wallet.

export type SubmitPayoutRequest = {
  /** The idempotency reference: submitting the same payout again never pays twice. */
  payoutId: string;
  amountCents: number;
  currency: Currency;
  destinationMsisdn: string;
  /** The platform's reference, shown to the recipient. */
  reference: string;
  narration: string;
  /** Platform knowledge: this submission's number (1 for the first). */
  attempt: number;
};

/** What the gateway knows of a payout. `not_found`: it never received it. */
export type PayoutStatus =
  | { state: "not_found" }
  | { state: "processing"; gatewayReference: string; destinationName: string | null; acceptedAt: Date }
  | {
      state: "completed";
      gatewayReference: string;
      destinationName: string | null;
      acceptedAt: Date;
      completedAt: Date;
    }
  | { state: "rejected"; gatewayReference: string | null; destinationName: string | null; reason: string };

export type PayoutInquiry = {
  payoutId: string;
  /** Platform knowledge: the request, when the gateway last accepted it (null: not known to have). */
  amountCents: number;
  destinationMsisdn: string;
  acceptedAt: Date | null;
  /** Platform knowledge: submissions attempted so far, and when the last one started. */
  attempts: number;
  lastAttemptAt: Date | null;
};

export interface PayoutGateway {
  /** Accepts (processing), completes at once, or rejects; throws `GatewayUnavailableError` when unclear. */
  submitPayout(request: SubmitPayoutRequest): Promise<Exclude<PayoutStatus, { state: "not_found" }>>;
  inquirePayout(request: PayoutInquiry): Promise<PayoutStatus>;
}

// Account lookup: who holds a wallet.

export type AccountLookupRequest = { msisdn: string; currency: Currency };
export type WalletAccount = { accountNumber: string; currency: Currency; type: "wallet" };
/** Null when the network has no wallet for this number. */
export type AccountHolder = { msisdn: string; name: string; accounts: WalletAccount[] } | null;

export interface AccountGateway {
  lookupAccount(request: AccountLookupRequest): Promise<AccountHolder>;
}

// Withdrawal codes: a customer cashes out at the merchant's till by claiming a code in their wallet.

export type IssueWithdrawalCodeRequest = {
  /** The platform's withdrawal id: the gateway returns the same code when asked again for it. */
  withdrawalId: string;
  amountCents: number;
  currency: Currency;
  merchantName: string;
  expiresAt: Date;
};
export type IssuedWithdrawalCode = { code: string; gatewayReference: string };

export type WithdrawalCodeStatus =
  | { state: "pending" }
  | { state: "redeemed"; redeemedAt: Date; customerMsisdn: string | null }
  | { state: "expired" };

export type WithdrawalCodeInquiry = {
  withdrawalId: string;
  code: string;
  /** Platform knowledge. */
  amountCents: number;
  issuedAt: Date;
};

export interface WithdrawalGateway {
  issueWithdrawalCode(request: IssueWithdrawalCodeRequest): Promise<IssuedWithdrawalCode>;
  inquireWithdrawalCode(request: WithdrawalCodeInquiry): Promise<WithdrawalCodeStatus>;
}

// Instant transfers (change-to-wallet, utility payments): done or refused in the call itself.

/** An instant transfer done: the gateway's reference, when, and what the operation adds. */
export type TransferCompleted<Completed> = {
  state: "completed";
  gatewayReference: string;
  completedAt: Date;
} & Completed;
/** What the gateway answers to a submission: done, or refused for good. */
export type TransferOutcome<Completed> = TransferCompleted<Completed> | { state: "rejected"; reason: string };
/** What the gateway knows of an instant transfer. `not_found`: it never received it. */
export type TransferStatus<Completed> = { state: "not_found" } | TransferOutcome<Completed>;

/** Platform knowledge sent with an inquiry: submissions attempted so far, the last one's start. */
export type TransferAttempts = { attempts: number; lastAttemptAt: Date | null };

export type ChangeToWalletRequest = {
  /** The idempotency reference. */
  transferId: string;
  amountCents: number;
  currency: Currency;
  destinationMsisdn: string;
  narration: string | null;
  /** Platform knowledge: this submission's number (1 for the first). */
  attempt: number;
};
export type ChangeToWalletCompleted = { recipientName: string };
export type ChangeToWalletInquiry = TransferAttempts & {
  transferId: string;
  /** Platform knowledge. */
  destinationMsisdn: string;
};

export interface ChangeToWalletGateway {
  sendChangeToWallet(request: ChangeToWalletRequest): Promise<TransferOutcome<ChangeToWalletCompleted>>;
  inquireChangeToWallet(request: ChangeToWalletInquiry): Promise<TransferStatus<ChangeToWalletCompleted>>;
}

export type UtilityPaymentRequest = {
  /** The idempotency reference. */
  paymentId: string;
  provider: string;
  product: string;
  amountCents: number;
  currency: Currency;
  /** The provider's account: meter, phone number, smartcard, water account. */
  account: string;
  additionalData: Record<string, unknown>;
  /** Platform knowledge: this submission's number (1 for the first). */
  attempt: number;
};
/** The provider's receipt: its reference, a token where the product has one, and provider details. */
export type UtilityPaymentCompleted = {
  token: string | null;
  receipt: Record<string, string | number | null>;
};
export type UtilityPaymentInquiry = TransferAttempts & Omit<UtilityPaymentRequest, "attempt">;

export interface UtilityGateway {
  payUtility(request: UtilityPaymentRequest): Promise<TransferOutcome<UtilityPaymentCompleted>>;
  inquireUtilityPayment(request: UtilityPaymentInquiry): Promise<TransferStatus<UtilityPaymentCompleted>>;
}

/** Everything the platform asks of the wallet network. */
export interface WalletGateway
  extends PaymentGateway,
    PayoutGateway,
    AccountGateway,
    WithdrawalGateway,
    ChangeToWalletGateway,
    UtilityGateway {}

/**
 * The gateway of each world: the key's prefix picks one. `Gateways` alone is the payment part (what
 * the payments module needs); `WalletGateways`, every operation.
 */
export type Gateways<Gateway extends PaymentGateway = PaymentGateway> = { test: Gateway; live: Gateway };
export type WalletGateways = Gateways<WalletGateway>;

/** The gateway of a world. */
export function gatewayOf<Gateway extends PaymentGateway>(gateways: Gateways<Gateway>, livemode: boolean): Gateway {
  return livemode ? gateways.live : gateways.test;
}

/** The gateway is unreachable or failing: the API answers 502 `gateway_error`; retry with the same key. */
export class GatewayUnavailableError extends Error {
  override name = "GatewayUnavailableError";
}

/** The gateway could not issue a code: 502 `code_generation_failed`; retry with the same key. */
export class CodeGenerationError extends Error {
  override name = "CodeGenerationError";
}
