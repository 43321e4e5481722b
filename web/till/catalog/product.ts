/** A product as GET /v1/products answers it (the till keeps only what it shows and sells). */
export type Product = {
  id: string;
  name: string;
  sku: string | null;
  barcode: string | null;
  category: string | null;
  /** null: priced at sale time (the till asks for the price). */
  price_cents: number | null;
  currency: "USD" | "ZWG";
  track_stock: boolean;
  stock_qty: number | null;
  low_stock_at: number;
  low_stock: boolean;
  /** null: the shop's default rate. Absent from a catalog kept before products had rates. */
  tax_rate_bp?: number | null;
  active: boolean;
  updated_at: string;
};
