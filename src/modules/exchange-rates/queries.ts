import type { Currency } from "../../kernel/money.ts";
import { afterPreviousRow } from "../../platform/db/newest-first.ts";
import { type Queryable, sql } from "../../platform/db/pool.ts";
import type { Actor } from "../../platform/tenant.ts";
import { type ExchangeRateRow, exchangeRateRowSchema } from "./schemas.ts";

type World = { merchantId: string; livemode: boolean };

const COLUMNS = sql.fragment`merchant_id, id, livemode, base_currency, other_currency, other_per_base_micros,
  actor_type, actor_id, created_at`;

export async function insertExchangeRate(
  database: Queryable,
  rate: World & { id: string; base: Currency; other: Currency; otherPerBaseMicros: number; actor: Actor },
): Promise<ExchangeRateRow> {
  return database.one(sql.type(exchangeRateRowSchema)`
    INSERT INTO exchange_rates (merchant_id, id, livemode, base_currency, other_currency, other_per_base_micros,
      actor_type, actor_id)
    VALUES (${rate.merchantId}, ${rate.id}, ${rate.livemode}, ${rate.base}, ${rate.other}, ${rate.otherPerBaseMicros},
      ${rate.actor.kind}, ${rate.actor.id})
    RETURNING ${COLUMNS}`);
}

export async function selectExchangeRates(
  database: Queryable,
  filter: World & {
    base?: Currency | undefined;
    other?: Currency | undefined;
    after: { createdAt: string; id: string } | undefined;
    limit: number;
  },
): Promise<readonly ExchangeRateRow[]> {
  const conditions = [sql.fragment`merchant_id = ${filter.merchantId}`, sql.fragment`livemode = ${filter.livemode}`];
  if (filter.base !== undefined) {
    conditions.push(sql.fragment`base_currency = ${filter.base}`);
  }
  if (filter.other !== undefined) {
    conditions.push(sql.fragment`other_currency = ${filter.other}`);
  }
  if (filter.after !== undefined) {
    conditions.push(afterPreviousRow(sql.identifier(["exchange_rates"]), filter.merchantId, filter.after));
  }
  return database.any(sql.type(exchangeRateRowSchema)`
    SELECT ${COLUMNS} FROM exchange_rates
    WHERE ${sql.join(conditions, sql.fragment` AND `)}
    ORDER BY created_at DESC, id DESC
    LIMIT ${filter.limit}`);
}

/** The newest rate of each pair (the rate in force). */
export async function selectCurrentExchangeRates(
  database: Queryable,
  world: World,
): Promise<readonly ExchangeRateRow[]> {
  return database.any(sql.type(exchangeRateRowSchema)`
    SELECT DISTINCT ON (base_currency, other_currency) ${COLUMNS} FROM exchange_rates
    WHERE merchant_id = ${world.merchantId} AND livemode = ${world.livemode}
    ORDER BY base_currency, other_currency, created_at DESC, id DESC`);
}

/** One of the world's rates, by id (any age: a sale may name the rate its till had). */
export async function selectExchangeRate(
  database: Queryable,
  world: World,
  id: string,
): Promise<ExchangeRateRow | null> {
  return database.maybeOne(sql.type(exchangeRateRowSchema)`
    SELECT ${COLUMNS} FROM exchange_rates
    WHERE merchant_id = ${world.merchantId} AND livemode = ${world.livemode} AND id = ${id}`);
}
