/**
 * The screens a cashier opens now and then, loaded on demand as one chunk (web/build.ts): one lazily
 * imported module rather than one per screen, because esbuild makes a shared chunk for each set of
 * importers, and a chunk per screen cut the first load into a dozen small files that gzip worse than
 * one (the first load then shrank by 0.7 kB instead of several). The product editor (the owner's or
 * a manager's) is here, and so is a sale's receipt panel: the drawer is opened before the first cash
 * sale, so the chunk is usually loaded by then (a chunk of its own saved 0.25 kB of the first load,
 * here 1.1 kB). Sell's Pay step for split and two-currency tender joined it for the same reason: as a
 * chunk of its own it took the first load from 32.2 to 34.9 kB gzipped, nearly all of it the shared
 * chunk cut in three. Sell's discount, parked-carts and price-at-sale-time windows came with it, opened
 * now and then too, to keep the first load in its budget.
 */
export { ProductEditor } from "./catalog/product-editor.tsx";
export { DeviceScreen } from "./device/device-screen.tsx";
export { ReceiptPanelBody } from "./receipt/receipt-panel-body.tsx";
export { DiscountDialog } from "./sell/discount-dialog.tsx";
export { ParkedDialog } from "./sell/parked-dialog.tsx";
export { PayStep } from "./sell/pay-step.tsx";
export { PriceDialog } from "./sell/price-dialog.tsx";
export { DrawerScreen } from "./shift/drawer-screen.tsx";
export { ZReport } from "./shift/z-report.tsx";
export { StockScreen } from "./stock/stock-screen.tsx";
export { TodayScreen } from "./today/today-screen.tsx";
