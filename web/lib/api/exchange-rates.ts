import { type BodyOf, type CallOptions, call, type QueryOf, type Schema } from "./call.ts";

/** The rate of the day's calls (src/modules/exchange-rates/README.md) and the rate check the forms share. */
export type ExchangeRate = Schema<"ExchangeRate">;
export type RatePair = Pick<BodyOf<"/v1/exchange_rates", "post">, "base" | "other">;

/** The shop's two directions, each its own rate (a shop may buy and sell at different rates). */
export const RATE_PAIRS: readonly [RatePair, RatePair] = [
  { base: "USD", other: "ZWG" },
  { base: "ZWG", other: "USD" },
];

/** What the API accepts: above zero, at most 6 decimals, under a billion (the API's own pattern). */
const RATE_PATTERN = /^(0|[1-9][0-9]{0,8})(\.[0-9]{1,6})?$/;

/** A typed rate as the API takes it, or undefined when the API would refuse it. */
export function rateText(typed: string): string | undefined {
  const rate = typed.trim();
  return RATE_PATTERN.test(rate) && /[1-9]/.test(rate) ? rate : undefined;
}

/** The newest rate of each direction set (none for a direction never set). */
export const currentExchangeRates = () => call("get", "/v1/exchange_rates/current");

export const listExchangeRates = (query: QueryOf<"/v1/exchange_rates", "get">) =>
  call("get", "/v1/exchange_rates", { query });

/** `options.managerApproval`: a manager's PIN approving this one setting at a till (Pos-Manager-Approval). */
export const setExchangeRate = (body: BodyOf<"/v1/exchange_rates", "post">, options?: CallOptions) =>
  call("post", "/v1/exchange_rates", { ...options, body });

export const rateFor = (rates: readonly ExchangeRate[], pair: RatePair) =>
  rates.find((rate) => rate.base === pair.base && rate.other === pair.other);
