import type { Currency } from "../../kernel/money.ts";
import { invalidRequest } from "../../platform/errors.ts";
import type { ProductRow } from "../catalog/index.ts";
import { stock } from "../stock/index.ts";
import {
  type CreateSaleInput,
  SALE_ITEMS_MAX,
  SALE_TOTAL_CENTS_MAX,
  type SaleItem,
  TAKEN_AT_AGE_DAYS_MAX,
  TAKEN_AT_FUTURE_SKEW_SECONDS,
} from "./schemas.ts";

/**
 * The rules of what may be sold, as pure functions of the request, the catalog rows it names and the
 * clock: no I/O (the ring-up reads the products and passes them in).
 */

export type PricedSale = { currency: Currency; items: SaleItem[]; total_cents: number };

/** Prices the basket against the catalog rows it names: the rules of what may be sold. */
export function priceSale(
  input: Pick<CreateSaleInput, "items" | "currency" | "tender">,
  products: ReadonlyMap<string, ProductRow>,
): PricedSale {
  assertItemCount(input.items.length);
  const firstProductId = input.items.find((item) => item.product_id !== undefined)?.product_id;
  const currency: Currency =
    input.currency ?? (firstProductId === undefined ? undefined : products.get(firstProductId)?.currency) ?? "USD";
  const items = input.items.map((item, index): SaleItem => {
    const field = `items.${index}`;
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
      return line(null, item.name, item.qty, item.unit_cents);
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
    return line(product.id, product.name, item.qty, unitCents);
  });
  const total = items.reduce((sum, item) => sum + item.line_total_cents, 0);
  if (total > SALE_TOTAL_CENTS_MAX) {
    throw invalidRequest("invalid_amount", `The sale's total exceeds ${SALE_TOTAL_CENTS_MAX} cents.`);
  }
  if (input.tender === "wallet" && total < 1) {
    throw invalidRequest("invalid_amount", "A wallet sale's total must be positive.");
  }
  return { currency, items, total_cents: total };
}

/** Refuses a basket of more lines than a sale may have (before any query: it bounds the product lookup). */
export function assertItemCount(count: number): void {
  if (count > SALE_ITEMS_MAX) {
    throw invalidRequest("too_many_items", `A sale has at most ${SALE_ITEMS_MAX} lines.`);
  }
}

function line(productId: string | null, name: string, qty: number, unitCents: number): SaleItem {
  return { product_id: productId, name, qty, unit_cents: unitCents, line_total_cents: qty * unitCents };
}

/**
 * When the till says it rang the sale up: only for cash (a wallet sale completes when its payment
 * settles, which no till can do offline), no further back than a till may sensibly queue sales, and
 * not ahead of the API's clock by more than devices' clocks drift.
 */
export function checkTakenAt(input: Pick<CreateSaleInput, "tender" | "taken_at">, nowMs: number): Date | null {
  if (input.taken_at === undefined) {
    return null;
  }
  if (input.tender !== "cash") {
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
