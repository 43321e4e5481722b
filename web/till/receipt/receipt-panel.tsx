/**
 * The receipt of a finished sale or return, for the customer: its link as a QR code to scan, a link
 * that opens the printable receipt page, and share links (WhatsApp, SMS). The QR is drawn by the
 * server (`GET /receipts/<token>/qr.png`, the same QR code the checkout uses), so the till's script
 * carries no QR encoder. Share links are links the cashier taps; the page itself requests nothing
 * from another origin. The QR image and the print link use this origin's path of the receipt.
 */
export function ReceiptPanel(props: { receiptUrl: string | null; shopName: string; what: "sale" | "return" }) {
  if (props.receiptUrl === null) return null;
  const path = receiptPath(props.receiptUrl);
  const message = `Your ${props.what === "sale" ? "receipt" : "return receipt"} from ${props.shopName}: ${props.receiptUrl}`;
  return (
    <section class="receipt-panel" aria-label="Receipt">
      <img
        class="receipt-qr"
        src={`${path}/qr.png`}
        width={180}
        height={180}
        alt="QR code of the receipt link: the customer scans it to see the receipt"
      />
      <div class="receipt-links">
        <a class="button button-secondary" href={path} target="_blank" rel="noopener noreferrer">
          Print receipt
        </a>
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
      </div>
    </section>
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
