import type { Config } from "../../platform/config.ts";
import type { DeliveryStore } from "./delivery-store.ts";
import { associatedDataOf, keyringOf } from "./endpoint-secret.ts";
import {
  webhookAttemptDurationSeconds,
  webhookAttemptsTotal,
  webhookDeadDeliveriesTotal,
  webhookSecretUnopenableTotal,
} from "./metrics.ts";
import type { AttemptOutcome } from "./post-webhook.ts";
import type * as queries from "./queries.ts";
import type { DeliveryRow, DeliveryStatus } from "./schemas.ts";
import { openSecret } from "./secret-box.ts";
import { signatureHeader } from "./signature.ts";
import { privateTargetsAllowed } from "./target-guard.ts";

/** How long a delivery whose endpoint secret does not decrypt waits before it is tried again. */
const SECRET_UNOPENABLE_RETRY_MS = 60_000;

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

type Claimed = queries.ClaimedDelivery;

/** The lease of a claimed attempt: its own deadline with room to record it, so it lapses only when the worker is gone. */
export const attemptLeaseMs = (config: Pick<Config, "webhook">) => 2 * config.webhook.timeoutMs + 1000;

/**
 * Claims up to `limit` due deliveries (of one merchant, or of all when `merchantId` is null) with
 * their attempts' leases, in one statement (`DeliveryStore.claimDue`); each is then `attemptDelivery`'s.
 */
export function claimDueDeliveries(
  dependencies: Pick<DeliveryDependencies, "store" | "config">,
  claim: { limit: number; merchantId: string | null },
): Promise<readonly Claimed[]> {
  return dependencies.store.claimDue({ ...claim, leaseMs: attemptLeaseMs(dependencies.config) });
}

/**
 * One attempt of a claimed delivery (its attempt counted and leased by the claim): post the signed
 * event outside any transaction, then record the attempt and settle the delivery in one statement
 * (a failure's next attempt is the delivery's `next_attempt_at`, where the claim finds it).
 */
export async function attemptDelivery(
  dependencies: DeliveryDependencies,
  claimed: Claimed,
): Promise<DeliveryRow | null> {
  const { store, config } = dependencies;
  if (!claimed.endpoint_active) {
    return recordWithoutAttempt(store, claimed, { status: "canceled", nextAttemptInMs: null });
  }
  const body = eventBodyOf(claimed);
  const secrets = await openSigningSecrets(dependencies, claimed);
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
  return settleAttempt(dependencies, claimed, { startedAt, outcome });
}

const deliveryOf = (claimed: Claimed) => ({ merchantId: claimed.merchant_id, deliveryId: claimed.id });

/** Settles the delivery with no attempt made: canceled, or its attempt given back while it waits. */
const recordWithoutAttempt = (
  store: DeliveryStore,
  claimed: Claimed,
  outcome: Pick<queries.AttemptRecord, "status" | "nextAttemptInMs" | "attemptReturned">,
) => store.record({ ...deliveryOf(claimed), attempt: null, attemptNumber: claimed.attempt_count, ...outcome });

/** The event as receivers get it (and as its signature covers it). */
function eventBodyOf(claimed: Claimed): string {
  return JSON.stringify({
    id: claimed.event_id,
    type: claimed.event_type,
    livemode: claimed.livemode,
    created_at: claimed.event_created_at.toISOString(),
    data: claimed.event_data,
  });
}

/**
 * The endpoint's signing secrets, opened. When they do not open, the attempt is given back and the
 * delivery waits, and the error says so.
 */
async function openSigningSecrets(
  dependencies: DeliveryDependencies,
  claimed: Claimed,
): Promise<[string, ...string[]]> {
  const { config, store } = dependencies;
  const associatedData = associatedDataOf({ merchant_id: claimed.merchant_id, id: claimed.endpoint_id });
  try {
    const secret = openSecret(keyringOf(config), claimed.secret_ciphertext, associatedData);
    // During a roll's overlap the previous secret signs too, so receivers still holding it accept.
    return claimed.previous_secret_ciphertext === null
      ? [secret]
      : [secret, openSecret(keyringOf(config), claimed.previous_secret_ciphertext, associatedData)];
  } catch (error) {
    // Our keys, not the receiver: nothing is sent, the attempt is given back, and the delivery waits
    // for the operator to configure the key it was sealed under (or the merchant to roll the secret).
    await recordWithoutAttempt(store, claimed, {
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
}

/**
 * Records the attempt and the delivery's new state in one statement: succeeded on a 2xx, else pending
 * until the retry schedule runs out, then dead.
 */
async function settleAttempt(
  dependencies: DeliveryDependencies,
  claimed: Claimed,
  attempt: { startedAt: Date; outcome: AttemptOutcome },
): Promise<DeliveryRow | null> {
  const { store, config } = dependencies;
  const { startedAt, outcome } = attempt;
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
  const settled = await store.record({
    ...deliveryOf(claimed),
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
