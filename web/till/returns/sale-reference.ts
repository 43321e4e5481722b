/**
 * What a customer brings back: a receipt, printed or on their phone. The cashier types its number
 * ("No. sale_…") or scans its QR code, which holds the receipt link (…/receipts/<token>); a scanner
 * types the link like a keyboard. Either names one sale.
 */
export type SaleReference = { saleId: string } | { receiptToken: string };

const SALE_ID = /^sale_[0-9A-Za-z]{24}$/;
// The receipt token is 32 URL-safe base64 characters (src/modules/sales/receipt-token.ts).
const RECEIPT_LINK = /(?:^|\/receipts\/)([A-Za-z0-9_-]{32})(?:[?#].*)?$/;

export function saleReference(input: string): SaleReference | undefined {
  const text = input.trim();
  if (SALE_ID.test(text)) return { saleId: text };
  const token = RECEIPT_LINK.exec(text)?.[1];
  return token === undefined ? undefined : { receiptToken: token };
}
