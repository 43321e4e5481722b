import { type Currency, formatMoney } from "../../../src/kernel/money.ts";
import { perCurrencyText, tenderRow } from "../../../src/kernel/tender-text.ts";
import { formatDateTime } from "../../lib/format.ts";
import type { PrintableReceipt, PrintedLine, SaleFigures } from "./printable.ts";
import { shopName, shopProfile, taxNumberLabel } from "./shop-profile.ts";
import "./receipt-sheet.css";

export type Paper = "roll" | "a4";

/**
 * The receipt as the till prints it, in the page (no other tab): the shop's profile (name, address,
 * tax number, footer), the lines with their discounts, the subtotal, discounts and tax per rate, the
 * total and the tender with cash tendered and change (a split sale's every tender, with its rate and
 * state, and the change in its currency), as the server's receipt page shows them. Shown only
 * when printing (receipt-sheet.css), and only while the receipt's own Print button prints
 * (`printReceipt`), so another screen's print (the Z report) is never this.
 */
export function ReceiptSheet(props: { receipt: PrintableReceipt; paper: Paper }) {
  const { receipt } = props;
  const profile = shopProfile.value;
  const money = (cents: number) => formatMoney(receipt.currency, cents);
  return (
    <article class={`till-receipt paper-${props.paper}`} aria-label="Printed receipt">
      <header>
        <h2>{shopName()}</h2>
        {profile?.address == null ? null : <p class="till-receipt-address">{profile.address}</p>}
        {profile?.tax_number == null ? null : (
          <p>
            {taxNumberLabel(profile)} {profile.tax_number}
          </p>
        )}
        <p>
          {receipt.kind === "sale" ? "Receipt" : "Return receipt"}
          {receipt.livemode ? null : <strong> TEST: not a real sale</strong>}
        </p>
        <p>{formatDateTime(receipt.at)}</p>
      </header>
      <table>
        <tbody>
          {receipt.items.map((item, index) => (
            <tr key={index}>
              <td>{item.qty} ×</td>
              <td>
                {item.name} @ {money(item.unit_cents)}
                <LineDiscount line={item} currency={receipt.currency} />
              </td>
              <td class="amount">{money(item.line_total_cents)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {receipt.figures === undefined ? null : <Figures receipt={receipt} figures={receipt.figures} />}
      <p class="till-receipt-row till-receipt-total">
        <span>{receipt.kind === "sale" ? "Total" : "Refunded (cash)"}</span>{" "}
        <span>
          {receipt.refunds == null || receipt.refunds.length === 0
            ? money(receipt.totalCents)
            : perCurrencyText(receipt.refunds)}
        </span>
      </p>
      {receipt.kind === "sale" ? (
        <p>Paid: {{ cash: "Cash", wallet: "Wallet", split: "Split" }[receipt.tender]}</p>
      ) : null}
      <Tendered receipt={receipt} />
      <footer class="till-receipt-footer">{profile?.receipt_footer ?? "Thank you."}</footer>
    </article>
  );
}

/** Cash tendered and change (a cash sale the till told), or a split sale's tenders and change. */
function Tendered({ receipt }: { receipt: PrintableReceipt }) {
  const row = (label: string, amount: string, key?: number) => (
    <p class="till-receipt-row" key={key}>
      <span>{label}</span> <span>{amount}</span>
    </p>
  );
  if (receipt.tenders !== undefined) {
    const change = receipt.change;
    return (
      <>
        {receipt.tenders.map((tender, index) => {
          const shown = tenderRow(receipt.currency, tender);
          return row(shown.label, shown.amount, index);
        })}
        {change == null ? null : row("Change", formatMoney(change.currency, change.amount_cents))}
      </>
    );
  }
  if (receipt.tenderedCents === null) return null;
  return (
    <>
      {row("Cash tendered", formatMoney(receipt.currency, receipt.tenderedCents))}
      {row("Change", formatMoney(receipt.currency, receipt.tenderedCents - receipt.totalCents))}
    </>
  );
}

/** A line's discount (its own and its share of the cart's), under its name, with its own reason. */
function LineDiscount(props: { line: PrintedLine; currency: Currency }) {
  const { line } = props;
  if (line.discount_cents === undefined || line.discount_cents === 0) return null;
  return (
    <small class="till-receipt-discount">
      {" "}
      Discount −{formatMoney(props.currency, line.discount_cents)}
      {line.discount_reason === undefined ? null : ` (${line.discount_reason})`}
    </small>
  );
}

/** Subtotal, discounts (with the cart's reason) and one line per tax rate, when the sale has any. */
function Figures(props: { receipt: PrintableReceipt; figures: SaleFigures }) {
  const { figures } = props;
  if (figures.discount_cents === 0 && figures.taxes.length === 0) return null;
  const money = (cents: number) => formatMoney(props.receipt.currency, cents);
  const subtotal = props.receipt.items.reduce((sum, item) => sum + item.line_total_cents, 0);
  return (
    <>
      <p class="till-receipt-row">
        <span>Subtotal</span> <span>{money(subtotal)}</span>
      </p>
      {figures.discount_cents === 0 ? null : (
        <p class="till-receipt-row">
          <span>Discounts{figures.discount_reason === null ? null : ` (${figures.discount_reason})`}</span>{" "}
          <span>−{money(figures.discount_cents)}</span>
        </p>
      )}
      {figures.taxes.map((tax) => (
        <p class="till-receipt-row" key={tax.rate_bp}>
          <span>
            Tax {tax.rate_bp / 100} % on {money(tax.taxable_cents)}
          </span>{" "}
          <span>{money(tax.tax_cents)}</span>
        </p>
      ))}
    </>
  );
}

/**
 * Prints the in-page receipt with the browser's own dialog: the class shows the receipt alone on
 * paper (receipt-sheet.css) until printing is over (print() returns once the dialog closes).
 */
export function printReceipt(): void {
  document.documentElement.classList.add("printing-receipt");
  try {
    print();
  } finally {
    document.documentElement.classList.remove("printing-receipt");
  }
}
