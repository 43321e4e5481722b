import { signal } from "@preact/signals";

/**
 * The offline outbox's face. Screens that end a cashier's work at the till (sign-out, switching cashier,
 * unpairing the device, closing the shift) read `unsyncedSales` and refuse while it is above zero, unless
 * the cashier exports the queue first: a sale taken offline must reach the server before the day closes.
 */
export const unsyncedSales = signal(0);
