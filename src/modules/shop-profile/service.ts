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
