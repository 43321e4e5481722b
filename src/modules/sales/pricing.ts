import {
  type BasketLineInput,
  type Discount,
  type PricedLine,
  priceBasket,
  type TaxMode,
} from "../../kernel/basket.ts";
import type { Currency } from "../../kernel/money.ts";
import { invalidRequest } from "../../platform/errors.ts";
import type { ProductRow } from "../catalog/index.ts";
import { stock } from "../stock/index.ts";
import {
  type CreateSaleInput,
  type DiscountInput,
  SALE_ITEMS_MAX,
  SALE_TOTAL_CENTS_MAX,
  type SaleItem,
  type SaleItemInput,
  type SaleTax,
  TAKEN_AT_AGE_DAYS_MAX,
  TAKEN_AT_FUTURE_SKEW_SECONDS,
} from "./schemas.ts";

/**
 * The rules of what may be sold, as pure functions of the request, the catalog rows it names and the
 * clock: no I/O (the ring-up reads the products and passes them in).
 */

/** How the shop prices tax (its profile): prices with or without tax, and the rate of what names none. */
export type TaxSettings = { taxMode: TaxMode; defaultTaxRateBp: number };

export type PricedSale = {
  currency: Currency;
  items: SaleItem[];
  total_cents: number;
  /** The lines' gross before any discount, at the prices charged. */
  gross_cents: number;
  discount_cents: number;
  /**
   * What product lines sold below their catalog price came to less than at it: Σ (catalog − unit) × qty
   * over those lines (0 when none; lines above their price and products priced at sale time count 0).
   * A price override, which the discount limit counts as a discount (`discountOverLimit`).
   */
  below_catalog_cents: number;
  discount_reason: string | null;
  tax_cents: number;
  taxes: SaleTax[];
};

/**
 * Prices the basket against the catalog rows it names: the rules of what may be sold, then discounts
 * and tax by `priceBasket` (src/kernel/basket.ts), as the till prices its cart.
 */
export function priceSale(
  input: Pick<CreateSaleInput, "items" | "currency" | "tender" | "discount" | "discount_reason">,
  products: ReadonlyMap<string, ProductRow>,
  tax: TaxSettings,
): PricedSale {
  assertItemCount(input.items.length);
  const firstProductId = input.items.find((item) => item.product_id !== undefined)?.product_id;
  const currency: Currency =
    input.currency ?? (firstProductId === undefined ? undefined : products.get(firstProductId)?.currency) ?? "USD";
  const lines = input.items.map((item, index) => basketLine(item, `items.${index}`, products, currency, tax));
  const basket = priceBasket(lines, { cartDiscount: basketDiscount(input.discount), taxMode: tax.taxMode });
  if (basket.totalCents > SALE_TOTAL_CENTS_MAX) {
    throw invalidRequest("invalid_amount", `The sale's total exceeds ${SALE_TOTAL_CENTS_MAX} cents.`);
  }
  if (input.tender === "wallet" && basket.totalCents < 1) {
    throw invalidRequest("invalid_amount", "A wallet sale's total must be positive.");
  }
  // A sale with neither discount nor tax keeps its lines as before discounts and tax existed.
  const plain = basket.discountCents === 0 && basket.taxes.every((line) => line.rateBasisPoints === 0);
  return {
    currency,
    items: lines.map((line, index) => saleItem(line, basket.lines[index], plain)),
    total_cents: basket.totalCents,
    gross_cents: basket.subtotalCents,
    discount_cents: basket.discountCents,
    below_catalog_cents: lines.reduce((sum, line) => sum + belowCatalogCents(line), 0),
    discount_reason: input.discount === undefined ? null : (input.discount_reason ?? null),
    tax_cents: basket.taxCents,
    // Rate 0 is no tax: a sale keeps the rates it was taxed at ([] when none, as before tax existed).
    taxes: basket.taxes
      .filter((line) => line.rateBasisPoints > 0)
      .map((line) => ({
        rate_bp: line.rateBasisPoints,
        taxable_cents: line.taxableCents,
        tax_cents: line.taxCents,
      })),
  };
}

/**
 * Whether a sale's discounts need a manager: more of its gross than the shop's limit (basis points)
 * lets a cashier give alone. A product sold below its catalog price is a discount too (else a cashier
 * would sell a 10.00 product for 1.00 by typing its price), so the overrides count with the line and
 * cart discounts, as a share of the gross at catalog prices: a 10 % override is a 10 % discount.
 */
export const discountOverLimit = (
  priced: Pick<PricedSale, "gross_cents" | "discount_cents" | "below_catalog_cents">,
  limitBp: number,
) => {
  const catalogGrossCents = BigInt(priced.gross_cents) + BigInt(priced.below_catalog_cents);
  const givenCents = BigInt(priced.discount_cents) + BigInt(priced.below_catalog_cents);
  return givenCents * 10_000n > catalogGrossCents * BigInt(limitBp);
};

type SaleLine = BasketLineInput & {
  productId: string | null;
  /** The product's catalog price; null for an ad hoc line or a product priced at sale time. */
  catalogUnitCents: number | null;
  name: string;
  reason: string | undefined;
};

/** What a line sold below its catalog price came to less than at it (0 at or above it, or without one). */
const belowCatalogCents = (line: SaleLine) =>
  line.catalogUnitCents === null || line.unitPriceCents >= line.catalogUnitCents
    ? 0
    : (line.catalogUnitCents - line.unitPriceCents) * line.quantity;

/** An input line checked against its product (if any) and the sale's currency, as the basket prices it. */
function basketLine(
  item: SaleItemInput,
  field: string,
  products: ReadonlyMap<string, ProductRow>,
  currency: Currency,
  tax: TaxSettings,
): SaleLine {
  const discount = { discount: basketDiscount(item.discount), reason: item.discount_reason };
  if (item.product_id !== undefined && item.name !== undefined) {
    throw invalidRequest("parameter_invalid", `${field}: give either product_id or name (ad hoc), not both.`);
  }
  if (item.product_id === undefined) {
    if (item.name === undefined) {
      throw invalidRequest("parameter_missing", `${field}: product_id, or name for an ad hoc line, is required.`);
    }
    if (item.unit_cents === undefined) {
      throw invalidRequest("price_required", `${field}: an ad hoc line needs unit_cents.`);
    }
    const taxRateBasisPoints = item.tax_rate_bp ?? tax.defaultTaxRateBp;
    return {
      productId: null,
      catalogUnitCents: null,
      name: item.name,
      quantity: item.qty,
      unitPriceCents: item.unit_cents,
      taxRateBasisPoints,
      ...discount,
    };
  }
  if (item.tax_rate_bp !== undefined) {
    throw invalidRequest("parameter_invalid", `${field}: a product line has its product's tax rate; drop tax_rate_bp.`);
  }
  const product = products.get(item.product_id);
  if (product === undefined) {
    throw stock.productNotFound(item.product_id);
  }
  if (!product.active) {
    throw invalidRequest("product_inactive", `${field}: product ${product.id} is inactive (deleted).`);
  }
  if (product.currency !== currency) {
    throw invalidRequest(
      "currency_mismatch",
      `${field}: product ${product.id} is priced in ${product.currency}, the sale is in ${currency}.`,
    );
  }
  const unitCents = item.unit_cents ?? product.price_cents;
  if (unitCents === null) {
    throw invalidRequest("price_required", `${field}: product ${product.id} has no price; give unit_cents.`);
  }
  const taxRateBasisPoints = product.tax_rate_bp ?? tax.defaultTaxRateBp;
  return {
    productId: product.id,
    catalogUnitCents: product.price_cents,
    name: product.name,
    quantity: item.qty,
    unitPriceCents: unitCents,
    taxRateBasisPoints,
    ...discount,
  };
}

/** The API's discount as the basket takes it. */
const basketDiscount = (discount: DiscountInput | undefined): Discount | null =>
  discount === undefined
    ? null
    : discount.type === "percent"
      ? { kind: "percent", basisPoints: discount.percent_bp }
      : { kind: "amount", cents: discount.amount_cents };

/** A priced line as the sale keeps it; `plain` (no discount, no tax in the sale): as before they existed. */
function saleItem(line: SaleLine, priced: PricedLine | undefined, plain: boolean): SaleItem {
  const item = {
    product_id: line.productId,
    name: line.name,
    qty: line.quantity,
    unit_cents: line.unitPriceCents,
    line_total_cents: line.quantity * line.unitPriceCents,
  };
  if (plain || priced === undefined) {
    return item;
  }
  return {
    ...item,
    discount_cents: priced.lineDiscountCents + priced.cartDiscountCents,
    ...(line.reason === undefined || line.discount === null ? {} : { discount_reason: line.reason }),
    net_cents: priced.netCents,
    tax_rate_bp: priced.taxRateBasisPoints,
  };
}

/** Refuses a basket of more lines than a sale may have (before any query: it bounds the product lookup). */
export function assertItemCount(count: number): void {
  if (count > SALE_ITEMS_MAX) {
    throw invalidRequest("too_many_items", `A sale has at most ${SALE_ITEMS_MAX} lines.`);
  }
}

/**
 * When the till says it rang the sale up: only for cash (a wallet sale completes when its payment
 * settles, which no till can do offline), no further back than a till may sensibly queue sales, and
 * not ahead of the API's clock by more than devices' clocks drift.
 */
export function checkTakenAt(
  input: Pick<CreateSaleInput, "tender" | "tenders" | "taken_at">,
  nowMs: number,
): Date | null {
  if (input.taken_at === undefined) {
    return null;
  }
  // A sale paid in cash only, in one tender or several, completes at once: it may be dated.
  const cashOnly = input.tender === "cash" || (input.tenders?.every((tender) => tender.kind === "cash") ?? false);
  if (!cashOnly) {
    throw invalidRequest(
      "parameter_invalid",
      "taken_at: only a cash sale may be dated (a wallet sale completes when paid).",
    );
  }
  const takenAt = new Date(input.taken_at);
  if (takenAt.getTime() > nowMs + TAKEN_AT_FUTURE_SKEW_SECONDS * 1000) {
    throw invalidRequest(
      "taken_at_out_of_range",
      `taken_at is more than ${TAKEN_AT_FUTURE_SKEW_SECONDS} seconds in the future: check the till's clock.`,
    );
  }
  if (takenAt.getTime() < nowMs - TAKEN_AT_AGE_DAYS_MAX * 86_400_000) {
    throw invalidRequest("taken_at_out_of_range", `taken_at is more than ${TAKEN_AT_AGE_DAYS_MAX} days ago.`);
  }
  return takenAt;
}

/**
 * What a cash customer handed over (the receipt shows it and the change): only for cash (a wallet
 * pays the total exactly), and at least the total (less is not a sale the till completes).
 */
export function checkTendered(
  input: Pick<CreateSaleInput, "tender" | "tendered_cents">,
  totalCents: number,
): number | null {
  if (input.tendered_cents === undefined) {
    return null;
  }
  if (input.tender !== "cash") {
    throw invalidRequest("parameter_invalid", "tendered_cents: only a cash sale has cash handed over.");
  }
  if (input.tendered_cents < totalCents) {
    throw invalidRequest(
      "invalid_amount",
      `tendered_cents: ${input.tendered_cents} is less than the sale's total, ${totalCents}.`,
    );
  }
  return input.tendered_cents;
}
