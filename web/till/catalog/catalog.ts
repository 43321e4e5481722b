import { computed, signal } from "@preact/signals";
import { listProducts } from "../../lib/api/products.ts";
import { ApiError } from "../../lib/api.ts";
import type { Product } from "./product.ts";
import { type CatalogStore, openCatalogStore } from "./store.ts";

/**
 * The merchant's catalog in the browser: every active product in a Map by id and one by barcode, so a
 * scan is one lookup and never a request. It starts from IndexedDB and then follows the server's change
 * feed (`GET /v1/products?updated_since=`), asking again every `SYNC_INTERVAL_MS`; the server is asked
 * for a barcode only when the Map does not have it.
 */

/** How often the change feed is read: one request a minute while nothing changes. */
export const SYNC_INTERVAL_MS = 60_000;
/** A change commits a little after its updated_at: ask again from this long before the last one seen. */
const FEED_OVERLAP_MS = 120_000;
const PAGE_SIZE = 500;
/**
 * A cold catalog is many pages (10,000 products: 20). They are read one a second, so four tills that
 * start together spend at most 40 of the merchant's 60 requests per 10 s on it, leaving room for
 * their scans' misses and wallet sales; a product not read yet is found by its barcode meanwhile.
 */
const PAGE_GAP_MS = 1_000;

const byId = new Map<string, Product>();
const byBarcode = new Map<string, Product>();
let syncedUntil: string | undefined;
let store: CatalogStore | undefined;
/** Whether startCatalog has run: before it, a barcode is not asked of the server. */
let started = false;
let syncing: Promise<void> | undefined;

/** Bumped on every change of the catalog, so views that list products re-render. */
export const catalogVersion = signal(0);
/** Whether the catalog has been read once (from the browser's copy or the server). */
export const catalogLoaded = signal(false);

/** Active products in name order (recomputed only when the catalog changes, never on a scan). */
export const activeProducts = computed(() => {
  catalogVersion.value;
  return [...byId.values()].sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
});

export const categories = computed(() => {
  const names = new Set<string>();
  for (const product of activeProducts.value) {
    if (product.category !== null) names.add(product.category);
  }
  return [...names].sort((a, b) => a.localeCompare(b));
});

/** Whether a product matches a search typed in lower case: part of its name, SKU or barcode ("" matches all). */
export const productMatches = (product: Product, needle: string) =>
  needle === "" ||
  product.name.toLowerCase().includes(needle) ||
  (product.sku ?? "").toLowerCase().includes(needle) ||
  (product.barcode ?? "").includes(needle);

export function productByBarcode(code: string): Product | undefined {
  return byBarcode.get(code);
}

/** Takes products the server answered into the catalog (an inactive one leaves it) and keeps them. */
export function remember(products: readonly Product[], options: { persist: boolean } = { persist: true }): void {
  if (products.length === 0) return;
  for (const product of products) {
    const previous = byId.get(product.id);
    if (previous?.barcode != null && byBarcode.get(previous.barcode)?.id === product.id) {
      byBarcode.delete(previous.barcode);
    }
    if (product.active) {
      byId.set(product.id, product);
      if (product.barcode !== null) byBarcode.set(product.barcode, product);
    } else {
      byId.delete(product.id);
    }
    if (syncedUntil === undefined || product.updated_at > syncedUntil) {
      syncedUntil = product.updated_at;
    }
  }
  catalogVersion.value += 1;
  if (!options.persist) return;
  store?.save(products, syncedUntil ?? new Date(0).toISOString()).catch(() => {
    // The browser's copy is only a head start: the next visit reads the feed from further back.
  });
}

/** Opens the merchant's catalog: the browser's copy at once, then the server's changes. */
export async function startCatalog(merchantId: string): Promise<void> {
  started = true;
  byId.clear();
  byBarcode.clear();
  syncedUntil = undefined;
  store = await openCatalogStore(merchantId);
  const kept = await store?.load().catch(() => undefined);
  if (kept !== undefined && kept.products.length > 0) {
    remember(kept.products, { persist: false });
    syncedUntil = kept.syncedUntil;
    catalogLoaded.value = true;
  }
  await syncCatalog();
  catalogLoaded.value = true;
}

/** Reads the change feed from a little before the last change seen; one run at a time. */
export function syncCatalog(): Promise<void> {
  syncing ??= readFeed().finally(() => {
    syncing = undefined;
  });
  return syncing;
}

async function readFeed(): Promise<void> {
  if (!started) return;
  const since =
    syncedUntil === undefined
      ? new Date(0).toISOString()
      : new Date(Date.parse(syncedUntil) - FEED_OVERLAP_MS).toISOString();
  let cursor: string | undefined;
  do {
    const page = await withRateLimitWait(() =>
      listProducts({ updated_since: since, active: "all", limit: PAGE_SIZE, cursor }, { world: "test" }),
    );
    remember(page.data);
    cursor = page.next_cursor ?? undefined;
    if (cursor !== undefined) {
      await new Promise((resolve) => setTimeout(resolve, PAGE_GAP_MS));
    }
  } while (cursor !== undefined);
}

/** A 429 waits as long as the API says and tries again (a cold catalog is many pages). */
async function withRateLimitWait<T>(request: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      return await request();
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 429) throw error;
      await new Promise((resolve) => setTimeout(resolve, (error.retryAfterSeconds ?? 2) * 1000));
    }
  }
}

/**
 * The product with this exact barcode: from memory, or (a miss) from the server's exact-barcode query,
 * which also catches a product added elsewhere since the last sync. Undefined when there is none.
 */
export async function lookupBarcode(code: string): Promise<Product | undefined> {
  const cached = byBarcode.get(code);
  if (cached !== undefined || !started) return cached;
  const page = await listProducts({ barcode: code }, { world: "test" });
  remember(page.data);
  return page.data.find((product) => product.active && product.barcode === code);
}
