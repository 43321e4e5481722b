/**
 * A tax rate as the owner types it (a percent, "15.5") and as the API keeps it (basis points, 1550),
 * converted exactly from the digits, never through a float (15.5 × 100 would do, 14.35 × 100 would not).
 */

const PERCENT = /^(\d{1,3})(?:\.(\d{1,2}))?$/;
const MAX_BASIS_POINTS = 10_000;

/** "15.5" → 1550; undefined for anything but a percent from 0 to 100 with at most 2 decimals. */
export function basisPointsOf(percent: string): number | undefined {
  const match = PERCENT.exec(percent.trim().replace(/\s*%$/, ""));
  if (match === null) return undefined;
  const basisPoints = Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
  return basisPoints <= MAX_BASIS_POINTS ? basisPoints : undefined;
}

/** 1550 → "15.5": the percent as people write it (no trailing zeros). */
export function percentOf(basisPoints: number): string {
  const fraction = String(basisPoints % 100)
    .padStart(2, "0")
    .replace(/0+$/, "");
  const whole = String(Math.floor(basisPoints / 100));
  return fraction === "" ? whole : `${whole}.${fraction}`;
}
