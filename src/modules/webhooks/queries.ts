import { z } from "zod";
import type { World } from "../../kernel/world.ts";
import { claimInDueOrder } from "../../platform/db/due-order.ts";
import { andAfterPreviousRow } from "../../platform/db/newest-first.ts";
import { type Database, type Queryable, sql, type Transaction } from "../../platform/db/pool.ts";
import {
  type AttemptRow,
  attemptRowSchema,
  type DeliveryRow,
  type DeliveryStatus,
  deliveryRowSchema,
  type EndpointRow,
  endpointRowSchema,
} from "./schemas.ts";

const ASYNC_COMMIT = sql.fragment`set_config('synchronous_commit', 'off', true)`;
/**
 * The channel that tells the webhook-delivery pool deliveries fell due now (a new event's, a retry's
 * or a recovery's), announced at the commit of the transaction that made them due; the
 * `fan_out_event` trigger (migration 1764710000000) names it too.
 */
export const DELIVERIES_DUE_CHANNEL = "webhook_deliveries_due";
/** Announces on `DELIVERIES_DUE_CHANNEL`, once per transaction however often it is called. */
const NOTIFY_DELIVERIES_DUE = sql.fragment`pg_notify(${DELIVERIES_DUE_CHANNEL}, '')`;
// An expired previous secret reads as none, on the database's clock (the one deliveries are signed by).
const ENDPOINT_COLUMNS = sql.fragment`merchant_id, id, livemode, url, event_types, secret_ciphertext, secret_last4, active,
  created_at, deactivated_at,
  CASE WHEN previous_secret_expires_at > now() THEN previous_secret_expires_at END AS previous_secret_expires_at`;
const DELIVERY_COLUMNS = sql.fragment`merchant_id, id, livemode, endpoint_id, event_id, event_type, status, attempt_count,
  next_attempt_at, lease_expires_at, delivered_at, created_at, updated_at`;

export async function insertEndpoint(
  transaction: Transaction,
  endpoint: Omit<EndpointRow, "active" | "created_at" | "deactivated_at" | "previous_secret_expires_at">,
): Promise<EndpointRow> {
  return transaction.one(sql.type(endpointRowSchema)`
    INSERT INTO webhook_endpoints (merchant_id, id, livemode, url, event_types, secret_ciphertext, secret_last4)
    VALUES (${endpoint.merchant_id}, ${endpoint.id}, ${endpoint.livemode}, ${endpoint.url},
      ${sql.array(endpoint.event_types, "text")}, ${sql.binary(endpoint.secret_ciphertext)}, ${endpoint.secret_last4})
    RETURNING ${ENDPOINT_COLUMNS}`);
}

export async function selectEndpoint(
  database: Queryable,
  world: World,
  endpointId: string,
): Promise<EndpointRow | null> {
  return database.maybeOne(sql.type(endpointRowSchema)`
    SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints
    WHERE merchant_id = ${world.merchantId} AND livemode = ${world.livemode} AND id = ${endpointId}`);
}

/** Newest first, after the (created_at, id) of the previous page's last endpoint. */
export async function selectEndpoints(
  database: Queryable,
  world: World & { after: { createdAt: string; id: string } | undefined; limit: number },
): Promise<readonly EndpointRow[]> {
  const after = andAfterPreviousRow(sql.identifier(["webhook_endpoints"]), world.merchantId, world.after);
  return database.any(sql.type(endpointRowSchema)`
    SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints
    WHERE merchant_id = ${world.merchantId} AND livemode = ${world.livemode} ${after}
    ORDER BY created_at DESC, id DESC
    LIMIT ${world.limit}`);
}

export async function deactivateEndpoint(
  database: Queryable,
  world: World,
  endpointId: string,
): Promise<EndpointRow | null> {
  return database.maybeOne(sql.type(endpointRowSchema)`
    UPDATE webhook_endpoints SET active = false, deactivated_at = coalesce(deactivated_at, now())
    WHERE merchant_id = ${world.merchantId} AND livemode = ${world.livemode} AND id = ${endpointId}
    RETURNING ${ENDPOINT_COLUMNS}`);
}

export async function selectDelivery(
  database: Queryable,
  world: World,
  deliveryId: string,
): Promise<DeliveryRow | null> {
  return database.maybeOne(sql.type(deliveryRowSchema)`
    SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries
    WHERE merchant_id = ${world.merchantId} AND livemode = ${world.livemode} AND id = ${deliveryId}`);
}

/**
 * Deliveries of one endpoint or of one event (to every endpoint), newest first, after the
 * (created_at, id) of the previous page's last one.
 */
export async function selectDeliveries(
  database: Queryable,
  filter: World & {
    of: { endpointId: string } | { eventId: string };
    status: DeliveryStatus | undefined;
    after: { createdAt: string; id: string } | undefined;
    limit: number;
  },
): Promise<readonly DeliveryRow[]> {
  const status = filter.status === undefined ? sql.fragment`` : sql.fragment`AND status = ${filter.status}`;
  const after = andAfterPreviousRow(sql.identifier(["webhook_deliveries"]), filter.merchantId, filter.after);
  const of =
    "endpointId" in filter.of
      ? sql.fragment`endpoint_id = ${filter.of.endpointId}`
      : sql.fragment`event_id = ${filter.of.eventId}`;
  return database.any(sql.type(deliveryRowSchema)`
    SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries
    WHERE merchant_id = ${filter.merchantId} AND livemode = ${filter.livemode} AND ${of}
      ${status} ${after}
    ORDER BY created_at DESC, id DESC
    LIMIT ${filter.limit}`);
}

/**
 * Replaces an active endpoint's secret. With an overlap, the current secret becomes the previous one
 * until `overlapSeconds` from now (replacing any earlier previous secret); without, it is dropped.
 * Null when there is no such active endpoint.
 */
export async function rollSecret(
  database: Queryable,
  world: World,
  roll: { endpointId: string; sealed: Buffer; last4: string; overlapSeconds: number },
): Promise<EndpointRow | null> {
  const overlapping = roll.overlapSeconds > 0;
  return database.maybeOne(sql.type(endpointRowSchema)`
    UPDATE webhook_endpoints
    SET previous_secret_ciphertext = CASE WHEN ${overlapping} THEN secret_ciphertext END,
      previous_secret_expires_at = CASE WHEN ${overlapping} THEN now() + ${roll.overlapSeconds} * interval '1 second' END,
      secret_ciphertext = ${sql.binary(roll.sealed)}, secret_last4 = ${roll.last4}
    WHERE merchant_id = ${world.merchantId} AND livemode = ${world.livemode} AND id = ${roll.endpointId} AND active
    RETURNING ${ENDPOINT_COLUMNS}`);
}

/** A delivery to one endpoint, due now and announced, created by the API rather than the fan-out (test events). */
export async function insertDelivery(
  transaction: Transaction,
  delivery: Pick<DeliveryRow, "merchant_id" | "id" | "livemode" | "endpoint_id" | "event_id" | "event_type">,
): Promise<DeliveryRow> {
  return transaction.one(sql.type(deliveryRowSchema)`
    WITH created AS (
      INSERT INTO webhook_deliveries (merchant_id, id, livemode, endpoint_id, event_id, event_type, status, next_attempt_at)
      VALUES (${delivery.merchant_id}, ${delivery.id}, ${delivery.livemode}, ${delivery.endpoint_id}, ${delivery.event_id},
        ${delivery.event_type}, 'pending', now())
      RETURNING ${DELIVERY_COLUMNS})
    SELECT created.* FROM created CROSS JOIN (SELECT ${NOTIFY_DELIVERIES_DUE}) AS announced`);
}

/**
 * Makes the oldest `limit` dead deliveries of an endpoint created at or after `since` due now, and
 * announces them, in one statement. Rows another recovery (or a manual retry) holds are skipped: that
 * one makes them due. A recovered delivery is pending, so running this again does not touch it.
 */
export async function recoverDeadDeliveries(
  database: Queryable,
  recovery: World & { endpointId: string; since: Date; limit: number },
): Promise<{ recovered_count: number; has_more: boolean }> {
  return database.one(sql.type(z.object({ recovered_count: z.number().int(), has_more: z.boolean() }))`
    WITH chosen AS (
      SELECT merchant_id, id FROM webhook_deliveries
      WHERE merchant_id = ${recovery.merchantId} AND livemode = ${recovery.livemode}
        AND endpoint_id = ${recovery.endpointId} AND status = 'dead'
        AND created_at >= ${recovery.since.toISOString()}::timestamptz
      ORDER BY created_at, id
      LIMIT ${recovery.limit + 1}
      FOR UPDATE SKIP LOCKED),
    recovered AS (
      UPDATE webhook_deliveries d
      SET status = 'pending', next_attempt_at = now(), updated_at = now()
      FROM (SELECT merchant_id, id FROM chosen LIMIT ${recovery.limit}) AS c
      WHERE d.merchant_id = c.merchant_id AND d.id = c.id AND d.status = 'dead'
      RETURNING d.merchant_id, d.id),
    counted AS (SELECT count(*)::integer AS recovered_count FROM recovered)
    SELECT recovered_count, (SELECT count(*) FROM chosen) > ${recovery.limit} AS has_more,
      CASE WHEN recovered_count > 0 THEN ${NOTIFY_DELIVERIES_DUE} END AS announced
    FROM counted`);
}

const attemptsOfDeliverySchema = attemptRowSchema.extend({ delivery_id: z.string() });

export async function selectAttempts(
  database: Queryable,
  merchantId: string,
  deliveryIds: readonly string[],
): Promise<readonly (AttemptRow & { delivery_id: string })[]> {
  return database.any(sql.type(attemptsOfDeliverySchema)`
    SELECT delivery_id, attempt, started_at, duration_ms, response_status, response_excerpt, error, succeeded
    FROM webhook_delivery_attempts
    WHERE merchant_id = ${merchantId} AND delivery_id = ANY(${sql.array(deliveryIds, "text")})
    ORDER BY delivery_id, attempt`);
}

const claimedDeliverySchema = z.object({
  merchant_id: z.string(),
  id: z.string(),
  livemode: z.boolean(),
  endpoint_id: z.string(),
  attempt_count: z.number().int(),
  url: z.string(),
  secret_ciphertext: z.instanceof(Buffer),
  /** The previous secret while it still signs (after a roll); null otherwise. */
  previous_secret_ciphertext: z.instanceof(Buffer).nullable(),
  endpoint_active: z.boolean(),
  event_id: z.string(),
  event_type: z.string(),
  event_data: z.record(z.string(), z.unknown()),
  event_created_at: z.date(),
  /** The span that emitted the event: each attempt continues its trace. */
  traceparent: z.string().nullable(),
});
export type ClaimedDelivery = z.infer<typeof claimedDeliverySchema>;

/**
 * Claims the next attempt of up to `limit` due deliveries (pending, the next attempt's time come, no
 * live lease), oldest due first, skipping rows another claim holds: counts each attempt and takes a
 * lease on it, so any number of delivery workers claim side by side without taking one delivery
 * twice, and a delivery whose worker died falls due again when its lease lapses. `merchantId` narrows
 * the claim to one merchant's deliveries (tests drive one merchant's deliveries). One statement,
 * prepared: it runs all the time. Its commit does not wait for the WAL flush: a claim lost in a crash
 * only means the attempt is made again (deliveries are at least once, and receivers deduplicate on
 * the event id).
 */
export async function claimDueDeliveries(
  database: Database,
  claim: { limit: number; leaseMs: number; merchantId: string | null },
): Promise<readonly ClaimedDelivery[]> {
  return claimInDueOrder(
    database,
    (transaction) =>
      transaction.any(sql.prepared("webhook_claim_due_deliveries", claimedDeliverySchema)`
    WITH due AS (
      SELECT ctid AS row_id FROM webhook_deliveries
      WHERE status = 'pending' AND greatest(next_attempt_at, lease_expires_at) <= now()
        AND (${claim.merchantId}::text IS NULL OR merchant_id = ${claim.merchantId}::text)
      ORDER BY greatest(next_attempt_at, lease_expires_at)
      LIMIT ${claim.limit}
      FOR UPDATE SKIP LOCKED),
    claimed AS (
      UPDATE webhook_deliveries d
      SET attempt_count = d.attempt_count + 1,
        lease_expires_at = now() + ${claim.leaseMs} * interval '1 millisecond',
        updated_at = now()
      FROM due WHERE d.ctid = due.row_id
      RETURNING d.merchant_id, d.id, d.livemode, d.endpoint_id, d.event_id, d.attempt_count),
    commit_mode AS (SELECT ${ASYNC_COMMIT})
    SELECT c.merchant_id, c.id, c.livemode, c.endpoint_id, c.attempt_count, e.url, e.secret_ciphertext,
      e.previous_secret_ciphertext, e.active AS endpoint_active, ev.id AS event_id, ev.type AS event_type, ev.data AS event_data,
      ev.created_at AS event_created_at, ev.traceparent
    FROM claimed c CROSS JOIN commit_mode
      CROSS JOIN LATERAL (
        SELECT url, secret_ciphertext,
          CASE WHEN previous_secret_expires_at > now() THEN previous_secret_ciphertext END AS previous_secret_ciphertext,
          active
        FROM webhook_endpoints
        WHERE merchant_id = c.merchant_id AND id = c.endpoint_id OFFSET 0) AS e
      CROSS JOIN LATERAL (
        SELECT id, type, data, created_at, traceparent FROM events
        WHERE merchant_id = c.merchant_id AND id = c.event_id OFFSET 0) AS ev`),
    // It joins its claimed rows back by ctid: planned for the table as it is (see claimInDueOrder).
    { plannedEachTime: true },
  );
}

/** How many deliveries are due now and how long the oldest has been (the delivery pool's backlog gauges). */
export async function selectDueBacklog(
  database: Queryable,
): Promise<{ runnableJobs: number; oldestRunnableAgeSeconds: number }> {
  return database.one(sql.type(z.object({ runnableJobs: z.number().int(), oldestRunnableAgeSeconds: z.number() }))`
    SELECT count(*)::int AS "runnableJobs",
      coalesce(extract(epoch FROM now() - min(greatest(next_attempt_at, lease_expires_at))), 0)::float8
        AS "oldestRunnableAgeSeconds"
    FROM webhook_deliveries
    WHERE status = 'pending' AND greatest(next_attempt_at, lease_expires_at) <= now()`);
}

/**
 * How an attempt ended and what follows it; `attempt` is null when none was made (canceled, or
 * postponed). `attemptReturned`: none was made and the claim's attempt is given back, so that a
 * delivery kept from its receiver by our own fault does not use up its attempts.
 */
export type AttemptRecord = {
  merchantId: string;
  deliveryId: string;
  attempt: AttemptRow | null;
  attemptNumber: number;
  status: DeliveryStatus;
  nextAttemptInMs: number | null;
  attemptReturned?: true;
};

/**
 * Records attempts and settles their deliveries in one statement for a batch: `succeeded`, `dead`,
 * `canceled`, or back to `pending` with the next attempt's time (the claim finds it then). Guarded by the attempt
 * number, so an attempt whose lease lapsed and was taken over cannot overwrite the newer one (absent
 * from the result then). Asynchronous commit, as for the claim: a record lost in a crash leaves a
 * lapsed lease, and the delivery falls due again.
 */
export async function recordAttempts(
  database: Queryable,
  records: readonly AttemptRecord[],
): Promise<readonly DeliveryRow[]> {
  const texts = (pick: (record: AttemptRecord) => string | null) => sql.array(records.map(pick), "text");
  const integers = (pick: (record: AttemptRecord) => number | null) => sql.array(records.map(pick), "int4");
  return database.any(sql.prepared("webhook_record_attempts", deliveryRowSchema)`
    WITH input AS (
      SELECT * FROM unnest(
        ${texts((record) => record.merchantId)}, ${texts((record) => record.deliveryId)},
        ${integers((record) => record.attemptNumber)}, ${texts((record) => record.status)},
        ${integers((record) => record.nextAttemptInMs)},
        ${texts((record) => record.attempt?.started_at.toISOString() ?? null)}::timestamptz[],
        ${integers((record) => record.attempt?.duration_ms ?? null)},
        ${integers((record) => record.attempt?.response_status ?? null)}, ${texts((record) => record.attempt?.error ?? null)},
        ${texts((record) => record.attempt?.response_excerpt ?? null)},
        ${sql.array(
          records.map((record) => record.attempt?.succeeded ?? null),
          "bool",
        )},
        ${sql.array(
          records.map((record) => record.attemptReturned === true),
          "bool",
        )})
      AS i(merchant_id, delivery_id, attempt_number, status, next_attempt_in_ms, started_at, duration_ms,
        response_status, error, response_excerpt, succeeded, attempt_returned)),
    -- Each delivery locked through its key in turn, its status and attempt read under the lock, which
    -- guard the update: a status condition on the updated rows let the planner read every pending
    -- delivery through their partial index (on statistics that counted few) and join the batch to
    -- each, per statement.
    target AS (
      SELECT input.*, found.status AS status_now, found.attempt_count AS attempt_count_now FROM input
        CROSS JOIN LATERAL (
          SELECT status, attempt_count FROM webhook_deliveries
          WHERE merchant_id = input.merchant_id AND id = input.delivery_id FOR UPDATE) AS found),
    recorded AS (
      INSERT INTO webhook_delivery_attempts
        (merchant_id, delivery_id, attempt, started_at, duration_ms, response_status, error, response_excerpt, succeeded)
      SELECT merchant_id, delivery_id, attempt_number, started_at, duration_ms, response_status, error, response_excerpt,
        succeeded
      FROM input WHERE started_at IS NOT NULL
      ON CONFLICT DO NOTHING),
    settled AS (
      UPDATE webhook_deliveries d
      SET status = i.status, next_attempt_at = now() + i.next_attempt_in_ms * interval '1 millisecond',
        lease_expires_at = NULL, attempt_count = d.attempt_count - i.attempt_returned::int,
        delivered_at = CASE WHEN i.status = 'succeeded' THEN now() ELSE d.delivered_at END,
        updated_at = now()
      FROM target i
      WHERE i.status_now = 'pending' AND i.attempt_count_now = i.attempt_number
        AND d.merchant_id = i.merchant_id AND d.id = i.delivery_id
      RETURNING d.*),
    commit_mode AS (SELECT ${ASYNC_COMMIT})
    SELECT ${DELIVERY_COLUMNS} FROM settled CROSS JOIN commit_mode`);
}

/** Makes a delivery due now for one more attempt (manual retry), announced; null when a worker holds it. */
export async function makeDeliveryDue(
  database: Queryable,
  world: World,
  deliveryId: string,
): Promise<DeliveryRow | null> {
  return database.maybeOne(sql.type(deliveryRowSchema)`
    WITH due AS (
      UPDATE webhook_deliveries
      SET status = 'pending', next_attempt_at = now(), updated_at = now()
      WHERE merchant_id = ${world.merchantId} AND livemode = ${world.livemode} AND id = ${deliveryId}
        AND (lease_expires_at IS NULL OR lease_expires_at < now())
      RETURNING ${DELIVERY_COLUMNS})
    SELECT due.*, ${NOTIFY_DELIVERIES_DUE} AS announced FROM due`);
}
