/**
 * The offline till's face: the outbox of cash sales (IndexedDB, replayed exactly once), whether the
 * network is up, the session kept for a reload while offline, and the service worker's registration.
 * Screens that end a cashier's work at the till (switching cashier, unpairing the device, closing the
 * shift) read `unsyncedSales` and refuse while it is above zero, unless the queue is exported first
 * (`exportOutbox`, `UnsyncedGuard`): a sale taken offline must reach the server before the day closes.
 */
export { openSession } from "./kept-session.ts";
export { networkUp } from "./network.ts";
export { exportOutbox, queueSale, recordedReceiptUrls, startOutbox, unsyncedSales } from "./outbox.ts";
export { OutboxBadge } from "./outbox-dialog.tsx";
export { registerServiceWorker } from "./register-service-worker.ts";
export { UnsyncedGuard } from "./unsynced-guard.tsx";
