import { useState } from "preact/hooks";
import { ProductForm } from "../../products/product-form.tsx";
import { Dialog, Field, toast } from "../../ui/index.ts";
import { useScanHandler } from "../scan/scan-target.ts";
import { activeProducts, productByBarcode, productMatches, remember } from "./catalog.ts";
import type { Product } from "./product.ts";

/** Products listed at once in the editor's picker: a search narrows a large catalog. */
const LISTED_MAX = 12;

/**
 * Changes a product from the till (the owner's till, or a manager switched in): pick it by a scan or
 * a search, then the dashboard's own form (`web/products/product-form.tsx`: name, price, barcode,
 * category, tax rate…, and on sale or archived) sends `PATCH /v1/products/:id`. The answer goes into
 * the till's catalog at once, so the tiles and the next scan sell at the new price; other tills have
 * it from their change feed within a minute.
 */
export function ProductEditor(props: { onClose: () => void }) {
  const [editing, setEditing] = useState<Product | undefined>(undefined);
  // A scan picks the product to change (and never reaches the cart behind the window).
  useScanHandler((code) => {
    const scanned = productByBarcode(code);
    if (scanned === undefined) toast(`No product of this till has the barcode ${code}.`, "error");
    else setEditing(scanned);
  });
  if (editing !== undefined) {
    return (
      <ProductForm
        // A catalog kept before products had rates lacks the field: the shop's rate.
        product={{ ...editing, tax_rate_bp: editing.tax_rate_bp ?? null }}
        withActive
        onClose={() => setEditing(undefined)}
        onSaved={(saved) => {
          remember([saved]);
          toast(`${saved.name} saved.`);
          props.onClose();
        }}
      />
    );
  }
  return (
    <Dialog open title="Edit a product" onClose={props.onClose}>
      <ProductPicker onPick={setEditing} />
    </Dialog>
  );
}

function ProductPicker(props: { onPick: (product: Product) => void }) {
  const [search, setSearch] = useState("");
  const needle = search.trim().toLowerCase();
  const matches = activeProducts.value.filter((product) => productMatches(product, needle)).slice(0, LISTED_MAX);
  return (
    <>
      <Field
        label="Find the product"
        hint="Scan it, or type part of its name, SKU or barcode."
        autoFocus
        value={search}
        onValue={setSearch}
      />
      <ul class="product-picker">
        {matches.map((product) => (
          <li key={product.id}>
            <button type="button" class="button button-secondary" onClick={() => props.onPick(product)}>
              Edit {product.name}
            </button>
          </li>
        ))}
      </ul>
      {matches.length === 0 ? <p class="muted">No product matches.</p> : null}
    </>
  );
}
