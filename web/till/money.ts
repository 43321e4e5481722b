/** Amounts typed at the till ("13", "13.5", "13.50") as integer cents; undefined when not an amount. */
export function parseAmountCents(text: string): number | undefined {
  const cleaned = text.replace(/[\s,]/g, "");
  const match = /^(\d{1,9})(?:\.(\d{0,2}))?$/.exec(cleaned);
  if (match === null || match[1] === undefined) return undefined;
  return Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
}

/** The notes in circulation, in cents, smallest first. */
const NOTES_CENTS: Record<string, readonly number[]> = {
  USD: [100, 200, 500, 1000, 2000, 5000, 10_000],
  ZWG: [1000, 2000, 5000, 10_000, 20_000],
};

/**
 * What customers typically hand over for a total: the next whole amounts a note can make, above the
 * total (for 13.40: 14, 15, 20, 50). At most `count`, smallest first.
 */
export function quickTenders(totalCents: number, currency: string, count = 4): number[] {
  const notes = NOTES_CENTS[currency] ?? NOTES_CENTS.USD ?? [];
  const amounts = new Set<number>();
  for (const note of notes) {
    const amount = Math.ceil(totalCents / note) * note;
    if (amount > totalCents) amounts.add(amount);
  }
  return [...amounts].sort((a, b) => a - b).slice(0, count);
}
