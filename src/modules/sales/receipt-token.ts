import { randomBytes } from "node:crypto";

/** A receipt page's capability: 192 random bits, 32 URL-safe characters. */
export const newReceiptToken = (): string => randomBytes(24).toString("base64url");

/** Where a receipt is shown, on the API's public origin. */
export const receiptUrl = (publicBaseUrl: string, token: string | null): string | null =>
  token === null ? null : new URL(`/receipts/${token}`, publicBaseUrl).toString();
