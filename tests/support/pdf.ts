/** A PDF's first page size in PostScript points, from its MediaBox (what a print stylesheet's @page made). */
export function pageSizePoints(pdf: Buffer): [number, number] {
  const match = /\/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\s*\]/.exec(pdf.toString("latin1"));
  if (match === null) {
    throw new Error("no MediaBox in the PDF");
  }
  return [Number(match[1]), Number(match[2])];
}

/** One millimetre in PostScript points. */
export const MM_IN_POINTS = 72 / 25.4;
