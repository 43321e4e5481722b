import { formatMoney } from "../../../src/kernel/money.ts";
import { formatDateTime } from "../../lib/format.ts";
import { session } from "../../lib/session.ts";
import type { PrintableReceipt } from "./printable.ts";
import { shopProfile, taxNumberLabel } from "./shop-profile.ts";
import "./receipt-sheet.css";

export type Paper = "roll" | "a4";

/**
 * The receipt as the till prints it, in the page (no other tab): the shop's profile (name, address,
 * tax number, footer), the lines, the total and the tender with cash tendered and change. Shown only
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
        <h2>{profile?.display_name ?? session.value?.merchant.name}</h2>
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
              </td>
              <td class="amount">{money(item.line_total_cents)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p class="till-receipt-row till-receipt-total">
        <span>{receipt.kind === "sale" ? "Total" : "Refunded (cash)"}</span> <span>{money(receipt.totalCents)}</span>
      </p>
      {receipt.kind === "sale" ? (
        <p>Paid: {{ cash: "Cash", wallet: "Wallet", split: "Split" }[receipt.tender]}</p>
      ) : null}
      {receipt.tenderedCents === null ? null : (
        <>
          <p class="till-receipt-row">
            <span>Cash tendered</span> <span>{money(receipt.tenderedCents)}</span>
          </p>
          <p class="till-receipt-row">
            <span>Change</span> <span>{money(receipt.tenderedCents - receipt.totalCents)}</span>
          </p>
        </>
      )}
      <footer class="till-receipt-footer">{profile?.receipt_footer ?? "Thank you."}</footer>
    </article>
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
