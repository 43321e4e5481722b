import { randomBytes } from "node:crypto";
import type { World } from "../../kernel/world.ts";
import { type Config, requireWebhookSecretKey } from "../../platform/config.ts";
import type { Database, Queryable } from "../../platform/db/pool.ts";
import { conflict, invalidRequest, notFound } from "../../platform/errors.ts";
import { createdAtKey, decodeCreatedAtCursor, type Page, toPage } from "../../platform/http/pagination.ts";
import { newId } from "../../platform/ids.ts";
import type { Actor } from "../../platform/tenant.ts";
import { type AuditEntry, recordAuditEntry } from "../audit/index.ts";
import { events } from "../events/index.ts";
import type { DeliveryStore } from "./delivery-store.ts";
import {
  webhookAttemptDurationSeconds,
  webhookAttemptsTotal,
  webhookDeadDeliveriesTotal,
  webhookSecretUnopenableTotal,
} from "./metrics.ts";
import type { AttemptOutcome } from "./post-webhook.ts";
import * as queries from "./queries.ts";
import {
  type AttemptRow,
  type CreateEndpointInput,
  type DeliveryRow,
  type DeliveryStatus,
  type EndpointRow,
  RECOVERY_WINDOW_MS,
} from "./schemas.ts";
import { isSealedWith, openSecret, type SecretKeyring, sealSecret } from "./secret-box.ts";
import { signatureHeader } from "./signature.ts";
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

/** How long a delivery whose endpoint secret does not decrypt waits before it is tried again. */
const SECRET_UNOPENABLE_RETRY_MS = 60_000;

/** Dead deliveries one recovery call makes due (one statement); the caller repeats while `has_more`. */
const RECOVERED_PER_CALL_MAX = 5000;

function keyringOf(config: Config): SecretKeyring {
  return { current: requireWebhookSecretKey(config), previous: config.webhook.previousSecretKey };
}

const associatedDataOf = (endpoint: { merchant_id: string; id: string }) => `${endpoint.merchant_id}/${endpoint.id}`;

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

export async function getDelivery(
  database: Queryable,
  world: World,
  deliveryId: string,
): Promise<DeliveryWithAttempts> {
  const delivery = await queries.selectDelivery(database, world, deliveryId);
  if (delivery === null) {
    throw notFound(`No such webhook delivery: ${deliveryId}.`);
  }
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
  const delivery = await queries.selectDelivery(database, world, deliveryId);
  if (delivery === null) {
    throw notFound(`No such webhook delivery: ${deliveryId}.`);
  }
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

export type DeliveryDependencies = {
  store: DeliveryStore;
  config: Config;
  post: (request: {
    url: string;
    body: string;
    headers: Record<string, string>;
    guardPrivate: boolean;
  }) => Promise<AttemptOutcome>;
  /** The clock of signatures, in seconds; tests may move it. */
  nowSeconds?: () => number;
};

/** The lease of a claimed attempt: its own deadline with room to record it, so it lapses only when the worker is gone. */
export const attemptLeaseMs = (config: Pick<Config, "webhook">) => 2 * config.webhook.timeoutMs + 1000;

/**
 * Claims up to `limit` due deliveries (of one merchant, or of all when `merchantId` is null) with
 * their attempts' leases, in one statement (`DeliveryStore.claimDue`); each is then `attemptDelivery`'s.
 */
export function claimDueDeliveries(
  dependencies: Pick<DeliveryDependencies, "store" | "config">,
  claim: { limit: number; merchantId: string | null },
): Promise<readonly queries.ClaimedDelivery[]> {
  return dependencies.store.claimDue({ ...claim, leaseMs: attemptLeaseMs(dependencies.config) });
}

/**
 * One attempt of a claimed delivery (its attempt counted and leased by the claim): post the signed
 * event outside any transaction, then record the attempt and settle the delivery in one statement
 * (a failure's next attempt is the delivery's `next_attempt_at`, where the claim finds it).
 */
export async function attemptDelivery(
  dependencies: DeliveryDependencies,
  claimed: queries.ClaimedDelivery,
): Promise<DeliveryRow | null> {
  const { store, config } = dependencies;
  const delivery = { merchantId: claimed.merchant_id, deliveryId: claimed.id };
  if (!claimed.endpoint_active) {
    return store.record({
      ...delivery,
      attempt: null,
      attemptNumber: claimed.attempt_count,
      status: "canceled",
      nextAttemptInMs: null,
    });
  }
  const body = JSON.stringify({
    id: claimed.event_id,
    type: claimed.event_type,
    livemode: claimed.livemode,
    created_at: claimed.event_created_at.toISOString(),
    data: claimed.event_data,
  });
  const associatedData = associatedDataOf({ merchant_id: claimed.merchant_id, id: claimed.endpoint_id });
  let secrets: [string, ...string[]];
  try {
    const secret = openSecret(keyringOf(config), claimed.secret_ciphertext, associatedData);
    // During a roll's overlap the previous secret signs too, so receivers still holding it accept.
    secrets =
      claimed.previous_secret_ciphertext === null
        ? [secret]
        : [secret, openSecret(keyringOf(config), claimed.previous_secret_ciphertext, associatedData)];
  } catch (error) {
    // Our keys, not the receiver: nothing is sent, the attempt is given back, and the delivery waits
    // for the operator to configure the key it was sealed under (or the merchant to roll the secret).
    await store.record({
      ...delivery,
      attempt: null,
      attemptNumber: claimed.attempt_count,
      status: "pending",
      nextAttemptInMs: SECRET_UNOPENABLE_RETRY_MS,
      attemptReturned: true,
    });
    webhookSecretUnopenableTotal.inc();
    throw new Error(
      `endpoint ${claimed.endpoint_id}'s secret does not decrypt with the configured keys; delivery ${claimed.id} waits ${SECRET_UNOPENABLE_RETRY_MS / 1000} s without using an attempt`,
      { cause: error },
    );
  }
  const startedAt = new Date();
  const timestampSeconds = dependencies.nowSeconds?.() ?? Math.floor(startedAt.getTime() / 1000);
  const outcome = await dependencies.post({
    url: claimed.url,
    body,
    headers: {
      "X-Pos-Event-Id": claimed.event_id,
      "X-Pos-Delivery-Id": claimed.id,
      "X-Pos-Signature": signatureHeader({ secrets, timestampSeconds, body }),
    },
    guardPrivate: !privateTargetsAllowed(config.webhook.privateTargets, claimed.livemode),
  });
  const succeeded = outcome.responseStatus !== null && outcome.responseStatus >= 200 && outcome.responseStatus < 300;
  const attemptsMax = config.webhook.retryScheduleMs.length + 1;
  const retryInMs = config.webhook.retryScheduleMs[claimed.attempt_count - 1];
  const status: DeliveryStatus = succeeded
    ? "succeeded"
    : claimed.attempt_count >= attemptsMax || retryInMs === undefined
      ? "dead"
      : "pending";
  webhookAttemptsTotal.inc({
    outcome: succeeded ? "succeeded" : "failed",
    attempt: claimed.attempt_count <= attemptsMax ? String(claimed.attempt_count) : `${attemptsMax + 1}+`,
  });
  webhookAttemptDurationSeconds.observe(outcome.durationMs / 1000);
  // One statement: the attempt's record and the delivery's new state.
  const settled = await store.record({
    ...delivery,
    attempt: {
      attempt: claimed.attempt_count,
      started_at: startedAt,
      duration_ms: outcome.durationMs,
      response_status: outcome.responseStatus,
      response_excerpt: outcome.responseExcerpt,
      error: outcome.error,
      succeeded,
    },
    attemptNumber: claimed.attempt_count,
    status,
    nextAttemptInMs: status === "pending" ? (retryInMs ?? null) : null,
  });
  if (settled?.status === "dead") {
    webhookDeadDeliveriesTotal.inc();
  }
  return settled;
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
    const batch = await queries.selectSealedSecrets(database, { after, limit: 500 });
    let raced = false;
    for (const endpoint of batch) {
      const previous = endpoint.previous_secret_ciphertext;
      const stale =
        !isSealedWith(keyring.current, endpoint.secret_ciphertext) ||
        (previous !== null && !isSealedWith(keyring.current, previous));
      if (stale) {
        const associatedData = associatedDataOf(endpoint);
        const updated = await queries.updateSealedSecrets(database, {
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
