import { dateInputValue } from "../../../../lib/format.ts";

/**
 * A report's period as the owner picks it: days, `to` included. The API takes dates as days in the
 * merchant's time zone and its `to` excluded, so `to` goes out as the day after.
 */
export type Period = { from: string; to: string };

const dayAfter = (day: string) => {
  const date = new Date(`${day}T00:00:00`);
  date.setDate(date.getDate() + 1);
  return dateInputValue(date);
};

export const periodQuery = (period: Period) => ({ from: period.from, to: dayAfter(period.to) });

/** The presets: today, this week (from Monday), this month, each up to today. */
export function presetPeriod(preset: "today" | "week" | "month", now: Date = new Date()): Period {
  const today = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  const start = new Date(today);
  if (preset === "week") {
    start.setDate(start.getDate() - ((start.getDay() + 6) % 7));
  } else if (preset === "month") {
    start.setDate(1);
  }
  return { from: dateInputValue(start), to: dateInputValue(today) };
}
