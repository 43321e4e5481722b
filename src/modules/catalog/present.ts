import { isLowStock, type ProductRow } from "./schemas.ts";

/** The API's product object; untracked products show no on-hand (they are never counted). */
export function presentProduct(product: ProductRow) {
  return {
    id: product.id,
    object: "product" as const,
    name: product.name,
    sku: product.sku,
    barcode: product.barcode,
    category: product.category,
    price_cents: product.price_cents,
    currency: product.currency,
    track_stock: product.track_stock,
    stock_qty: product.track_stock ? product.stock_qty : null,
    low_stock_at: product.low_stock_at,
    low_stock: isLowStock(product),
    tax_rate_bp: product.tax_rate_bp,
    active: product.active,
    created_at: product.created_at.toISOString(),
    updated_at: product.updated_at.toISOString(),
  };
}
