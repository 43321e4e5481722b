import { type DBSchema, type IDBPDatabase, openDB } from "idb";
import type { Product } from "./product.ts";

/**
 * The catalog kept in the browser between visits (IndexedDB, one database per merchant): the till
 * starts from it and asks the server only for what changed since. A browser that refuses IndexedDB
 * (private mode) still works, from memory, with a full load at each start.
 */
interface CatalogSchema extends DBSchema {
  products: { key: string; value: Product };
  meta: { key: string; value: string };
}

export type CatalogStore = {
  load: () => Promise<{ products: Product[]; syncedUntil: string | undefined }>;
  save: (products: readonly Product[], syncedUntil: string) => Promise<void>;
};

const SYNCED_UNTIL = "synced_until";

export async function openCatalogStore(merchantId: string): Promise<CatalogStore | undefined> {
  let database: IDBPDatabase<CatalogSchema>;
  try {
    database = await openDB<CatalogSchema>(`till-catalog-${merchantId}`, 1, {
      upgrade(upgrading) {
        upgrading.createObjectStore("products", { keyPath: "id" });
        upgrading.createObjectStore("meta");
      },
    });
  } catch {
    return undefined;
  }
  return {
    load: async () => ({
      products: await database.getAll("products"),
      syncedUntil: await database.get("meta", SYNCED_UNTIL),
    }),
    save: async (products, syncedUntil) => {
      const transaction = database.transaction(["products", "meta"], "readwrite");
      const store = transaction.objectStore("products");
      await Promise.all([
        ...products.map((product) => store.put(product)),
        transaction.objectStore("meta").put(syncedUntil, SYNCED_UNTIL),
      ]);
      await transaction.done;
    },
  };
}
