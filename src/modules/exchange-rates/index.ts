import type { ModuleFace } from "../../platform/module.ts";
import { exchangeRateRoutes } from "./routes.ts";

export type { ExchangeRateRow } from "./schemas.ts";
export { rateForPair, rateInForce } from "./service.ts";

/** The shop's rate of the day between its currencies (README.md). */
export const exchangeRatesModule: ModuleFace<unknown> = {
  name: "exchange-rates",
  routes: () => exchangeRateRoutes,
};
