/** Money is integer cents with a currency; the browser only formats it. */
export function formatMoney(amountCents: number, currency: string): string {
  const formatted = new Intl.NumberFormat("en", {
    style: "currency",
    currency,
    currencyDisplay: "code",
    minimumFractionDigits: 2,
  }).format(amountCents / 100);
  // Intl puts a no-break space between code and amount; keep it readable in tables.
  return formatted.replace(/\u00a0/g, " ");
}

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
