/**
 * The instant transfer agent and utilities share (README.md). It owns no table, route or task, so it
 * has no `ModuleFace`; this front door exports `instantTransfer` and the statements their tables
 * answer alike (`transferRowQueries`).
 */
export * as instantTransfer from "./instant-transfer.ts";
export { type RowKey, transferRowQueries } from "./transfer-rows.ts";
