import { z } from "zod";
import { currencies } from "../platform/http/validation.ts";

/**
 * The wire protocol between our HTTP gateway client and a wallet gateway (a real one, or our
 * simulator), documented in docs/gateway-protocol.md. Both sides parse with these schemas.
 */

export const issuePaymentCodeRequestSchema = z.object({
  payment_id: z.string().min(1).max(100),
  amount_cents: z.number().int().positive(),
  currency: z.enum(currencies),
  merchant_name: z.string().min(1).max(200),
  narration: z.string().max(200).nullable(),
  expires_at: z.iso.datetime(),
});
export type IssuePaymentCodeWireRequest = z.infer<typeof issuePaymentCodeRequestSchema>;

export const paymentCodeStates = ["pending", "paid", "expired", "unusable"] as const;

export const paymentCodeSchema = z.object({
  code: z.string().regex(/^[0-9]{9}$/),
  payment_id: z.string(),
  reference: z.string(),
  status: z.enum(paymentCodeStates),
  amount_cents: z.number().int(),
  currency: z.enum(currencies),
  expires_at: z.iso.datetime(),
  paid_at: z.iso.datetime().nullable(),
  payer_msisdn: z.string().nullable(),
  reason: z.string().nullable(),
});
export type PaymentCodeWire = z.infer<typeof paymentCodeSchema>;

/** Error answers: `{error: {code, message}}`. */
export const gatewayErrorCodes = [
  "unauthorized",
  "not_found",
  "invalid_request",
  "code_generation_failed",
  "unavailable",
] as const;
export const gatewayErrorSchema = z.object({
  error: z.object({ code: z.enum(gatewayErrorCodes), message: z.string() }),
});
