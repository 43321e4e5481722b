import type { Config } from "../../platform/config.ts";
import type { Database, Queryable } from "../../platform/db/pool.ts";
import { notFound, unauthenticated } from "../../platform/errors.ts";
import type { RequestClient } from "../../platform/http/route.ts";
import { newId } from "../../platform/ids.ts";
import type { Tenant } from "../../platform/tenant.ts";
import { auditAccountAction } from "./account-audit.ts";
import * as devices from "./device-queries.ts";
import * as queries from "./queries.ts";
import type { SignedIn } from "./service.ts";
import { openSession } from "./session-opening.ts";
import { hashToken, newSessionToken } from "./tokens.ts";

/**
 * Till devices: paired once by the owner (a dashboard session within its step-up window), the device
 * keeps a token (shown once, stored as SHA-256) and opens till sessions with it, so the owner's
 * password is never typed at the counter again. Revoking the device refuses the token and ends its
 * sessions at once (revoked now, and the session lookup checks the device).
 */

export async function pairDevice(
  database: Database,
  tenant: Tenant,
  input: { name: string; client: RequestClient },
): Promise<{ device: devices.DeviceRow; token: string }> {
  const token = `tdv_${newSessionToken()}`;
  const device = await database.transaction(async (transaction) => {
    const device = await devices.insertDevice(transaction, {
      merchantId: tenant.merchantId,
      id: newId("dev"),
      name: input.name,
      userId: tenant.session?.userId ?? tenant.actor.id,
      tokenHash: hashToken(token),
    });
    await auditAccountAction(transaction, tenant, {
      action: "till_device.paired",
      target: { type: "till_device", id: device.id },
      client: input.client,
    });
    return device;
  });
  return { device, token };
}

export async function listDevices(database: Queryable, tenant: Tenant): Promise<readonly devices.DeviceRow[]> {
  return devices.selectDevices(database, tenant.merchantId);
}

export async function revokeDevice(
  database: Database,
  tenant: Tenant,
  input: { id: string; client: RequestClient },
): Promise<devices.DeviceRow> {
  return database.transaction(async (transaction) => {
    const device = await devices.revokeDevice(transaction, tenant.merchantId, input.id);
    if (device === null) {
      throw notFound(`No such till device: ${input.id}.`);
    }
    await auditAccountAction(transaction, tenant, {
      action: "till_device.revoked",
      target: { type: "till_device", id: device.id },
      client: input.client,
    });
    return device;
  });
}

/**
 * A paired device opens a till session with its token (no password; the session never satisfies
 * step-up); a presented older session is revoked. The opening is audited as the device's.
 */
export async function signInDevice(
  database: Database,
  settings: Config["sessions"],
  input: { deviceToken: string; client: RequestClient; cookieName: string },
): Promise<SignedIn> {
  const device = await devices.useDevice(database, hashToken(input.deviceToken));
  const user = device === null ? null : await queries.selectUser(database, device.merchant_id, device.user_id);
  if (device === null || user === null) {
    throw unauthenticated(
      "device_invalid",
      "This till is not paired (or was unpaired): pair it again from the dashboard.",
    );
  }
  const token = newSessionToken();
  const session = await openSession(database, {
    merchantId: device.merchant_id,
    userId: device.user_id,
    kind: "till",
    token,
    presented: input.client.cookie(input.cookieName),
    client: input.client,
    idleTimeoutSeconds: null,
    lifetimeMs: settings.tillLifetimeMs,
    deviceId: device.id,
    passwordVerified: false,
    opened: { action: "session.device_opened", actor: { kind: "till_user", id: device.id } },
  });
  return { session, token, user, lifetimeMs: settings.tillLifetimeMs };
}
