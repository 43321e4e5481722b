import { PRICE_CENTS_MAX } from "./schemas.ts";

/**
 * The products CSV (export and import read the same columns, so an export edited in a spreadsheet
 * imports back). `id` is written for reference and ignored on import (rows match by sku, then barcode);
 * `stock_qty` is on-hand, read on import only as a new product's opening quantity.
 * `tax_rate` is a percentage (15, 15.5; empty: the shop's default rate), kept as basis points.
 */
export const PRODUCT_CSV_COLUMNS = [
  "id",
  "name",
  "sku",
  "barcode",
  "category",
  "price",
  "currency",
  "track_stock",
  "stock_qty",
  "low_stock_at",
  "tax_rate",
  "active",
] as const;
export type ProductCsvColumn = (typeof PRODUCT_CSV_COLUMNS)[number];

/** A price in cents as people type it in a spreadsheet: major units with up to two decimals. */
export const formatPrice = (priceCents: number | null): string =>
  priceCents === null ? "" : `${Math.trunc(priceCents / 100)}.${String(priceCents % 100).padStart(2, "0")}`;

const PRICE_PATTERN = /^(\d{1,8})(?:\.(\d{1,2}))?$/;

/**
 * Major units to cents, exactly (the digits are read as text: no float rounding); undefined when the
 * text is not a price from 0 to PRICE_CENTS_MAX cents.
 */
export function parsePriceCents(text: string): number | undefined {
  const match = PRICE_PATTERN.exec(text);
  if (match === null) {
    return undefined;
  }
  const cents = Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
  return cents <= PRICE_CENTS_MAX ? cents : undefined;
}

/** A tax rate in basis points as a percentage (1550 → "15.5"); empty for the shop's default. */
export const formatTaxRate = (rateBp: number | null): string => (rateBp === null ? "" : String(rateBp / 100));

/** A percentage with up to two decimals (0 to 100) as basis points; undefined for anything else. */
export function parseTaxRateBp(text: string): number | undefined {
  const basisPoints = parsePriceCents(text);
  return basisPoints !== undefined && basisPoints <= 10_000 ? basisPoints : undefined;
}

const TRUE_WORDS = new Set(["true", "yes", "1"]);
const FALSE_WORDS = new Set(["false", "no", "0"]);

/** true/false as spreadsheets write them (TRUE, yes, 1…); undefined for anything else. */
export function parseFlag(text: string): boolean | undefined {
  const word = text.toLowerCase();
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  return undefined;
}

// What csv-stringify's `escape_formulas` puts before a cell a spreadsheet would run as a formula.
const ESCAPED_FORMULA = /^'[=+\-@\t\r]/;

/** A cell as written: trimmed, with the export's formula escape taken off again (so a round trip is exact). */
export function cellText(raw: string): string {
  const trimmed = raw.trim();
  return ESCAPED_FORMULA.test(trimmed) ? trimmed.slice(1) : trimmed;
}
