import type { Currency } from "../../kernel/money.ts";
import { rateText } from "../../kernel/tender-text.ts";
import type { Database, Queryable } from "../../platform/db/pool.ts";
import { createdAtKey, decodeCreatedAtCursor, type Page, toPage } from "../../platform/http/pagination.ts";
import type { RequestClient } from "../../platform/http/route.ts";
import { newId } from "../../platform/ids.ts";
import type { Tenant } from "../../platform/tenant.ts";
import { recordAuditEntry } from "../audit/index.ts";
import { recordApproval, requireManager } from "../cashiers/index.ts";
import * as queries from "./queries.ts";
import type { ExchangeRateRow } from "./schemas.ts";

/**
 * The shop's rate of the day between its currencies (README.md). Invariants (exchange-rates.test.ts):
 * a rate is never changed, only followed by a newer one; the rate in force for a pair is its newest;
 * each row keeps who set it and when, and each setting is in the audit log.
 */

const MICROS_DECIMALS = 6;

/** `"26.7843"` → 26784300: the decimal read exactly, never through a float. */
export function microsOf(rate: string): number {
  const [whole = "0", fraction = ""] = rate.split(".");
  return Number(whole) * 10 ** MICROS_DECIMALS + Number(fraction.padEnd(MICROS_DECIMALS, "0"));
}

/** 26784300 → `"26.7843"` (the kernel's, which receipts print rates with). */
export const rateOf = rateText;

export async function setExchangeRate(
  database: Database,
  tenant: Tenant,
  input: { base: Currency; other: Currency; rate: string; client: RequestClient },
): Promise<ExchangeRateRow> {
  return database.transaction(async (transaction) => {
    const approval = await requireManager(transaction, tenant, "exchange_rate");
    const row = await queries.insertExchangeRate(transaction, {
      merchantId: tenant.merchantId,
      livemode: tenant.livemode,
      id: newId("xr"),
      base: input.base,
      other: input.other,
      otherPerBaseMicros: microsOf(input.rate),
      actor: tenant.actor,
    });
    await recordAuditEntry(transaction, {
      merchantId: tenant.merchantId,
      action: "exchange_rate.set",
      actor: tenant.actor,
      livemode: tenant.livemode,
      target: { type: "exchange_rate", id: row.id },
      client: { address: input.client.address, userAgent: input.client.userAgent },
    });
    await recordApproval(transaction, tenant, approval, { type: "exchange_rate", id: row.id }, input.client);
    return row;
  });
}

export async function listExchangeRates(
  database: Queryable,
  tenant: Tenant,
  filter: { base?: Currency | undefined; other?: Currency | undefined; limit: number; cursor?: string | undefined },
): Promise<Page<ExchangeRateRow>> {
  const rows = await queries.selectExchangeRates(database, {
    merchantId: tenant.merchantId,
    livemode: tenant.livemode,
    base: filter.base,
    other: filter.other,
    after: decodeCreatedAtCursor(filter.cursor),
    limit: filter.limit + 1,
  });
  return toPage(rows, { limit: filter.limit, keyOf: createdAtKey, present: (row) => row });
}

export async function currentExchangeRates(database: Queryable, tenant: Tenant): Promise<readonly ExchangeRateRow[]> {
  return queries.selectCurrentExchangeRates(database, tenant);
}

/** The rate in force for a pair (its newest), or null when none was ever set. */
export async function rateInForce(
  database: Queryable,
  world: { merchantId: string; livemode: boolean },
  pair: { base: Currency; other: Currency },
): Promise<ExchangeRateRow | null> {
  const [newest] = await queries.selectExchangeRates(database, { ...world, ...pair, after: undefined, limit: 1 });
  return newest ?? null;
}

/**
 * The rate a sale's tender names, for the pair it converts (`base` the basket's currency, `other` the
 * tender's): `missing` when the world has no rate for the pair at all, `unknown` when the id names
 * none of the pair's rates.
 */
export async function rateForPair(
  database: Queryable,
  world: { merchantId: string; livemode: boolean },
  request: { id: string | undefined; base: Currency; other: Currency },
): Promise<{ kind: "found"; rate: ExchangeRateRow } | { kind: "missing" | "unknown" | "not_given" }> {
  const [named, newest] = await Promise.all([
    request.id === undefined ? null : queries.selectExchangeRate(database, world, request.id),
    queries.selectExchangeRates(database, {
      ...world,
      base: request.base,
      other: request.other,
      after: undefined,
      limit: 1,
    }),
  ]);
  if (newest.length === 0) {
    return { kind: "missing" };
  }
  if (request.id === undefined) {
    return { kind: "not_given" };
  }
  return named !== null && named.base_currency === request.base && named.other_currency === request.other
    ? { kind: "found", rate: named }
    : { kind: "unknown" };
}
