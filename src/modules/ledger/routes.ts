import { type AnyRoute, defineRoute } from "../../platform/http/route.ts";
import {
  balanceSchema,
  type EntryRow,
  ledgerPageSchema,
  listLedgerQuery,
  statementPeriod,
  statementQuery,
} from "./schemas.ts";
import * as ledger from "./service.ts";
import { statementCsv } from "./statement-csv.ts";

function presentEntry(entry: EntryRow) {
  return {
    id: entry.id,
    object: "ledger_entry" as const,
    livemode: entry.livemode,
    transaction_id: entry.transaction_id,
    entry_type: entry.entry_type,
    currency: entry.currency,
    amount_cents: entry.amount_cents,
    balance_after_cents: entry.balance_after_cents,
    description: entry.description,
    source: { type: entry.source_type, id: entry.source_id, merchant_ref: entry.source_merchant_ref },
    reverses_transaction_id: entry.reverses_transaction_id,
    created_at: entry.created_at.toISOString(),
  };
}

export const ledgerRoutes: AnyRoute[] = [
  defineRoute({
    method: "get",
    path: "/v1/balance",
    operationId: "getBalance",
    summary: "Available balance per currency in the key's world",
    tags: ["Balance"],
    auth: { keys: "both", owner: "session" },
    responses: { 200: { description: "Both currencies, always listed.", schema: balanceSchema } },
    handler: async ({ database, tenant }) => ({
      body: {
        object: "balance",
        livemode: tenant.livemode,
        available: await ledger.getAvailableBalances(database, tenant),
      },
    }),
  }),
  defineRoute({
    method: "get",
    path: "/v1/ledger",
    operationId: "listLedgerEntries",
    summary: "The merchant's ledger entries, newest first",
    tags: ["Balance"],
    auth: { keys: "both", owner: "session" },
    request: { query: listLedgerQuery },
    responses: { 200: { description: "A page of ledger entries.", schema: ledgerPageSchema } },
    handler: async ({ database, tenant, query }) => {
      const page = await ledger.listEntries(database, {
        merchantId: tenant.merchantId,
        livemode: tenant.livemode,
        entryType: query.entry_type,
        from: query.from,
        to: query.to,
        limit: query.limit,
        cursor: query.cursor,
      });
      return { body: { ...page, data: page.data.map(presentEntry) } };
    },
  }),
  defineRoute({
    method: "get",
    path: "/v1/statement.csv",
    operationId: "getStatementCsv",
    summary: "CSV statement with opening, running and closing balance per currency",
    tags: ["Balance"],
    auth: { keys: "both", owner: "session" },
    request: { query: statementQuery },
    responses: { 200: { description: "RFC 4180 CSV, streamed.", contentType: "text/csv" } },
    handler: async ({ database, tenant, query }) => {
      const { from, to } = statementPeriod(query, new Date());
      const world = tenant.livemode ? "live" : "test";
      return {
        contentType: "text/csv; charset=utf-8",
        headers: {
          "Content-Disposition": `attachment; filename="statement-${world}-${to.toISOString().slice(0, 10)}.csv"`,
          "Cache-Control": "no-store",
        },
        payload: statementCsv(database, {
          merchantId: tenant.merchantId,
          livemode: tenant.livemode,
          from,
          to,
        }),
      };
    },
  }),
];
