import { z } from "zod";
import { type Queryable, sql, type Transaction } from "../../platform/db/pool.ts";
import {
  type AttemptRow,
  attemptRowSchema,
  type DeliveryRow,
  type DeliveryStatus,
  deliveryRowSchema,
  type EndpointRow,
  endpointRowSchema,
} from "./schemas.ts";

type World = { merchantId: string; livemode: boolean };

const ENDPOINT_COLUMNS = sql.fragment`merchant_id, id, livemode, url, event_types, secret_ciphertext, secret_last4, active, created_at, deactivated_at`;
const DELIVERY_COLUMNS = sql.fragment`merchant_id, id, livemode, endpoint_id, event_id, event_type, status, attempt_count,
  next_attempt_at, lease_expires_at, delivered_at, created_at, updated_at`;

export async function insertEndpoint(
  transaction: Transaction,
  endpoint: Omit<EndpointRow, "active" | "created_at" | "deactivated_at">,
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
  const after =
    world.after === undefined
      ? sql.fragment``
      : sql.fragment`AND (created_at, id) < (${world.after.createdAt}::timestamptz, ${world.after.id})`;
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

/** An endpoint's deliveries, newest first, after the (created_at, id) of the previous page's last one. */
export async function selectDeliveries(
  database: Queryable,
  filter: World & {
    endpointId: string;
    status: DeliveryStatus | undefined;
    after: { createdAt: string; id: string } | undefined;
    limit: number;
  },
): Promise<readonly DeliveryRow[]> {
  const status = filter.status === undefined ? sql.fragment`` : sql.fragment`AND status = ${filter.status}`;
  const after =
    filter.after === undefined
      ? sql.fragment``
      : sql.fragment`AND (created_at, id) < (${filter.after.createdAt}::timestamptz, ${filter.after.id})`;
  return database.any(sql.type(deliveryRowSchema)`
    SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries
    WHERE merchant_id = ${filter.merchantId} AND livemode = ${filter.livemode} AND endpoint_id = ${filter.endpointId}
      ${status} ${after}
    ORDER BY created_at DESC, id DESC
    LIMIT ${filter.limit}`);
}

const attemptsOfDeliverySchema = attemptRowSchema.extend({ delivery_id: z.string() });

export async function selectAttempts(
  database: Queryable,
  merchantId: string,
  deliveryIds: readonly string[],
): Promise<readonly (AttemptRow & { delivery_id: string })[]> {
  return database.any(sql.type(attemptsOfDeliverySchema)`
    SELECT delivery_id, attempt, started_at, duration_ms, response_status, error, succeeded
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
  endpoint_active: z.boolean(),
  event_id: z.string(),
  event_type: z.string(),
  event_data: z.record(z.string(), z.unknown()),
  event_created_at: z.date(),
});
export type ClaimedDelivery = z.infer<typeof claimedDeliverySchema>;

/**
 * Claims the next attempt of a due, pending delivery that no live worker holds: counts the attempt
 * and takes a lease on it. Null when there is nothing to do (already delivered, not due, or held).
 * Prepared: it runs once per attempt.
 */
export async function claimDelivery(
  database: Queryable,
  delivery: { merchantId: string; deliveryId: string; leaseMs: number },
): Promise<ClaimedDelivery | null> {
  return database.maybeOne(sql.prepared("webhook_claim_delivery", claimedDeliverySchema)`
    UPDATE webhook_deliveries d
    SET attempt_count = d.attempt_count + 1,
      lease_expires_at = now() + ${delivery.leaseMs} * interval '1 millisecond',
      updated_at = now()
    FROM webhook_endpoints e, events ev
    WHERE d.merchant_id = ${delivery.merchantId} AND d.id = ${delivery.deliveryId}
      AND d.status = 'pending' AND d.next_attempt_at <= now()
      AND (d.lease_expires_at IS NULL OR d.lease_expires_at < now())
      AND e.merchant_id = d.merchant_id AND e.id = d.endpoint_id
      AND ev.merchant_id = d.merchant_id AND ev.id = d.event_id
    RETURNING d.merchant_id, d.id, d.livemode, d.endpoint_id, d.attempt_count, e.url, e.secret_ciphertext,
      e.active AS endpoint_active, ev.id AS event_id, ev.type AS event_type, ev.data AS event_data,
      ev.created_at AS event_created_at`);
}

/**
 * Records an attempt and settles the delivery in one statement: `succeeded`, `dead`, `canceled`, or
 * back to `pending` with the next attempt's time and its job. Guarded by the attempt number, so an
 * attempt whose lease lapsed and was taken over cannot overwrite the newer one (null then).
 */
export async function recordAttempt(
  database: Queryable,
  record: {
    merchantId: string;
    deliveryId: string;
    attempt: AttemptRow | null;
    attemptNumber: number;
    status: DeliveryStatus;
    nextAttemptInMs: number | null;
    job: { task: string; maxAttempts: number; traceparent: string | null };
  },
): Promise<DeliveryRow | null> {
  const nextAttemptAt =
    record.nextAttemptInMs === null
      ? sql.fragment`NULL`
      : sql.fragment`now() + ${record.nextAttemptInMs} * interval '1 millisecond'`;
  const attempt = record.attempt;
  const insertAttempt =
    attempt === null
      ? sql.fragment`SELECT 1`
      : sql.fragment`INSERT INTO webhook_delivery_attempts
          (merchant_id, delivery_id, attempt, started_at, duration_ms, response_status, error, succeeded)
        VALUES (${record.merchantId}, ${record.deliveryId}, ${record.attemptNumber}, ${attempt.started_at.toISOString()}::timestamptz,
          ${attempt.duration_ms}, ${attempt.response_status}, ${attempt.error}, ${attempt.succeeded})
        ON CONFLICT DO NOTHING`;
  // Prepared (one name per shape of the statement): it runs once per attempt, and planning it costs
  // more than running it.
  const statementName = `webhook_record_attempt_${attempt === null ? "none" : "one"}_${record.nextAttemptInMs === null ? "final" : "again"}`;
  return database.maybeOne(sql.prepared(statementName, deliveryRowSchema)`
    WITH recorded AS (${insertAttempt}),
    settled AS (
      UPDATE webhook_deliveries
      SET status = ${record.status}, next_attempt_at = ${nextAttemptAt}, lease_expires_at = NULL,
        delivered_at = CASE WHEN ${record.status} = 'succeeded' THEN now() ELSE delivered_at END,
        updated_at = now()
      WHERE merchant_id = ${record.merchantId} AND id = ${record.deliveryId}
        AND status = 'pending' AND attempt_count = ${record.attemptNumber}
      RETURNING ${DELIVERY_COLUMNS}),
    next_job AS (
      SELECT graphile_worker.add_job(${record.job.task},
          payload => json_strip_nulls(json_build_object('merchant_id', merchant_id, 'delivery_id', id,
            'traceparent', ${record.job.traceparent}::text)),
          run_at => next_attempt_at, max_attempts => ${record.job.maxAttempts}, job_key => 'webhook_delivery:' || id)
      FROM settled WHERE status = 'pending')
    SELECT ${DELIVERY_COLUMNS} FROM settled
    WHERE (SELECT count(*) FROM next_job) >= 0`);
}

/** Makes a delivery due now for one more attempt (manual retry); null when a worker holds it. */
export async function makeDeliveryDue(
  database: Queryable,
  world: World,
  deliveryId: string,
): Promise<DeliveryRow | null> {
  return database.maybeOne(sql.type(deliveryRowSchema)`
    UPDATE webhook_deliveries
    SET status = 'pending', next_attempt_at = now(), updated_at = now()
    WHERE merchant_id = ${world.merchantId} AND livemode = ${world.livemode} AND id = ${deliveryId}
      AND (lease_expires_at IS NULL OR lease_expires_at < now())
    RETURNING ${DELIVERY_COLUMNS}`);
}

/** Pending deliveries overdue by more than `overdueMs` that no worker holds: their job was lost. */
export async function selectStalledDeliveries(
  database: Queryable,
  options: { overdueMs: number; limit: number },
): Promise<readonly { merchant_id: string; id: string }[]> {
  return database.any(sql.type(z.object({ merchant_id: z.string(), id: z.string() }))`
    SELECT merchant_id, id FROM webhook_deliveries
    WHERE status = 'pending' AND next_attempt_at < now() - ${options.overdueMs} * interval '1 millisecond'
      AND (lease_expires_at IS NULL OR lease_expires_at < now())
    ORDER BY next_attempt_at
    LIMIT ${options.limit}`);
}

const sealedSecretSchema = z.object({
  merchant_id: z.string(),
  id: z.string(),
  secret_ciphertext: z.instanceof(Buffer),
});

/** Every endpoint's sealed secret, in key order after `after`: for re-encryption under a new key. */
export async function selectSealedSecrets(
  database: Queryable,
  options: { after: { merchantId: string; id: string } | undefined; limit: number },
): Promise<readonly z.infer<typeof sealedSecretSchema>[]> {
  const after =
    options.after === undefined
      ? sql.fragment``
      : sql.fragment`WHERE (merchant_id, id) > (${options.after.merchantId}, ${options.after.id})`;
  return database.any(sql.type(sealedSecretSchema)`
    SELECT merchant_id, id, secret_ciphertext FROM webhook_endpoints ${after}
    ORDER BY merchant_id, id
    LIMIT ${options.limit}`);
}

export async function updateSealedSecret(
  database: Queryable,
  endpoint: { merchantId: string; id: string; sealed: Buffer },
): Promise<void> {
  await database.query(sql.unsafe`
    UPDATE webhook_endpoints SET secret_ciphertext = ${sql.binary(endpoint.sealed)}
    WHERE merchant_id = ${endpoint.merchantId} AND id = ${endpoint.id}`);
}
