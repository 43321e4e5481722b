import { formatMoney } from "../../kernel/money.ts";
import type { Config } from "../../platform/config.ts";
import { qrPngDataUrl } from "../../platform/qr/index.ts";
import type { PaymentRow } from "./schemas.ts";

/** A payment as the API shows it (`paymentSchema`): its code as a deep link, a QR image and a USSD string. */

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

export function presentPayment(config: Config, payment: PaymentRow) {
  return {
    id: payment.id,
    object: "payment" as const,
    livemode: payment.livemode,
    status: payment.status,
    amount_cents: payment.amount_cents,
    currency: payment.currency,
    fee_cents: payment.fee_cents,
    narration: payment.narration,
    merchant_ref: payment.merchant_ref,
    metadata: payment.metadata,
    reference: payment.reference,
    code: payment.code,
    qr_png_data_url: qrPngDataUrlOf(config, payment.code),
    deep_link: deepLinkOf(config, payment.code),
    ussd: ussdOf(config, payment),
    checkout_url: `${config.publicBaseUrl}/checkout/${payment.id}`,
    expires_at: payment.expires_at.toISOString(),
    paid_at: payment.paid_at?.toISOString() ?? null,
    failure_reason: payment.failure_reason,
    success_url: payment.success_url,
    cancel_url: payment.cancel_url,
    cancelled_at: payment.cancelled_at?.toISOString() ?? null,
    late_payment:
      payment.late_paid_at === null || payment.late_refund === null
        ? null
        : {
            paid_at: payment.late_paid_at.toISOString(),
            payer_msisdn: payment.payer_msisdn,
            refund: payment.late_refund,
            refund_reference: payment.late_refund_reference,
          },
    created_at: payment.created_at.toISOString(),
  };
}
