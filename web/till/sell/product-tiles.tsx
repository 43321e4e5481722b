import { useMemo, useState } from "preact/hooks";
import { formatMoney } from "../../../src/kernel/money.ts";
import { activeProducts, catalogLoaded, categories, productMatches } from "../catalog/catalog.ts";
import type { Product } from "../catalog/product.ts";

/** Tiles shown at once: enough to fill a screen; search or a category narrows a large catalog. */
const TILES_MAX = 48;

/** Product tiles with a search box and category filter, from the browser's catalog (no request). */
export function ProductTiles(props: { onPick: (product: Product) => void }) {
  const [search, setSearch] = useState("");
  const [category, setCategory] = useState("");
  const products = activeProducts.value;
  const shown = useMemo(() => {
    const needle = search.trim().toLowerCase();
    const matches: Product[] = [];
    for (const product of products) {
      if (category !== "" && product.category !== category) continue;
      if (!productMatches(product, needle)) continue;
      matches.push(product);
      if (matches.length > TILES_MAX) break;
    }
    return matches;
  }, [products, search, category]);
  return (
    <div class="tiles-area">
      <div class="tile-filters">
        <div class="field">
          <label for="product-search">Search products</label>
          <input
            id="product-search"
            type="search"
            value={search}
            autocomplete="off"
            onInput={(event) => setSearch(event.currentTarget.value)}
          />
        </div>
        <div class="field">
          <label for="product-category">Category</label>
          <select id="product-category" value={category} onChange={(event) => setCategory(event.currentTarget.value)}>
            <option value="">All</option>
            {categories.value.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </div>
      </div>
      {!catalogLoaded.value && products.length === 0 ? <p class="muted">Loading the catalog…</p> : null}
      {catalogLoaded.value && shown.length === 0 ? <p class="muted">No products match.</p> : null}
      <ul class="tiles">
        {shown.slice(0, TILES_MAX).map((product) => (
          <li key={product.id}>
            <button type="button" class="tile" onClick={() => props.onPick(product)}>
              <span class="tile-name">{product.name}</span>
              <span class="tile-price">
                {product.price_cents === null ? "Price at sale" : formatMoney(product.currency, product.price_cents)}
              </span>
              {product.stock_qty === null ? null : (
                <span class={product.stock_qty <= product.low_stock_at ? "tile-stock low" : "tile-stock"}>
                  {product.stock_qty} in stock
                </span>
              )}
            </button>
          </li>
        ))}
      </ul>
      {shown.length > TILES_MAX ? <p class="muted">More products match: search to narrow.</p> : null}
    </div>
  );
}
