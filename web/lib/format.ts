/**
 * Dates and times as the apps show them. Money is formatted by the kernel's `formatMoney(currency,
 * cents)` (src/kernel/money.ts), the same function the server uses, so a figure reads alike everywhere.
 */

const dateTime = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short" });
const dayFormat = new Intl.DateTimeFormat("en-GB", { weekday: "short", day: "numeric" });

export function formatDateTime(iso: string | null | undefined): string {
  return iso === null || iso === undefined ? "—" : dateTime.format(new Date(iso));
}

export function formatDay(date: Date): string {
  return dayFormat.format(date);
}

/** "3 min ago", "2 h ago", or the date for anything older than a day. */
export function formatRelative(iso: string, now: number = Date.now()): string {
  const seconds = Math.round((now - new Date(iso).getTime()) / 1000);
  if (seconds < 60) return "just now";
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h ago`;
  return formatDateTime(iso);
}

/** The local midnight `days` days before today's. */
export function startOfDay(daysAgo: number, now: Date = new Date()): Date {
  const day = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  day.setDate(day.getDate() - daysAgo);
  return day;
}

/** A date input's day (yyyy-mm-dd, a local day) as the instant it starts; undefined when empty. */
export function localDayStart(day: string): string | undefined {
  return day === "" ? undefined : new Date(`${day}T00:00:00`).toISOString();
}

/** A date input's day as the instant it ends (the next day's start): a `to` that includes its day. */
export function localDayEnd(day: string): string | undefined {
  if (day === "") return undefined;
  const end = new Date(`${day}T00:00:00`);
  end.setDate(end.getDate() + 1);
  return end.toISOString();
}

/** A date as a date input's value (yyyy-mm-dd, local). */
export function dateInputValue(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** An instant as a datetime-local input's value (yyyy-mm-ddThh:mm, local). */
export function dateTimeInputValue(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${dateInputValue(date)}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/**
 * An amount typed in major units ("12.5", "1200.00") as integer cents; undefined unless it is a
 * positive amount with at most two decimals. Parsed from the digits, never through a float.
 */
export function centsFromMajorUnits(text: string): number | undefined {
  const match = /^(\d{1,10})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (match === null) return undefined;
  const cents = Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
  return cents > 0 ? cents : undefined;
}
