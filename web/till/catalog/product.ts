import type { Product as ApiProduct } from "../../lib/api/products.ts";

/**
 * A product of the till's catalog: the API's, as the browser keeps it (IndexedDB). Not quite the
 * API's on purpose: a catalog kept before products had tax rates lacks `tax_rate_bp` (read as null,
 * the shop's rate).
 */
export type Product = Omit<ApiProduct, "tax_rate_bp"> & { tax_rate_bp?: ApiProduct["tax_rate_bp"] };
