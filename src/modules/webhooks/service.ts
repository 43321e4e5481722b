import { randomBytes } from "node:crypto";
import type { World } from "../../kernel/world.ts";
import type { Config } from "../../platform/config.ts";
import type { Database, Queryable } from "../../platform/db/pool.ts";
import { conflict, invalidRequest, notFound } from "../../platform/errors.ts";
import { createdAtKey, decodeCreatedAtCursor, type Page, toPage } from "../../platform/http/pagination.ts";
import { newId } from "../../platform/ids.ts";
import type { Actor } from "../../platform/tenant.ts";
import { type AuditEntry, recordAuditEntry } from "../audit/index.ts";
import { events } from "../events/index.ts";
import { associatedDataOf, keyringOf } from "./endpoint-secret.ts";
import * as queries from "./queries.ts";
import * as resealQueries from "./reseal-queries.ts";
import {
  type AttemptRow,
  type CreateEndpointInput,
  type DeliveryRow,
  type DeliveryStatus,
  type EndpointRow,
  RECOVERY_WINDOW_MS,
} from "./schemas.ts";
import { isSealedWith, openSecret, sealSecret } from "./secret-box.ts";
import { assertPublicHost, BlockedTargetError, hostOf, privateTargetsAllowed } from "./target-guard.ts";

/**
 * Webhook endpoints and the delivery of events to them.
 *
 * Invariants:
 * - a delivery exists for every (event, active matching endpoint of the same world), created with the
 *   event in its transaction (the `fan_out_event` trigger), so an event is never told to some
 *   endpoints and lost for others;
 * - a delivery is attempted until a 2xx, at most `retryScheduleMs.length + 1` times, then parked as
 *   `dead`; every attempt is recorded;
 * - a worker that dies mid-attempt loses its lease and the attempt is made again: receivers
 *   deduplicate on `X-Pos-Event-Id`;
 * - the signing secret leaves the database only encrypted, and the API shows it once; after a roll the
 *   previous secret signs too (a second `v1=`) until its expiry, then never again;
 * - a recovery makes each dead delivery due once: recovered deliveries are pending, so a second
 *   recovery (or one running concurrently) does not attempt them again;
 * - a test event reaches only its endpoint and stays out of the polling feed.
 *
 * Error codes: `invalid_url` (400), `resource_missing` (404), `delivery_in_progress` (409),
 * `endpoint_inactive` (400), `parameter_invalid` (400, a recovery reaching back too far).
 */

/** Dead deliveries one recovery call makes due (one statement); the caller repeats while `has_more`. */
const RECOVERED_PER_CALL_MAX = 5000;

// The delivery of an attempt lives in delivery-attempt.ts; tests and the pump's task have always
// imported it from here, so the service keeps answering for it.
export {
  attemptDelivery,
  attemptLeaseMs,
  claimDueDeliveries,
  type DeliveryDependencies,
} from "./delivery-attempt.ts";

/** Refuses URLs a world may not deliver to; in the live world also hosts that resolve to private addresses. */
async function validateTargetUrl(rawUrl: string, world: World, config: Config): Promise<URL> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw invalidRequest("invalid_url", "url: not an absolute URL.");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw invalidRequest("invalid_url", "url: must use https (or http in test mode).");
  }
  if (world.livemode && url.protocol !== "https:") {
    throw invalidRequest("invalid_url", "url: live endpoints must use https.");
  }
  if (url.username !== "" || url.password !== "") {
    throw invalidRequest("invalid_url", "url: must not carry credentials.");
  }
  if (!privateTargetsAllowed(config.webhook.privateTargets, world.livemode)) {
    try {
      await assertPublicHost(hostOf(url));
    } catch (error) {
      const reason = error instanceof BlockedTargetError ? error.message : `${url.hostname} does not resolve`;
      throw invalidRequest("invalid_url", `url: ${reason}.`);
    }
  }
  return url;
}

const newSigningSecret = () => `whsec_${randomBytes(32).toString("base64url")}`;

/** Who changed an endpoint, for the audit log (the request's actor and client). */
export type EndpointChanger = { actor: Actor; client: AuditEntry["client"] };

export async function createEndpoint(
  database: Database,
  config: Config,
  world: World,
  input: CreateEndpointInput,
  by: EndpointChanger,
): Promise<{ endpoint: EndpointRow; secret: string }> {
  const url = await validateTargetUrl(input.url, world, config);
  const secret = newSigningSecret();
  const id = newId("we");
  const endpoint = await database.transaction(async (transaction) => {
    const endpoint = await queries.insertEndpoint(transaction, {
      merchant_id: world.merchantId,
      id,
      livemode: world.livemode,
      url: url.toString(),
      event_types: [...new Set(input.event_types)],
      secret_ciphertext: sealSecret(keyringOf(config), secret, associatedDataOf({ merchant_id: world.merchantId, id })),
      secret_last4: secret.slice(-4),
    });
    await auditEndpoint(transaction, world, by, "webhook_endpoint.created", id);
    return endpoint;
  });
  return { endpoint, secret };
}

const auditEndpoint = (
  database: Queryable,
  world: World,
  by: EndpointChanger,
  action: "webhook_endpoint.created" | "webhook_endpoint.secret_rolled" | "webhook_endpoint.deactivated",
  endpointId: string,
) =>
  recordAuditEntry(database, {
    merchantId: world.merchantId,
    action,
    actor: by.actor,
    livemode: world.livemode,
    target: { type: "webhook_endpoint", id: endpointId },
    client: by.client,
  });

export async function getEndpoint(database: Queryable, world: World, endpointId: string): Promise<EndpointRow> {
  const endpoint = await queries.selectEndpoint(database, world, endpointId);
  if (endpoint === null) {
    throw notFound(`No such webhook endpoint: ${endpointId}.`);
  }
  return endpoint;
}

export async function listEndpoints(
  database: Queryable,
  world: World & { limit: number; cursor: string | undefined },
): Promise<Page<EndpointRow>> {
  const after = decodeCreatedAtCursor(world.cursor);
  const rows = await queries.selectEndpoints(database, {
    ...world,
    after,
    limit: world.limit + 1,
  });
  return toPage(rows, {
    limit: world.limit,
    keyOf: createdAtKey,
    present: (row) => row,
  });
}

/** Deactivates an endpoint: it receives nothing from now on, including pending retries. Idempotent. */
export async function deactivateEndpoint(
  database: Database,
  world: World,
  endpointId: string,
  by: EndpointChanger,
): Promise<EndpointRow> {
  return database.transaction(async (transaction) => {
    const endpoint = await queries.deactivateEndpoint(transaction, world, endpointId);
    if (endpoint === null) {
      throw notFound(`No such webhook endpoint: ${endpointId}.`);
    }
    await auditEndpoint(transaction, world, by, "webhook_endpoint.deactivated", endpointId);
    return endpoint;
  });
}

/**
 * Replaces an endpoint's signing secret; the new one is returned here only. For `overlapSeconds` the
 * previous secret keeps signing too (deliveries carry both signatures), so receivers can switch
 * without refusing a delivery; 0 ends the previous secret now. A roll during an overlap ends the
 * older previous secret: at most two secrets sign at once.
 */
export async function rollSecret(
  database: Database,
  config: Config,
  world: World,
  roll: { endpointId: string; overlapSeconds: number },
  by: EndpointChanger,
): Promise<{ endpoint: EndpointRow; secret: string }> {
  const current = await getEndpoint(database, world, roll.endpointId);
  if (!current.active) {
    throw invalidRequest("endpoint_inactive", "The endpoint is deactivated.");
  }
  const secret = newSigningSecret();
  const endpoint = await database.transaction(async (transaction) => {
    const endpoint = await queries.rollSecret(transaction, world, {
      endpointId: roll.endpointId,
      sealed: sealSecret(
        keyringOf(config),
        secret,
        associatedDataOf({ merchant_id: world.merchantId, id: current.id }),
      ),
      last4: secret.slice(-4),
      overlapSeconds: roll.overlapSeconds,
    });
    if (endpoint === null) {
      throw invalidRequest("endpoint_inactive", "The endpoint is deactivated.");
    }
    await auditEndpoint(transaction, world, by, "webhook_endpoint.secret_rolled", endpoint.id);
    return endpoint;
  });
  return { endpoint, secret };
}

/**
 * Makes every dead delivery of an endpoint created at or after `since` due now (one more attempt
 * each), up to a bounded batch per call. `since` may reach back `RECOVERY_WINDOW_MS` (30 days).
 */
export async function recoverDeliveries(
  database: Queryable,
  world: World,
  recovery: { endpointId: string; since: Date; nowMs?: number },
): Promise<{ recovered_count: number; has_more: boolean }> {
  if (recovery.since.getTime() < (recovery.nowMs ?? Date.now()) - RECOVERY_WINDOW_MS) {
    throw invalidRequest("parameter_invalid", "since: at most 30 days ago.");
  }
  const endpoint = await getEndpoint(database, world, recovery.endpointId);
  if (!endpoint.active) {
    throw invalidRequest("endpoint_inactive", "The endpoint is deactivated.");
  }
  return queries.recoverDeadDeliveries(database, {
    ...world,
    endpointId: endpoint.id,
    since: recovery.since,
    limit: RECOVERED_PER_CALL_MAX,
  });
}

/**
 * Sends a `webhook.test` event to one endpoint: the event and its single delivery, due and announced,
 * commit together. The event is not in the polling feed (see `events.recordTestEvent`).
 */
export async function sendTestEvent(
  database: Database,
  world: World,
  endpointId: string,
): Promise<DeliveryWithAttempts> {
  const endpoint = await getEndpoint(database, world, endpointId);
  if (!endpoint.active) {
    throw invalidRequest("endpoint_inactive", "The endpoint is deactivated.");
  }
  const delivery = await database.transaction(async (transaction) => {
    const event = await events.recordTestEvent(transaction, {
      merchantId: world.merchantId,
      livemode: world.livemode,
      data: { endpoint_id: endpoint.id, message: "A test event sent from the API; it moves no money." },
    });
    const created = await queries.insertDelivery(transaction, {
      merchant_id: world.merchantId,
      id: newId("whd"),
      livemode: world.livemode,
      endpoint_id: endpoint.id,
      event_id: event.id,
      event_type: event.type,
    });
    return created;
  });
  return { ...delivery, attempts: [] };
}

export type DeliveryWithAttempts = DeliveryRow & { attempts: AttemptRow[] };

async function deliveryOrNotFound(database: Queryable, world: World, deliveryId: string): Promise<DeliveryRow> {
  const delivery = await queries.selectDelivery(database, world, deliveryId);
  if (delivery === null) {
    throw notFound(`No such webhook delivery: ${deliveryId}.`);
  }
  return delivery;
}

export async function getDelivery(
  database: Queryable,
  world: World,
  deliveryId: string,
): Promise<DeliveryWithAttempts> {
  const delivery = await deliveryOrNotFound(database, world, deliveryId);
  const attempts = await queries.selectAttempts(database, world.merchantId, [deliveryId]);
  return { ...delivery, attempts: [...attempts] };
}

/** An endpoint's deliveries, or an event's (to every endpoint), with their attempts, newest first. */
export async function listDeliveries(
  database: Queryable,
  filter: World & {
    of: { endpointId: string } | { eventId: string };
    status: DeliveryStatus | undefined;
    limit: number;
    cursor: string | undefined;
  },
): Promise<Page<DeliveryWithAttempts>> {
  if ("endpointId" in filter.of) {
    await getEndpoint(database, filter, filter.of.endpointId);
  }
  const after = decodeCreatedAtCursor(filter.cursor);
  const rows = await queries.selectDeliveries(database, {
    ...filter,
    after,
    limit: filter.limit + 1,
  });
  const page = toPage(rows, {
    limit: filter.limit,
    keyOf: createdAtKey,
    present: (row) => row,
  });
  const attempts = await queries.selectAttempts(
    database,
    filter.merchantId,
    page.data.map((delivery) => delivery.id),
  );
  return {
    ...page,
    data: page.data.map((delivery) => ({
      ...delivery,
      attempts: attempts.filter((attempt) => attempt.delivery_id === delivery.id),
    })),
  };
}

/** Schedules one more attempt now, also for a delivery that succeeded or is dead. */
export async function retryDelivery(
  database: Database,
  world: World,
  deliveryId: string,
): Promise<DeliveryWithAttempts> {
  const delivery = await deliveryOrNotFound(database, world, deliveryId);
  const endpoint = await getEndpoint(database, world, delivery.endpoint_id);
  if (!endpoint.active) {
    throw invalidRequest("endpoint_inactive", "The delivery's endpoint is deactivated.");
  }
  const due = await queries.makeDeliveryDue(database, world, deliveryId);
  if (due === null) {
    throw conflict("delivery_in_progress", "An attempt of this delivery is in progress; retry after it ends.");
  }
  const attempts = await queries.selectAttempts(database, world.merchantId, [deliveryId]);
  return { ...due, attempts: [...attempts] };
}

/**
 * Re-encrypts every endpoint secret (and previous secret, after a roll) under the current key (the
 * second step of a key rotation, run while the previous key is still configured). Returns how many
 * endpoints were re-encrypted. Safe to re-run, and alongside secret rolls (a rolled secret is not
 * reverted; it was sealed under the current key anyway).
 */
export async function resealSecrets(database: Database, config: Config): Promise<{ resealed: number }> {
  const keyring = keyringOf(config);
  const reseal = (sealed: Buffer, associatedData: string) =>
    isSealedWith(keyring.current, sealed)
      ? sealed
      : sealSecret(keyring, openSecret(keyring, sealed, associatedData), associatedData);
  let resealed = 0;
  let after: { merchantId: string; id: string } | undefined;
  for (;;) {
    const batch = await resealQueries.selectSealedSecrets(database, { after, limit: 500 });
    let raced = false;
    for (const endpoint of batch) {
      const previous = endpoint.previous_secret_ciphertext;
      const stale =
        !isSealedWith(keyring.current, endpoint.secret_ciphertext) ||
        (previous !== null && !isSealedWith(keyring.current, previous));
      if (stale) {
        const associatedData = associatedDataOf(endpoint);
        const updated = await resealQueries.updateSealedSecrets(database, {
          merchantId: endpoint.merchant_id,
          id: endpoint.id,
          read: { current: endpoint.secret_ciphertext, previous },
          resealed: {
            current: reseal(endpoint.secret_ciphertext, associatedData),
            previous: previous === null ? null : reseal(previous, associatedData),
          },
        });
        if (!updated) {
          // Rolled meanwhile: read this batch again (what is already resealed is skipped).
          raced = true;
          break;
        }
        resealed += 1;
      }
    }
    if (raced) {
      continue;
    }
    const last = batch.at(-1);
    if (last === undefined) {
      return { resealed };
    }
    after = { merchantId: last.merchant_id, id: last.id };
  }
}
