import type { World } from "../../kernel/world.ts";
import type { Queryable } from "../../platform/db/pool.ts";
import { notFound } from "../../platform/errors.ts";
import { createdAtKey, decodeCreatedAtCursor, type Page, toPage } from "../../platform/http/pagination.ts";
import * as queries from "./queries.ts";
import type { PayoutRow, PayoutStatus } from "./schemas.ts";

/** Reading payouts: a merchant's own (by world), any (operators), a page, and a payout as it now stands. */

export async function getPayout(database: Queryable, world: World, payoutId: string): Promise<PayoutRow> {
  const payout = await queries.selectPayout(database, world, payoutId);
  if (payout === null) {
    throw notFound(`No such payout: ${payoutId}.`);
  }
  return payout;
}

export async function getPayoutById(database: Queryable, payoutId: string): Promise<PayoutRow> {
  const payout = await queries.selectPayoutById(database, payoutId);
  if (payout === null) {
    throw notFound(`No such payout: ${payoutId}.`);
  }
  return payout;
}

export async function listPayouts(
  database: Queryable,
  filter: World & {
    status: PayoutStatus | undefined;
    from: Date | undefined;
    to: Date | undefined;
    limit: number;
    cursor: string | undefined;
  },
): Promise<Page<PayoutRow>> {
  const rows = await queries.selectPayouts(database, {
    ...filter,
    after: decodeCreatedAtCursor(filter.cursor),
    limit: filter.limit + 1,
  });
  return toPage(rows, { limit: filter.limit, keyOf: createdAtKey, present: (row) => row });
}

/** The payout as it now stands (a guarded update found it moved on), or as it was if it is gone. */
export async function currentPayout(database: Queryable, payout: PayoutRow): Promise<PayoutRow> {
  return (await queries.selectPayoutByKey(database, { merchantId: payout.merchant_id, id: payout.id })) ?? payout;
}
