import type { Currency } from "../../../src/kernel/money.ts";
import type { ApiClient, Page } from "../api.ts";

/**
 * The rate of the day's calls (src/modules/exchange-rates/README.md). Typed by hand for now, like
 * products.ts: the generated OpenAPI types will replace these declarations.
 */

export type ExchangeRate = {
  id: string;
  object: "exchange_rate";
  livemode: boolean;
  base: Currency;
  other: Currency;
  /** How many of `other` one unit of `base` buys, as set ("26.7843", no trailing zeros). */
  rate: string;
  other_per_base_micros: number;
  set_by: { type: "api_key" | "dashboard_user" | "till_user"; id: string };
  created_at: string;
};

export type RatePair = { base: Currency; other: Currency };

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

export const currentExchangeRates = (api: ApiClient) => api.get<{ data: ExchangeRate[] }>("/v1/exchange_rates/current");

export const listExchangeRates = (api: ApiClient, pair: RatePair, cursor?: string) =>
  api.get<Page<ExchangeRate>>("/v1/exchange_rates", { query: { ...pair, cursor, limit: 20 } });

/** `managerApproval`: a manager's PIN approving this one setting at a till (Pos-Manager-Approval). */
export const setExchangeRate = (api: ApiClient, pair: RatePair, rate: string, managerApproval?: string) =>
  api.post<ExchangeRate>("/v1/exchange_rates", { ...pair, rate }, { managerApproval });

export const rateFor = (rates: readonly ExchangeRate[], pair: RatePair) =>
  rates.find((rate) => rate.base === pair.base && rate.other === pair.other);
