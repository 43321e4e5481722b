import { useEffect, useState } from "preact/hooks";
import { Button, SelectField } from "../../ui/index.ts";
import type { PrintableReceipt } from "./printable.ts";
import { type Paper, printReceipt, ReceiptSheet } from "./receipt-sheet.tsx";
import { loadShopProfile, shopName } from "./shop-profile.ts";

export type ReceiptPanelProps = {
  receiptUrl: string | null;
  what: "sale" | "return";
  receipt: PrintableReceipt;
};

/**
 * The receipt of a finished sale or return, for the customer: a Print button that prints the receipt
 * in this page (`receipt`, known at the till even before an offline sale is sent; an 80 mm roll or A4),
 * and once the server has it, its link as a QR code to scan and share links (WhatsApp, SMS, email).
 * The QR is drawn by the server (`GET /receipts/<token>/qr.png`, the same QR code the checkout uses), so the
 * till's script carries no QR encoder. Share links are links the cashier taps; the page itself requests
 * nothing from another origin. The QR image and the print link use this origin's path of the receipt.
 */
export function ReceiptPanelBody(props: ReceiptPanelProps) {
  const [paper, setPaper] = useState<Paper>("roll");
  // Read again for each receipt: the owner may have changed the shop's name, address or footer.
  useEffect(loadShopProfile, []);
  return (
    <section class="receipt-panel" aria-label="Receipt">
      {props.receiptUrl === null ? null : (
        <img
          class="receipt-qr"
          src={`${receiptPath(props.receiptUrl)}/qr.png`}
          width={180}
          height={180}
          alt="QR code of the receipt link: the customer scans it to see the receipt"
        />
      )}
      <div class="receipt-links">
        <Button variant="primary" onClick={printReceipt}>
          Print receipt
        </Button>
        <SelectField
          label="Paper"
          value={paper}
          onValue={(chosen) => setPaper(chosen === "a4" ? "a4" : "roll")}
          options={[
            { value: "roll", label: "80 mm roll" },
            { value: "a4", label: "A4" },
          ]}
        />
        <ReceiptSheet receipt={props.receipt} paper={paper} />
        {props.receiptUrl === null ? null : <ShareLinks receiptUrl={props.receiptUrl} what={props.what} />}
      </div>
    </section>
  );
}

function ShareLinks(props: { receiptUrl: string; what: "sale" | "return" }) {
  const subject = `Your ${props.what === "sale" ? "receipt" : "return receipt"} from ${shopName()}`;
  const message = `${subject}: ${props.receiptUrl}`;
  return (
    <>
      <a
        class="button button-secondary"
        href={`https://wa.me/?text=${encodeURIComponent(message)}`}
        target="_blank"
        rel="noopener noreferrer"
      >
        Share by WhatsApp
      </a>
      <a class="button button-secondary" href={`sms:?&body=${encodeURIComponent(message)}`}>
        Share by SMS
      </a>
      <a
        class="button button-secondary"
        href={`mailto:?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(props.receiptUrl)}`}
      >
        Share by email
      </a>
    </>
  );
}

/** The receipt page's path on this origin (the API answers links on its public base URL). */
function receiptPath(receiptUrl: string): string {
  try {
    return new URL(receiptUrl).pathname;
  } catch {
    return receiptUrl;
  }
}
