import type { FragmentSqlToken } from "slonik";
import type { Queryable, Transaction } from "../../platform/db/pool.ts";
import { notFound } from "../../platform/errors.ts";
import type { Page } from "../../platform/http/pagination.ts";
import { newId } from "../../platform/ids.ts";
import { currentTraceparent } from "../../platform/telemetry/trace-context.ts";
import { type EventType, TEST_EVENT_TYPE } from "./event-types.ts";
import * as queries from "./queries.ts";
import type { EventRow } from "./schemas.ts";

/**
 * Events tell a merchant what happened to its money, by polling (`GET /v1/events`) and by webhook.
 * `emit` records one inside the caller's transaction, beside the change it describes; the database
 * then creates its webhook deliveries and their jobs in that same transaction (see the webhooks module),
 * and the deliveries continue the emitting span's trace.
 */
export async function emit(transaction: Transaction, event: EventToEmit): Promise<EventRow> {
  return queries.insertEvent(transaction, rowOf(event));
}

/**
 * `emit` as a part of the statement that makes the changes the events describe (a common table
 * expression's insert, returning the events' `id`s): many events, recorded in the order given, each
 * only if `when(subject)` holds, `subject` being the SQL value of the text given beside it. The
 * events are made first (`prepareEvent`, in the request or pass that causes each: its id and
 * trace). Within a statement, a later CTE whose gate counts these events orders it after them.
 */
export function emitEachWhen(
  events: readonly { event: PreparedEvent; subject: string }[],
  when: (subject: FragmentSqlToken) => FragmentSqlToken,
): FragmentSqlToken {
  return queries.insertEventsWhen(events, when);
}

/** An event's row as `emit` would record it now (a fresh id, the current span's trace), for `emitEachWhen`. */
export function prepareEvent(event: EventToEmit): PreparedEvent {
  return rowOf(event);
}

export type PreparedEvent = ReturnType<typeof rowOf>;

type EventToEmit = { merchantId: string; livemode: boolean; type: EventType; data: Record<string, unknown> };

/** The row of an event recorded now: a fresh id, and the recording span's trace for its deliveries. */
const rowOf = (event: Omit<EventToEmit, "type"> & { type: EventRow["type"] }) => ({
  merchant_id: event.merchantId,
  id: newId("evt"),
  livemode: event.livemode,
  type: event.type,
  data: event.data,
  traceparent: currentTraceparent(),
});

/**
 * Records the test event of one webhook endpoint (see `TEST_EVENT_TYPE`): the database does not fan it
 * out, and the polling feed leaves it out. The caller creates its one delivery in the same transaction.
 */
export async function recordTestEvent(
  transaction: Transaction,
  event: { merchantId: string; livemode: boolean; data: Record<string, unknown> },
): Promise<EventRow> {
  return queries.insertEvent(transaction, rowOf({ ...event, type: TEST_EVENT_TYPE }));
}

export async function getEvent(
  database: Queryable,
  tenant: { merchantId: string; livemode: boolean },
  eventId: string,
): Promise<EventRow> {
  const event = await queries.selectEvent(database, tenant, eventId);
  if (event === null) {
    throw notFound(`No such event: ${eventId}.`);
  }
  return event;
}

/**
 * Events oldest first after `since` (an event id), or from the oldest retained one; only those of
 * `types` when given. Test events are never listed.
 */
export async function listEventsSince(
  database: Queryable,
  feed: {
    merchantId: string;
    livemode: boolean;
    since: string | undefined;
    types?: readonly EventType[] | undefined;
    /** Only events whose `data.payment_id` is this (a payment's timeline). */
    paymentId?: string | undefined;
    limit: number;
    /** Newest first, `since` then being the event to go on before (the dashboard's log). */
    newestFirst?: boolean | undefined;
  },
): Promise<Page<EventRow>> {
  const since = feed.since === undefined ? undefined : await getEvent(database, feed, feed.since);
  const rows = await queries.selectVisibleEventsAfter(database, {
    merchantId: feed.merchantId,
    livemode: feed.livemode,
    after: since === undefined ? undefined : { transactionXid: since.transaction_xid, seq: since.seq },
    types: feed.types,
    paymentId: feed.paymentId,
    limit: feed.limit + 1,
    newestFirst: feed.newestFirst,
  });
  const hasMore = rows.length > feed.limit;
  const data = hasMore ? rows.slice(0, feed.limit) : rows;
  // The cursor is the last event's id: the very value a poller passes as `since`.
  return { data: [...data], has_more: hasMore, next_cursor: hasMore ? (data.at(-1)?.id ?? null) : null };
}

export function presentEvent(event: EventRow) {
  return {
    id: event.id,
    type: event.type,
    livemode: event.livemode,
    created_at: event.created_at.toISOString(),
    data: event.data,
  };
}
