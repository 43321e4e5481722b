import type { Currency } from "../platform/http/validation.ts";

/**
 * What the platform needs from the wallet network. Three implementations answer it: the sandbox
 * (test world, in-process, deterministic), the HTTP client (live world, a real gateway or our
 * simulator), and, on the far side of that client, the gateway simulator service.
 *
 * Payments are here now; payouts, account lookup, withdrawal codes, change-to-wallet and utility
 * payments join this interface with the issues that use them.
 *
 * Every call is idempotent on the platform's own identifier (`paymentId`), so a call whose outcome was
 * unclear (a timeout) is safely repeated or settled by inquiry, never guessed.
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

export interface PaymentGateway {
  issuePaymentCode(request: IssuePaymentCodeRequest): Promise<IssuedPaymentCode>;
  inquirePaymentCode(request: PaymentCodeInquiry): Promise<PaymentCodeStatus>;
}

/** The gateway of each world: the key's prefix picks one. */
export type Gateways = { test: PaymentGateway; live: PaymentGateway };

/** The gateway is unreachable or failing: the API answers 502 `gateway_error`; retry with the same key. */
export class GatewayUnavailableError extends Error {
  override name = "GatewayUnavailableError";
}

/** The gateway could not issue a code: 502 `code_generation_failed`; retry with the same key. */
export class CodeGenerationError extends Error {
  override name = "CodeGenerationError";
}
