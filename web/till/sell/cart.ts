import { computed, effect, signal } from "@preact/signals";
import { type Discount, priceBasket } from "../../../src/kernel/basket.ts";
import type { Currency } from "../../../src/kernel/money.ts";
import type { Product } from "../catalog/product.ts";
import { taxSettings } from "./tax-settings.ts";

/**
 * The cart of the sale being rung up. A line is a product at a unit price: scanning the same product
 * again adds to its line; a product priced at sale time gets a line per price asked. A sale has one
 * currency, so a product in another currency is refused rather than mixed in.
 */
export type CartLine = {
  key: string;
  product: Product;
  qty: number;
  unit_cents: number;
  discount?: DiscountGiven | undefined;
};

/** A discount the cashier gave, with its reason (the API's `discount` and `discount_reason`). */
export type DiscountGiven = { discount: Discount; reason: string };

export const QTY_MAX = 100_000;

const STORAGE_KEY = "till.cart";

/** The cart outlives a reload of the page (this tab only), so a refresh in the middle of a sale loses nothing. */
function storedCart(): readonly CartLine[] {
  try {
    const stored = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? "[]") as unknown;
    return Array.isArray(stored) ? (stored as CartLine[]) : [];
  } catch {
    return [];
  }
}

export const cart = signal<readonly CartLine[]>(storedCart());

effect(() => {
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify(cart.value));
  } catch {
    // Storage refused (private mode): the cart lasts for this page only.
  }
});
/**
 * The pending wallet sale the cart belongs to (its id, `wallet-hold.ts` sets it): while its code can
 * be paid the cart is locked, so the basket the customer pays is the one rung up. Changing the basket
 * takes cancelling that payment first.
 */
export const cartHeldBy = signal<string | undefined>(undefined);

/** The discount on the whole cart; undefined: none. */
export const cartDiscount = signal<DiscountGiven | undefined>(undefined);

/**
 * The cart priced as the API will price the sale (the same `priceBasket`, the shop's tax settings and
 * each product's rate), so the total the customer sees is the total recorded, online or offline.
 */
export const pricedCart = computed(() => {
  const settings = taxSettings.value;
  return priceBasket(
    cart.value.map((line) => ({
      unitPriceCents: line.unit_cents,
      quantity: line.qty,
      taxRateBasisPoints: line.product.tax_rate_bp ?? settings.default_tax_rate_bp,
      discount: line.discount?.discount ?? null,
    })),
    { cartDiscount: cartDiscount.value?.discount ?? null, taxMode: settings.tax_mode },
  );
});
export const cartTotalCents = computed(() => pricedCart.value.totalCents);
export const cartCurrency = computed(() => cart.value[0]?.product.currency);
/** The shop's other currency (the till sells in two, `Currency`), which the Pay step takes at the rate of the day. */
export const otherCurrency = (currency: Currency): Currency => (currency === "USD" ? "ZWG" : "USD");
export const cartUnits = computed(() => cart.value.reduce((sum, line) => sum + line.qty, 0));

/** Adds one unit; returns false when the cart is held by a wallet payment or the product's currency is not the cart's. */
export function addToCart(product: Product, unitCents: number): boolean {
  if (cartHeldBy.value !== undefined) return false;
  const currency = cartCurrency.value;
  if (currency !== undefined && currency !== product.currency) return false;
  const existing = cart.value.find((line) => line.product.id === product.id && line.unit_cents === unitCents);
  if (existing !== undefined) {
    setQty(existing.key, existing.qty + 1);
  } else {
    cart.value = [...cart.value, { key: crypto.randomUUID(), product, qty: 1, unit_cents: unitCents }];
  }
  return true;
}

/** Sets a line's quantity (1 to QTY_MAX); 0 removes the line. */
export function setQty(key: string, qty: number): void {
  if (cartHeldBy.value !== undefined) return;
  if (qty <= 0) {
    removeLine(key);
    return;
  }
  const bounded = Math.min(Math.floor(qty), QTY_MAX);
  cart.value = cart.value.map((line) => (line.key === key ? { ...line, qty: bounded } : line));
}

export function removeLine(key: string): void {
  if (cartHeldBy.value !== undefined) return;
  cart.value = cart.value.filter((line) => line.key !== key);
}

/** Gives (or, undefined, takes off) a line's discount. */
export function setLineDiscount(key: string, discount: DiscountGiven | undefined): void {
  if (cartHeldBy.value !== undefined) return;
  cart.value = cart.value.map((line) => (line.key === key ? { ...line, discount } : line));
}

export function clearCart(): void {
  cart.value = [];
  cartDiscount.value = undefined;
}

/** A discount as the API takes it. */
const apiDiscount = (given: DiscountGiven) => ({
  discount:
    given.discount.kind === "percent"
      ? { type: "percent" as const, percent_bp: given.discount.basisPoints }
      : { type: "amount" as const, amount_cents: given.discount.cents },
  ...(given.reason === "" ? {} : { discount_reason: given.reason }),
});

/** The cart as POST /v1/sales items: the price the cashier saw is the price charged. */
export function saleItems(lines: readonly CartLine[]) {
  return lines.map((line) => ({
    product_id: line.product.id,
    qty: line.qty,
    unit_cents: line.unit_cents,
    ...(line.discount === undefined ? {} : apiDiscount(line.discount)),
  }));
}

/** The cart discount's fields of POST /v1/sales (none without one). */
export const saleDiscount = () => (cartDiscount.value === undefined ? {} : apiDiscount(cartDiscount.value));
