import escapeHtml from "escape-html";
import { formatMoney } from "../../kernel/money.ts";
import { htmlPage } from "../../platform/http/html-page.ts";
import type { PaymentRow } from "../payments/index.ts";

/**
 * The hosted checkout page, rendered on the server from the payment (everything in it is escaped).
 * It carries no script of its own: /static/checkout.js reads the data-* attributes, counts down,
 * follows the payment and reports to a pos.js opener. Nothing secret is in it: the payment id in the
 * URL is the capability, and the page shows only what the payer needs.
 */
export type CheckoutView = {
  payment: PaymentRow;
  merchantName: string;
  deepLink: string;
  qrPngDataUrl: string;
  ussd: string;
};

const formatAmount = (payment: PaymentRow) => formatMoney(payment.currency, payment.amount_cents);
/** 123 456 789: easier to read out and type. */
const groupCode = (code: string) => code.replace(/(\d{3})(\d{3})(\d{3})/, "$1 $2 $3");

function layout(title: string, body: string): string {
  return htmlPage({ title, head: `<link rel="stylesheet" href="/static/checkout.css">`, body });
}

/** What the payer reads once the payment is no longer payable (also what checkout.js writes). */
const ENDED_TEXT: Record<Exclude<PaymentRow["status"], "pending">, string> = {
  paid: "Paid. Thank you!",
  expired: "This payment code has expired.",
  failed: "This payment could not be completed.",
  cancelled: "This payment was cancelled.",
};

export function checkoutPage(view: CheckoutView): string {
  const { payment } = view;
  const e = escapeHtml;
  // Only a payable code offers paying, simulating or cancelling; an ended one shows its state alone.
  const pending = payment.status === "pending";
  return layout(
    `Pay ${view.merchantName}`,
    `<main id="checkout" class="checkout"
  data-payment-id="${e(payment.id)}" data-status="${e(payment.status)}"
  data-expires-at="${e(payment.expires_at.toISOString())}"
  data-success-url="${e(payment.success_url ?? "")}" data-cancel-url="${e(payment.cancel_url ?? "")}"
  data-livemode="${payment.livemode}">
  ${payment.livemode ? "" : '<p class="test-banner" role="note">Test mode: no real money moves.</p>'}
  <header>
    <p class="merchant">${e(view.merchantName)}</p>
    <h1 class="amount">${e(formatAmount(payment))}</h1>
    ${payment.narration === null ? "" : `<p class="narration">${e(payment.narration)}</p>`}
  </header>
  <section id="pending" class="pending" aria-labelledby="code-label"${pending ? "" : " hidden"}>
    <p id="code-label">Your payment code</p>
    <p class="code" data-testid="code" aria-label="Payment code ${e(payment.code.split("").join(" "))}">${e(groupCode(payment.code))}</p>
    <img class="qr" src="${e(view.qrPngDataUrl)}" alt="QR code to pay ${e(formatAmount(payment))}" width="180" height="180">
    <p><a class="button" href="${e(view.deepLink)}">Open wallet app</a></p>
    <p class="ussd">Or by USSD: ${e(view.ussd)}</p>
    <p class="countdown" role="timer" aria-live="off">Expires in <span id="countdown" data-testid="countdown">10:00</span></p>
  </section>
  <p id="state" class="state" role="status" aria-live="polite">${payment.status === "pending" ? "" : e(ENDED_TEXT[payment.status])}</p>
  ${
    pending
      ? `<p id="actions" class="actions">
    ${payment.livemode ? "" : '<button type="button" id="simulate" class="secondary">Simulate payment</button>'}
    <button type="button" id="cancel" class="secondary">Cancel</button>
  </p>`
      : ""
  }
</main>
<script src="/static/checkout.js"></script>`,
  );
}

export function notFoundPage(): string {
  return layout(
    "Payment not found",
    `<main class="checkout">
  <h1>Payment not found</h1>
  <p>This payment link is not valid. Ask the merchant for a new one.</p>
</main>`,
  );
}
