/**
 * A merchant's world: its test data or its live data. Keys, payments, balances, events and webhooks
 * all belong to one world (`livemode`), and the two never mix; products are the exception (one catalog
 * shared by both worlds, so catalog code takes only a merchant id).
 */
export type World = { merchantId: string; livemode: boolean };
