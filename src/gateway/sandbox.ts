import { randomInt } from "node:crypto";
import {
  CodeGenerationError,
  GatewayUnavailableError,
  type IssuedPaymentCode,
  type IssuePaymentCodeRequest,
  type PaymentCodeInquiry,
  type PaymentCodeStatus,
  type PaymentGateway,
} from "./wallet-gateway.ts";

/**
 * The test world's gateway: in-process, deterministic and time-driven. It keeps no state, so every
 * API replica and worker agrees: a payment settles by itself `autoSettleMs` after its code was issued
 * (18 s by default), and these amounts (in cents) trigger the other outcomes:
 */
export const SANDBOX_MAGIC_AMOUNTS = {
  /** Creating the payment fails with 502 `gateway_error`. */
  gatewayUnavailable: 10_502,
  /** Creating the payment fails with 502 `code_generation_failed`. */
  codeGenerationFailed: 10_503,
  /** The gateway reports the code unusable: the payment fails (`payment.failed`). */
  codeUnusable: 10_410,
  /** Never settles by itself: it stays pending until mockpay or expiry. */
  neverSettles: 10_408,
} as const;

export function createSandboxGateway(options: { autoSettleMs: number; now?: () => number }): PaymentGateway {
  const now = options.now ?? Date.now;
  return {
    async issuePaymentCode(request: IssuePaymentCodeRequest): Promise<IssuedPaymentCode> {
      if (request.amountCents === SANDBOX_MAGIC_AMOUNTS.gatewayUnavailable) {
        throw new GatewayUnavailableError("sandbox: gateway unavailable (magic amount)");
      }
      if (request.amountCents === SANDBOX_MAGIC_AMOUNTS.codeGenerationFailed) {
        throw new CodeGenerationError("sandbox: code generation failed (magic amount)");
      }
      return {
        code: String(randomInt(0, 1_000_000_000)).padStart(9, "0"),
        gatewayReference: `sbx_${request.paymentId}`,
      };
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
  };
}
