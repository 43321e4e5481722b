import escapeHtml from "escape-html";
import { type Currency, formatMoney } from "../../kernel/money.ts";
import { perCurrencyText, type ShownTender, tenderRow } from "../../kernel/tender-text.ts";
import { htmlPage } from "../../platform/http/html-page.ts";
import type { ReturnItem, SaleReturnRow } from "./return-schemas.ts";
import type { SaleItem, SaleRow } from "./schemas.ts";

/**
 * The public receipt pages, rendered on the server (everything escaped) with one script, a file of
 * this origin: the Print button's. `paper` picks the print stylesheet: an 80 mm receipt roll
 * (default) or A4. Nothing personal is shown: no cashier, no note, no payer's number; only the shop
 * (its name, address, tax number and footer), the lines, the totals and the tender (with cash
 * tendered and change when the till told them; a split sale's every tender, with its rate in the
 * other currency and its state, and the change in its currency; a return's refund per currency).
 */
export type Paper = "80mm" | "a4";
/**
 * The shop as its receipts show it (its shop profile, `receiptShopOf`): `taxNumberLabel` says which
 * number it is ("VAT no." for a shop that charges tax, else "Tax no."); `footer` replaces "Thank you.".
 */
export type ReceiptShop = {
  name: string;
  timezone: string;
  address: string | null;
  taxNumber: string | null;
  taxNumberLabel: string;
  footer: string | null;
};

function layout(title: string, paper: Paper, body: string): string {
  const other: Paper = paper === "a4" ? "80mm" : "a4";
  return htmlPage({
    title,
    head: `<meta name="robots" content="noindex">
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/receipts/assets/receipt.css">
<link rel="stylesheet" href="/receipts/assets/receipt-${paper}.css">
<script src="/receipts/assets/print.js" defer></script>`,
    bodyClass: `paper-${paper}`,
    body: `<main class="receipt">
${body}
</main>
<p class="screen-only"><button type="button" id="print-receipt">Print</button></p>
<p class="screen-only"><a href="?paper=${other}">Print layout: ${other === "a4" ? "A4" : "80 mm receipt"}</a></p>`,
  });
}

const when = (instant: Date, timezone: string) =>
  new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: timezone }).format(instant);

function lineRows(items: readonly (SaleItem | ReturnItem)[], currency: Currency): string {
  return items
    .map(
      (item) =>
        `<tr><td class="qty">${item.qty} ×</td><td class="name">${escapeHtml(item.name)}<br><small>@ ${escapeHtml(
          formatMoney(currency, item.unit_cents),
        )}</small>${lineDiscount(item, currency)}</td><td class="amount">${escapeHtml(formatMoney(currency, item.line_total_cents))}</td></tr>`,
    )
    .join("\n");
}

/** A sale line's discount (its own and its share of the cart's), under its name. */
function lineDiscount(item: SaleItem | ReturnItem, currency: Currency): string {
  if (!("discount_cents" in item) || item.discount_cents === undefined || item.discount_cents === 0) {
    return "";
  }
  const reason = item.discount_reason === undefined ? "" : ` (${escapeHtml(item.discount_reason)})`;
  return `<br><small class="discount">Discount −${escapeHtml(formatMoney(currency, item.discount_cents))}${reason}</small>`;
}

/** Subtotal, discounts and the tax per rate above the total, when the sale has any of them. */
function saleFigures(sale: SaleRow): string {
  if (sale.discount_cents === 0 && sale.taxes.length === 0) {
    return "";
  }
  const money = (cents: number) => escapeHtml(formatMoney(sale.currency, cents));
  const gross = sale.items.reduce((sum, item) => sum + item.line_total_cents, 0);
  const discount =
    sale.discount_cents === 0
      ? ""
      : `<p class="discounts"><span>Discounts${
          sale.discount_reason === null ? "" : ` (${escapeHtml(sale.discount_reason)})`
        }</span> <span>−${money(sale.discount_cents)}</span></p>`;
  const taxes = sale.taxes
    .map(
      (tax) =>
        `<p class="tax"><span>Tax ${tax.rate_bp / 100} % on ${money(tax.taxable_cents)}</span> <span>${money(
          tax.tax_cents,
        )}</span></p>`,
    )
    .join("\n");
  return `<p class="subtotal"><span>Subtotal</span> <span>${money(gross)}</span></p>\n${discount}\n${taxes}`;
}

/** Text the owner typed on several lines, escaped, its line breaks kept. */
const lines = (text: string) => escapeHtml(text).replaceAll("\n", "<br>");

function header(shop: ReceiptShop, kind: string, livemode: boolean): string {
  const address = shop.address === null ? "" : `\n<p class="address">${lines(shop.address)}</p>`;
  const taxNumber =
    shop.taxNumber === null
      ? ""
      : `\n<p class="tax-number">${escapeHtml(shop.taxNumberLabel)} ${escapeHtml(shop.taxNumber)}</p>`;
  return `<header>
<h1>${escapeHtml(shop.name)}</h1>${address}${taxNumber}
<p class="kind">${escapeHtml(kind)}${livemode ? "" : ' <strong class="test">TEST — not a real sale</strong>'}</p>
</header>`;
}

const TENDERS = { cash: "Cash", wallet: "Wallet", split: "Split tender" } as const;

const footer = (shop: ReceiptShop) => `<footer><p>${lines(shop.footer ?? "Thank you.")}</p></footer>`;

/** A split sale's tenders and change, as the API shows them (`presentTenders`). */
export type ReceiptTenders = {
  tenders: readonly ShownTender[];
  change: { currency: Currency; amount_cents: number } | null;
};

/** A row of label and amount, both escaped. */
const row = (name: string, label: string, amount: string) =>
  `<p class="${name}"><span>${escapeHtml(label)}</span> <span>${escapeHtml(amount)}</span></p>`;

/**
 * How the sale was paid: for cash the till told, what was handed over and the change; for a split
 * sale, each tender (its rate when in the other currency, pending or failed when not paid) and the
 * change in the currency it was given in.
 */
function tender(sale: SaleRow, paid: ReceiptTenders): string {
  const heading = `<p class="tender">Paid: ${TENDERS[sale.tender]}</p>`;
  if (sale.tender === "split") {
    const tenders = paid.tenders.map((each) => {
      const shown = tenderRow(sale.currency, each);
      return row("tendered", shown.label, shown.amount);
    });
    const change =
      paid.change === null
        ? []
        : [row("change", "Change", formatMoney(paid.change.currency, paid.change.amount_cents))];
    return [heading, ...tenders, ...change].join("\n");
  }
  if (sale.tendered_cents === null) {
    return heading;
  }
  return `${heading}
${row("tendered", "Cash tendered", formatMoney(sale.currency, sale.tendered_cents))}
${row("change", "Change", formatMoney(sale.currency, sale.tendered_cents - sale.total_cents))}`;
}

/** What a return paid back: its shares over a split sale's tenders, each in its currency; else one, in the sale's. */
const refundsOf = (saleReturn: SaleReturnRow) =>
  saleReturn.refunds === null || saleReturn.refunds.length === 0
    ? [{ currency: saleReturn.currency, amount_cents: saleReturn.refund_cents }]
    : saleReturn.refunds;

export function saleReceiptPage(
  shop: ReceiptShop,
  sale: SaleRow,
  paid: ReceiptTenders,
  returns: readonly SaleReturnRow[],
  paper: Paper,
): string {
  const status = sale.status === "completed" ? "" : `<p class="status">This sale is ${escapeHtml(sale.status)}.</p>`;
  const returned =
    returns.length === 0
      ? ""
      : `<section class="returned"><h2>Returned</h2><table>${lineRows(
          returns.flatMap((saleReturn) => saleReturn.items),
          sale.currency,
        )}</table>${row("total", "Refunded (cash)", perCurrencyText(returns.flatMap(refundsOf)))}</section>`;
  return layout(
    `Receipt — ${shop.name}`,
    paper,
    `${header(shop, "Receipt", sale.livemode)}
<p class="meta">${escapeHtml(when(sale.taken_at ?? sale.created_at, shop.timezone))}<br>No. ${escapeHtml(sale.id)}</p>
${status}
<table>
${lineRows(sale.items, sale.currency)}
</table>
${saleFigures(sale)}
<p class="total"><span>Total</span> <span>${escapeHtml(formatMoney(sale.currency, sale.total_cents))}</span></p>
${tender(sale, paid)}
${returned}
${footer(shop)}`,
  );
}

export function returnReceiptPage(shop: ReceiptShop, saleReturn: SaleReturnRow, paper: Paper): string {
  return layout(
    `Return — ${shop.name}`,
    paper,
    `${header(shop, "Return receipt", saleReturn.livemode)}
<p class="meta">${escapeHtml(when(saleReturn.created_at, shop.timezone))}<br>No. ${escapeHtml(saleReturn.id)}<br>For sale ${escapeHtml(
      saleReturn.sale_id,
    )}</p>
<table>
${lineRows(saleReturn.items, saleReturn.currency)}
</table>
${row("total", "Refunded (cash)", perCurrencyText(refundsOf(saleReturn)))}
${footer(shop)}`,
  );
}

export function receiptNotFoundPage(): string {
  return layout("Receipt not found", "80mm", "<h1>Receipt not found</h1><p>Check the link you were given.</p>");
}

/** Stylesheets: shared, then one per paper (its @page size). Served from /receipts/assets/. */
export const RECEIPT_STYLES = {
  "receipt.css": `body{margin:0;background:#f4f4f4;color:#111;font:14px/1.4 system-ui,sans-serif}
.receipt{background:#fff;margin:1rem auto;padding:1rem;max-width:40rem}
h1{font-size:1.25rem;margin:0 0 .25rem;text-align:center}h2{font-size:1rem;margin:1rem 0 .25rem}
.kind,.meta,.address,.tax-number,footer{text-align:center}.address,.tax-number{margin:0 0 .25rem}
.tendered,.change{display:flex;justify-content:space-between;margin:.25rem 0}.meta{color:#333}.test{color:#8a1c00}
table{width:100%;border-collapse:collapse}td{padding:.25rem 0;vertical-align:top}
td.qty{white-space:nowrap;padding-right:.5rem}td.amount{text-align:right;white-space:nowrap}
small{color:#333}.total{display:flex;justify-content:space-between;font-weight:700;border-top:1px solid #111;padding-top:.25rem}
.screen-only{text-align:center}a{color:#0645ad}
#print-receipt{font:inherit;min-height:44px;min-width:44px;padding:.5rem 2rem;cursor:pointer}
@media print{body{background:#fff}.receipt{margin:0;padding:0;max-width:none}.screen-only{display:none}}
`,
  "receipt-80mm.css": `.paper-80mm .receipt{max-width:80mm}
@media print{@page{size:80mm 200mm;margin:3mm}.paper-80mm{font-size:11px}}
`,
  "receipt-a4.css": `@media print{@page{size:A4;margin:15mm}.paper-a4{font-size:12pt}.paper-a4 .receipt{max-width:120mm;margin:0 auto}}
`,
} as const;
export type ReceiptStyle = keyof typeof RECEIPT_STYLES;

/**
 * The receipt page's one script, a file of this origin (the page's CSP allows no inline script): the
 * Print button opens the browser's print dialog, so a receipt opened from the till prints in a tap.
 */
export const RECEIPT_PRINT_SCRIPT = `document.getElementById("print-receipt")?.addEventListener("click",()=>print());
`;
