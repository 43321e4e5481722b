import type { ModuleFace } from "../../platform/module.ts";
import { catalogRoutes } from "./routes.ts";
import type { RecordOpenings } from "./service.ts";

/**
 * Products (README.md). Its routes need the stock module's opening move, passed in by the wiring.
 * Stock and sales read products through `catalog` (the service), its schemas and `presentProduct`.
 */
export { presentProduct } from "./present.ts";
export {
  isLowStock,
  PRICE_CENTS_MAX,
  type ProductRow,
  productRowSchema,
  productSchema,
  STOCK_QTY_MAX,
} from "./schemas.ts";
export * as catalog from "./service.ts";
export { createProductReader, type ProductReader, type RecordOpenings } from "./service.ts";

export const catalogModule: ModuleFace<{ recordOpenings: RecordOpenings }> = {
  name: "catalog",
  routes: ({ recordOpenings }) => catalogRoutes({ recordOpenings }),
};
