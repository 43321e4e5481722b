import { z } from "zod";
import { invalidRequest } from "../errors.ts";
import { refuseUnsafeValues } from "./request-strings.ts";

/**
 * Keyset pagination shared by every list endpoint: responses are `{data, has_more, next_cursor}`, and
 * `next_cursor` is an opaque token naming the last item returned (its sort key), so a page never shifts
 * when rows are added meanwhile.
 */

export type Page<T> = { data: T[]; has_more: boolean; next_cursor: string | null };

/** `limit`: an integer from 1 to `max`, `fallback` when absent. */
export function limitSchema(options: { max: number; fallback: number }) {
  return z.coerce
    .number()
    .int()
    .min(1)
    .max(options.max)
    .default(options.fallback)
    .meta({ description: `Page size, 1 to ${options.max} (default ${options.fallback}).` });
}

/** `cursor`: the `next_cursor` of the previous page. Decoded by `decodeCursor`. */
export const cursorSchema = z
  .string()
  .max(200)
  .optional()
  .meta({ description: "The next_cursor of the previous page." });

/**
 * The instants a time filter may name: years 0001 to 9999 in UTC. PostgreSQL has no year 0
 * (`0000-01-01` is "out of range"), and `9999-12-31T23:00:00-14:00` is year 10000 in UTC, which
 * `Date#toISOString` writes as `+010000-…`, a string PostgreSQL refuses: both were 500s.
 */
const TIMESTAMP_MIN_MS = Date.parse("0001-01-01T00:00:00.000Z");
const TIMESTAMP_MAX_MS = Date.parse("9999-12-31T23:59:59.999Z");
const isStorableInstant = (ms: number) => ms >= TIMESTAMP_MIN_MS && ms <= TIMESTAMP_MAX_MS;

/** An ISO 8601 date-time with offset, or a date (midnight UTC), as a `Date`, within years 0001–9999 UTC. */
export const timestampQuerySchema = z
  .union([z.iso.datetime({ offset: true }), z.iso.date()])
  .transform((value) => new Date(value))
  .refine((instant) => isStorableInstant(instant.getTime()), "expected an instant from 0001-01-01 to 9999-12-31 (UTC)")
  .meta({ description: "ISO 8601 date-time with offset, or a date (midnight UTC); years 0001 to 9999 (UTC)." });

export function encodeCursor(key: readonly (string | number)[]): string {
  return Buffer.from(JSON.stringify(key)).toString("base64url");
}

/** Decodes a cursor into its sort key; a malformed or foreign cursor is a 400, never a 500. */
export function decodeCursor<S extends z.ZodType>(cursor: string, keySchema: S): z.output<S> {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    // A forged cursor's strings reach SQL as sort keys: they follow the request string rule too.
    refuseUnsafeValues(decoded, "cursor");
  } catch {
    throw invalidRequest("parameter_invalid", "cursor: not a cursor returned by this list.");
  }
  const parsed = keySchema.safeParse(decoded);
  if (!parsed.success) {
    throw invalidRequest("parameter_invalid", "cursor: not a cursor returned by this list.");
  }
  return parsed.data;
}

const createdAtCursor = z.tuple([z.iso.datetime().refine((text) => isStorableInstant(Date.parse(text))), z.string()]);

/** The usual keyset of newest-first lists: (created_at, id), decoded from a cursor, or undefined. */
export function decodeCreatedAtCursor(cursor: string | undefined): { createdAt: string; id: string } | undefined {
  if (cursor === undefined) {
    return undefined;
  }
  const [createdAt, id] = decodeCursor(cursor, createdAtCursor);
  return { createdAt, id };
}

/** The (created_at, id) sort key of a row, as `decodeCreatedAtCursor` reads it back. */
export const createdAtKey = (row: { created_at: Date; id: string }) => [row.created_at.toISOString(), row.id];

/**
 * Builds a page from rows fetched with `limit + 1`: the extra row only says there is more.
 * `keyOf` gives a row's sort key, which the next page's query starts after.
 */
export function toPage<Row, Item>(
  rows: readonly Row[],
  options: { limit: number; keyOf: (row: Row) => readonly (string | number)[]; present: (row: Row) => Item },
): Page<Item> {
  const hasMore = rows.length > options.limit;
  const pageRows = hasMore ? rows.slice(0, options.limit) : rows;
  const last = pageRows.at(-1);
  return {
    data: pageRows.map(options.present),
    has_more: hasMore,
    next_cursor: hasMore && last !== undefined ? encodeCursor(options.keyOf(last)) : null,
  };
}

/**
 * A newest-first page by (created_at, id), rows as they are: `select` fetches the rows after the
 * cursor's key (none: from the newest), `limit` of them plus the one that says there is more.
 */
export async function newestFirstPage<Row extends { created_at: Date; id: string }>(
  request: { cursor: string | undefined; limit: number },
  select: (keyset: { after: { createdAt: string; id: string } | undefined; limit: number }) => Promise<readonly Row[]>,
): Promise<Page<Row>> {
  const rows = await select({ after: decodeCreatedAtCursor(request.cursor), limit: request.limit + 1 });
  return toPage(rows, { limit: request.limit, keyOf: createdAtKey, present: (row) => row });
}

/** The zod schema of a page of `item`s, for the OpenAPI document. */
export function pageSchema<S extends z.ZodType>(item: S) {
  return z.object({ data: z.array(item), has_more: z.boolean(), next_cursor: z.string().nullable() });
}
