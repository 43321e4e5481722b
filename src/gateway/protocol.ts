import { z } from "zod";
import { currencies } from "../kernel/money.ts";

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

export const paymentCodeStates = ["pending", "paid", "expired", "unusable", "voided"] as const;

/** `POST /v1/payment-codes/{code}/void`: the platform's payment id, checked against the code's. */
export const voidPaymentCodeRequestSchema = z.object({ payment_id: z.string().min(1).max(100) });

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
  "not_supported",
] as const;
export const gatewayErrorSchema = z.object({
  error: z.object({ code: z.enum(gatewayErrorCodes), message: z.string() }),
});

const msisdn = z.string().regex(/^263[0-9]{6,12}$/);

/** Payouts: `POST /v1/payouts` (idempotent on `payout_id`), `GET /v1/payouts/{payout_id}`. */
export const submitPayoutRequestSchema = z.object({
  payout_id: z.string().min(1).max(100),
  amount_cents: z.number().int().positive(),
  currency: z.enum(currencies),
  destination_msisdn: msisdn,
  reference: z.string().min(1).max(100),
  narration: z.string().max(200),
});
export type SubmitPayoutWireRequest = z.infer<typeof submitPayoutRequestSchema>;

export const payoutStates = ["processing", "completed", "rejected"] as const;
export const payoutWireSchema = z.object({
  payout_id: z.string(),
  reference: z.string(),
  status: z.enum(payoutStates),
  amount_cents: z.number().int(),
  currency: z.enum(currencies),
  destination_msisdn: z.string(),
  destination_name: z.string().nullable(),
  accepted_at: z.iso.datetime(),
  completed_at: z.iso.datetime().nullable(),
  reason: z.string().nullable(),
});
export type PayoutWire = z.infer<typeof payoutWireSchema>;

/** Account lookup: `GET /v1/accounts/{msisdn}?currency=`. */
export const accountWireSchema = z.object({
  msisdn: z.string(),
  name: z.string(),
  accounts: z.array(z.object({ account_number: z.string(), currency: z.enum(currencies), type: z.literal("wallet") })),
});
export type AccountWire = z.infer<typeof accountWireSchema>;

/** Withdrawal codes: `POST /v1/withdrawal-codes` (idempotent on `withdrawal_id`), `GET /v1/withdrawal-codes/{code}`. */
export const issueWithdrawalCodeRequestSchema = z.object({
  withdrawal_id: z.string().min(1).max(100),
  amount_cents: z.number().int().positive(),
  currency: z.enum(currencies),
  merchant_name: z.string().min(1).max(200),
  expires_at: z.iso.datetime(),
});
export type IssueWithdrawalCodeWireRequest = z.infer<typeof issueWithdrawalCodeRequestSchema>;

export const withdrawalCodeStates = ["pending", "redeemed", "expired"] as const;
export const withdrawalCodeWireSchema = z.object({
  code: z.string().regex(/^[0-9]{9}$/),
  withdrawal_id: z.string(),
  reference: z.string(),
  status: z.enum(withdrawalCodeStates),
  amount_cents: z.number().int(),
  currency: z.enum(currencies),
  expires_at: z.iso.datetime(),
  redeemed_at: z.iso.datetime().nullable(),
  customer_msisdn: z.string().nullable(),
});
export type WithdrawalCodeWire = z.infer<typeof withdrawalCodeWireSchema>;

/** Change-to-wallet: `POST /v1/wallet-transfers` (idempotent on `transfer_id`), `GET /v1/wallet-transfers/{transfer_id}`. */
export const walletTransferRequestSchema = z.object({
  transfer_id: z.string().min(1).max(100),
  amount_cents: z.number().int().positive(),
  currency: z.enum(currencies),
  destination_msisdn: msisdn,
  narration: z.string().max(200).nullable(),
});
export type WalletTransferWireRequest = z.infer<typeof walletTransferRequestSchema>;

export const transferStates = ["completed", "rejected"] as const;
export const walletTransferWireSchema = z.object({
  transfer_id: z.string(),
  reference: z.string().nullable(),
  status: z.enum(transferStates),
  amount_cents: z.number().int(),
  currency: z.enum(currencies),
  destination_msisdn: z.string(),
  recipient_name: z.string().nullable(),
  completed_at: z.iso.datetime().nullable(),
  reason: z.string().nullable(),
});
export type WalletTransferWire = z.infer<typeof walletTransferWireSchema>;

/** Utility payments: `POST /v1/utility-payments` (idempotent on `payment_id`), `GET /v1/utility-payments/{payment_id}`. */
export const utilityPaymentRequestSchema = z.object({
  payment_id: z.string().min(1).max(100),
  provider: z.string().min(1).max(50),
  product: z.string().min(1).max(50),
  amount_cents: z.number().int().positive(),
  currency: z.enum(currencies),
  account: z.string().min(1).max(64),
  additional_data: z.record(z.string(), z.unknown()),
});
export type UtilityPaymentWireRequest = z.infer<typeof utilityPaymentRequestSchema>;

export const utilityPaymentWireSchema = z.object({
  payment_id: z.string(),
  reference: z.string().nullable(),
  status: z.enum(transferStates),
  amount_cents: z.number().int(),
  currency: z.enum(currencies),
  token: z.string().nullable(),
  receipt: z.record(z.string(), z.union([z.string(), z.number(), z.null()])).nullable(),
  completed_at: z.iso.datetime().nullable(),
  reason: z.string().nullable(),
});
export type UtilityPaymentWire = z.infer<typeof utilityPaymentWireSchema>;
