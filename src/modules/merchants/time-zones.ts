import type { Queryable } from "../../platform/db/pool.ts";
import { invalidRequest } from "../../platform/errors.ts";
import * as queries from "./queries.ts";

/**
 * A merchant's time zone is read on two sides: Node's Intl draws receipt times, PostgreSQL's
 * `AT TIME ZONE` computes the report's "today". A name is accepted only when both read it alike.
 */
export const TIME_ZONE_REFUSAL = "expected an IANA time zone name such as Africa/Harare (no offsets, no legacy names)";

/** The name resolves to an offset ("+01:00"): PostgreSQL reads those as POSIX, with the opposite sign. */
const OFFSET = /^[+-]/;

/** Intl knows the name as a zone, not as a bare offset (the synchronous half of the check). */
export function isNamedIntlTimeZone(name: string): boolean {
  try {
    return !OFFSET.test(new Intl.DateTimeFormat("en", { timeZone: name }).resolvedOptions().timeZone);
  } catch {
    return false;
  }
}

/**
 * The database's half, asked at request time: setting a time zone is a rare operator action, and
 * a cached list could outlive the tz database of a PostgreSQL upgraded under a running API. The
 * name must be one of this PostgreSQL's `pg_timezone_names` (Intl also knows names such as
 * US/Pacific-New that PostgreSQL's tz database has dropped). PostgreSQL 15's `AT TIME ZONE` reads
 * a name that is also an abbreviation (`pg_timezone_abbrevs`) as that abbreviation's fixed offset,
 * so such a name (CET, WET…) is accepted only when the zone keeps that offset in January and July.
 */
export async function assertDatabaseReadsTimeZoneAlike(database: Queryable, name: string): Promise<void> {
  const reading = await queries.selectTimeZoneReading(database, name);
  const alike =
    reading.known &&
    (reading.abbreviation_offset_seconds === null ||
      offsetsThisYear(name).every((offset) => offset === reading.abbreviation_offset_seconds));
  if (!alike) {
    throw invalidRequest("parameter_invalid", `timezone: ${TIME_ZONE_REFUSAL}`);
  }
}

/** The zone's UTC offset in seconds, per Intl, in mid-January and mid-July of this year. */
function offsetsThisYear(name: string): number[] {
  const format = new Intl.DateTimeFormat("en", { timeZone: name, timeZoneName: "longOffset" });
  const year = new Date().getUTCFullYear();
  return [0, 6].map((month) => {
    const text = format.formatToParts(Date.UTC(year, month, 15)).find((part) => part.type === "timeZoneName")?.value;
    const match = /^GMT(?:([+-])(\d{2}):(\d{2}))?$/.exec(text ?? "");
    if (match === null) {
      throw new Error(`Intl gave an unexpected offset for ${name}: ${text}`);
    }
    const [, sign, hours, minutes] = match;
    return sign === undefined ? 0 : (sign === "-" ? -1 : 1) * (Number(hours) * 3600 + Number(minutes) * 60);
  });
}
