import { type BodyOf, type CallOptions, call } from "./call.ts";

/** One product by its id (docs/shop.md, "Products"); the catalog's other calls are products.ts. */

/** What a change may set (on-hand changes through stock moves, never here). */
export type ProductChanges = BodyOf<"/v1/products/{id}", "patch">;

export const getProduct = (id: string, options?: CallOptions) =>
  call("get", "/v1/products/{id}", { ...options, path: { id } });

export const updateProduct = (id: string, body: ProductChanges, options?: CallOptions) =>
  call("patch", "/v1/products/{id}", { ...options, path: { id }, body });
