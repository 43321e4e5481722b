import { Registry } from "prom-client";

/**
 * The registry of the domain modules' own metrics (payments, webhooks, the gateway...). Modules
 * create their counters on it at import time; every process serves it beside its platform metrics
 * (see `createMetrics`). Labels stay bounded: worlds, currencies, outcomes, never ids or merchants.
 */
export const domainRegistry = new Registry();
