/**
 * Money as the platform counts it: integer cents with their currency beside them, never floats. This
 * file imports nothing, so browser code may use it as well as the server.
 */

export const currencies = ["USD", "ZWG"] as const;
export type Currency = (typeof currencies)[number];

/** An amount as people read it, `USD 12.50`: the currency, then the cents in major units with two decimals. */
export const formatMoney = (currency: Currency, amountCents: number): string =>
  `${currency} ${(amountCents / 100).toFixed(2)}`;
