import type { FragmentSqlToken } from "slonik";
import { type Queryable, sql, type Transaction } from "../../platform/db/pool.ts";
import { TEST_EVENT_TYPE } from "./event-types.ts";
import { type EventRow, eventRowSchema } from "./schemas.ts";

const EVENT_COLUMNS = sql.fragment`merchant_id, id, livemode, type, data, created_at, transaction_xid::text AS transaction_xid, seq`;

type EventToInsert = Pick<EventRow, "merchant_id" | "id" | "livemode" | "type" | "data"> & {
  traceparent: string | null;
};

/** Inserts an event; the database fans it out to matching webhook endpoints in the same transaction. */
export async function insertEvent(transaction: Transaction, event: EventToInsert): Promise<EventRow> {
  return transaction.one(sql.type(eventRowSchema)`
    INSERT INTO events (merchant_id, id, livemode, type, data, traceparent)
    VALUES (${event.merchant_id}, ${event.id}, ${event.livemode}, ${event.type}, ${sql.jsonb(event.data as never)},
      ${event.traceparent})
    RETURNING ${EVENT_COLUMNS}`);
}

/**
 * The insert of many events, in the order given, each only if `when(subject)` holds for it
 * (`subject`: the SQL value of the text given beside the event, e.g. the id of the row it describes),
 * returning their `id`s: for a statement that writes many changes, each deciding its own event.
 * Fanned out as any event. Its SQL text is the same whatever the events (they are bound as arrays).
 */
export function insertEventsWhen(
  events: readonly { event: EventToInsert; subject: string }[],
  when: (subject: FragmentSqlToken) => FragmentSqlToken,
): FragmentSqlToken {
  const text = (pick: (row: { event: EventToInsert; subject: string }) => string | null) =>
    sql.array(events.map(pick), "text");
  return sql.fragment`
    INSERT INTO events (merchant_id, id, livemode, type, data, traceparent)
    SELECT e.merchant_id, e.id, e.livemode, e.type, e.data::jsonb, e.traceparent
    FROM unnest(
      ${text((row) => row.event.merchant_id)}::text[], ${text((row) => row.event.id)}::text[],
      ${sql.array(
        events.map((row) => row.event.livemode),
        "bool",
      )}::bool[], ${text((row) => row.event.type)}::text[], ${text((row) => JSON.stringify(row.event.data))}::text[],
      ${text((row) => row.event.traceparent)}::text[], ${text((row) => row.subject)}::text[])
      WITH ORDINALITY AS e (merchant_id, id, livemode, type, data, traceparent, subject, position)
    WHERE ${when(sql.fragment`e.subject`)}
    ORDER BY e.position
    RETURNING id`;
}

export async function selectEvent(
  database: Queryable,
  tenant: { merchantId: string; livemode: boolean },
  eventId: string,
): Promise<EventRow | null> {
  return database.maybeOne(sql.type(eventRowSchema)`
    SELECT ${EVENT_COLUMNS} FROM events
    WHERE merchant_id = ${tenant.merchantId} AND livemode = ${tenant.livemode} AND id = ${eventId}`);
}

/**
 * The feed: events in (transaction_xid, seq) order after a position, limited to those whose
 * transaction id is below the oldest transaction still running. Any transaction that could still
 * commit an event has an id at or above that horizon, and so sorts after every event returned: a
 * poller that resumes after the last event it saw can never skip one, whatever the commit order.
 * A type or payment filter only leaves rows out, so it keeps that order; test events are never in the feed.
 * The order names the table's columns: a bare `transaction_xid` would be the selected text (the
 * row's `::text AS transaction_xid`), which sorts "1000" before "999" and so moves the resume point
 * past events not yet returned.
 */
export async function selectVisibleEventsAfter(
  database: Queryable,
  feed: {
    merchantId: string;
    livemode: boolean;
    after: { transactionXid: string; seq: number } | undefined;
    types: readonly string[] | undefined;
    paymentId?: string | undefined;
    limit: number;
    /** Newest first (a person reading the log): `after` is then the position to go on before. */
    newestFirst?: boolean | undefined;
  },
): Promise<readonly EventRow[]> {
  const newest = feed.newestFirst === true;
  const types =
    feed.types === undefined
      ? sql.fragment`AND type <> ${TEST_EVENT_TYPE}`
      : sql.fragment`AND type = ANY(${sql.array(feed.types, "text")})`;
  const after =
    feed.after === undefined
      ? sql.fragment``
      : newest
        ? sql.fragment`AND (transaction_xid, seq) < (${feed.after.transactionXid}::xid8, ${feed.after.seq}::bigint)`
        : sql.fragment`AND (transaction_xid, seq) > (${feed.after.transactionXid}::xid8, ${feed.after.seq}::bigint)`;
  const payment =
    feed.paymentId === undefined ? sql.fragment`` : sql.fragment`AND data->>'payment_id' = ${feed.paymentId}`;
  return database.any(sql.type(eventRowSchema)`
    SELECT ${EVENT_COLUMNS} FROM events
    WHERE merchant_id = ${feed.merchantId} AND livemode = ${feed.livemode}
      AND transaction_xid < pg_snapshot_xmin(pg_current_snapshot())
      ${types} ${payment} ${after}
    ${newest ? sql.fragment`ORDER BY events.transaction_xid DESC, events.seq DESC` : sql.fragment`ORDER BY events.transaction_xid, events.seq`}
    LIMIT ${feed.limit}`);
}
