import type { Currency } from "../../kernel/money.ts";
import { type AnyRoute, defineRoute } from "../../platform/http/route.ts";
import type { Tenant } from "../../platform/tenant.ts";
import { breakdownCsv, type SalesBreakdown, salesBreakdown } from "./breakdown.ts";
import {
  type BreakdownDimension,
  breakdownParams,
  breakdownQuery,
  type PeriodBound,
  salesBreakdownSchema,
} from "./breakdown-schemas.ts";

// The shop's figures are the owner's (or the merchant's server's); a till has Today (GET /v1/sales/report).
const REPORT_ACCESS = { keys: "both", owner: "session" } as const;

const breakdownOf = (
  database: Parameters<typeof salesBreakdown>[0],
  tenant: Tenant,
  params: { dimension: BreakdownDimension },
  query: { from?: PeriodBound; to?: PeriodBound; currency?: Currency },
) =>
  salesBreakdown(database, {
    merchantId: tenant.merchantId,
    livemode: tenant.livemode,
    timezone: tenant.merchant.timezone,
    dimension: params.dimension,
    from: query.from,
    to: query.to,
    currency: query.currency,
  });

const presentBreakdown = (breakdown: SalesBreakdown, livemode: boolean) => ({
  object: "sales_breakdown" as const,
  livemode,
  dimension: breakdown.dimension,
  timezone: breakdown.timezone,
  from: breakdown.from.toISOString(),
  to: breakdown.to.toISOString(),
  rows: breakdown.rows,
  totals: breakdown.totals,
});

const summary =
  "Gross, discounts, refunds, tax and net of completed sales by day, item, category, cashier, till or tender, per currency";

/** The CSV route comes first: `day.csv` would otherwise be taken for a dimension. */
export const breakdownRoutes: AnyRoute[] = [
  defineRoute({
    method: "get",
    path: "/v1/sales/reports/:dimension.csv",
    operationId: "getSalesBreakdownCsv",
    summary: `${summary}, as CSV`,
    tags: ["Sales"],
    auth: REPORT_ACCESS,
    request: { params: breakdownParams, query: breakdownQuery },
    responses: {
      200: { description: "RFC 4180 CSV: the rows, then a total row per currency.", contentType: "text/csv" },
    },
    handler: async ({ params, query, tenant, database }) => {
      const breakdown = await breakdownOf(database, tenant, params, query);
      const day = (instant: Date) => instant.toISOString().slice(0, 10);
      const name = `sales-${params.dimension}-${day(breakdown.from)}-${day(breakdown.to)}.csv`;
      return {
        contentType: "text/csv; charset=utf-8",
        headers: { "Content-Disposition": `attachment; filename="${name}"`, "Cache-Control": "no-store" },
        payload: breakdownCsv(breakdown),
      };
    },
  }),
  defineRoute({
    method: "get",
    path: "/v1/sales/reports/:dimension",
    operationId: "getSalesBreakdown",
    summary: `${summary} (default: today in the merchant's time zone)`,
    tags: ["Sales"],
    auth: REPORT_ACCESS,
    request: { params: breakdownParams, query: breakdownQuery },
    responses: { 200: { description: "The breakdown.", schema: salesBreakdownSchema } },
    handler: async ({ params, query, tenant, database }) => ({
      body: presentBreakdown(await breakdownOf(database, tenant, params, query), tenant.livemode),
    }),
  }),
];
