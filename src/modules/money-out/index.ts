/**
 * The instant transfer agent and utilities share (README.md). It owns no table, route or task, so it
 * has no `ModuleFace`; this front door only exports `instantTransfer`.
 */
export * as instantTransfer from "./instant-transfer.ts";
