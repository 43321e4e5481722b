import DataLoader from "dataloader";
import type { Database, Queryable } from "../../platform/db/pool.ts";
import type { RequestClient } from "../../platform/http/route.ts";
import type { Tenant } from "../../platform/tenant.ts";
import { recordAuditEntry } from "../audit/index.ts";
import * as queries from "./queries.ts";
import type { ShopProfileRow, ShopProfileUpdate } from "./schemas.ts";

/**
 * What a shop prints on its receipts and how it prices tax (README.md): one profile per merchant for
 * both worlds; each change is in the audit log.
 */

export async function getShopProfile(database: Queryable, merchantId: string): Promise<ShopProfileRow> {
  return queries.selectShopProfile(database, merchantId);
}

/** A shop's profile by its merchant id (`createShopProfileReader`). */
export type ShopProfileReader = (merchantId: string) => Promise<ShopProfileRow>;

/**
 * The profiles the sales of one turn of the event loop price with, read in one statement for all of
 * them (as the catalog's product reader reads their products): a sale costs no statement of its own
 * for its shop's tax settings when others are rung up beside it. Built once per database by the wiring.
 */
export function createShopProfileReader(database: Queryable): ShopProfileReader {
  const profiles = new DataLoader<string, ShopProfileRow>(
    async (merchantIds) => {
      const found = new Map(
        (await queries.selectShopProfilesOf(database, merchantIds)).map(({ merchant_id, ...row }) => [
          merchant_id,
          row,
        ]),
      );
      return merchantIds.map((merchantId) => found.get(merchantId) ?? queries.NO_PROFILE);
    },
    { cache: false, maxBatchSize: PROFILE_BATCH_SIZE_MAX, batchScheduleFn: setImmediate },
  );
  return (merchantId) => profiles.load(merchantId);
}

/** Merchants per statement of `createShopProfileReader`: a bound on its array parameter. */
const PROFILE_BATCH_SIZE_MAX = 500;

export async function updateShopProfile(
  database: Database,
  tenant: Tenant,
  update: ShopProfileUpdate,
  client: RequestClient,
): Promise<ShopProfileRow> {
  return database.transaction(async (transaction) => {
    const profile = await queries.upsertShopProfile(transaction, tenant.merchantId, update);
    await recordAuditEntry(transaction, {
      merchantId: tenant.merchantId,
      action: "shop_profile.updated",
      actor: tenant.actor,
      livemode: null,
      target: { type: "shop_profile", id: tenant.merchantId },
      client: { address: client.address, userAgent: client.userAgent },
    });
    return profile;
  });
}
