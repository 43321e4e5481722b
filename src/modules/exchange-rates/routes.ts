import { errorEnvelopeSchema } from "../../platform/http/openapi.ts";
import { type AnyRoute, defineRoute } from "../../platform/http/route.ts";
import {
  currentExchangeRatesSchema,
  type ExchangeRateRow,
  exchangeRatePageSchema,
  exchangeRateSchema,
  listExchangeRatesQuery,
  setExchangeRateBody,
} from "./schemas.ts";
import * as rates from "./service.ts";

export function presentExchangeRate(row: ExchangeRateRow) {
  return {
    id: row.id,
    object: "exchange_rate" as const,
    livemode: row.livemode,
    base: row.base_currency,
    other: row.other_currency,
    rate: rates.rateOf(row.other_per_base_micros),
    other_per_base_micros: row.other_per_base_micros,
    set_by: { type: row.actor_type, id: row.actor_id },
    created_at: row.created_at.toISOString(),
  };
}

export const exchangeRateRoutes: AnyRoute[] = [
  defineRoute({
    method: "post",
    path: "/v1/exchange_rates",
    operationId: "setExchangeRate",
    summary: "Set the shop's rate of the day for a pair of currencies (a new rate; earlier ones stay as history)",
    tags: ["Exchange rates"],
    auth: { keys: "both", owner: "session", till: "manager" },
    request: { body: setExchangeRateBody },
    responses: {
      201: {
        description: "The rate now in force for the pair; audited as `exchange_rate.set`.",
        schema: exchangeRateSchema,
      },
      403: {
        description: "`principal_not_allowed`, `manager_required` (a cashier at the till).",
        schema: errorEnvelopeSchema,
      },
    },
    handler: async ({ body, tenant, database, client }) => ({
      status: 201,
      body: presentExchangeRate(await rates.setExchangeRate(database, tenant, { ...body, client })),
    }),
  }),
  defineRoute({
    method: "get",
    path: "/v1/exchange_rates",
    operationId: "listExchangeRates",
    summary: "The rates set, newest first (who set each and when)",
    tags: ["Exchange rates"],
    auth: { keys: "both", owner: "session", till: "till" },
    request: { query: listExchangeRatesQuery },
    responses: { 200: { description: "A page of rates.", schema: exchangeRatePageSchema } },
    handler: async ({ query, tenant, database }) => {
      const page = await rates.listExchangeRates(database, tenant, query);
      return { body: { ...page, data: page.data.map(presentExchangeRate) } };
    },
  }),
  defineRoute({
    method: "get",
    path: "/v1/exchange_rates/current",
    operationId: "currentExchangeRates",
    summary: "The rate in force for each pair the shop has set (the newest of each)",
    tags: ["Exchange rates"],
    auth: { keys: "both", owner: "session", till: "till" },
    responses: { 200: { description: "One rate per pair set.", schema: currentExchangeRatesSchema } },
    handler: async ({ tenant, database }) => ({
      body: { data: (await rates.currentExchangeRates(database, tenant)).map(presentExchangeRate) },
    }),
  }),
];
