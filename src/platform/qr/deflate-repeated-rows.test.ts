import { inflateSync } from "node:zlib";
import { deflateRepeatedRows, type RepeatedRowsImage, rowBytesOf } from "./deflate-repeated-rows.ts";

/** The PNG scanlines the image stands for: each run's row, filter byte 0 first, repeated. */
function scanlinesOf(image: RepeatedRowsImage): Buffer {
  const rowBytes = rowBytesOf(image.widthPx);
  const parts: Buffer[] = [];
  for (const run of image.runs) {
    const row = Buffer.from(image.rows.subarray(run.row * rowBytes, (run.row + 1) * rowBytes));
    for (let repeat = 0; repeat < run.count; repeat += 1) {
      parts.push(Buffer.from([0]), row);
    }
  }
  return Buffer.concat(parts);
}

/** A small deterministic generator, so a failure reproduces. */
function bytesFrom(seed: number, length: number): Uint8Array {
  let state = seed;
  return Uint8Array.from({ length }, () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state >>> 16;
  });
}

describe("deflateRepeatedRows", () => {
  test.each([
    ["QR-like: 14-byte rows, quiet zone and module rows repeated 4 times", 108, [4, 4, 4, 4, 4, 4]],
    ["rows of one byte of pixels (scanlines too short for one match)", 5, [2, 1, 3, 7]],
    ["one pixel wide, single rows", 1, [1, 1, 1]],
    ["runs longer than one match (258 bytes)", 800, [1, 40, 3]],
    ["wide rows", 4_000, [2, 5]],
  ])("%s inflate back to their scanlines", (_name, widthPx, counts) => {
    const rowBytes = rowBytesOf(widthPx);
    const rows = bytesFrom(widthPx, rowBytes * counts.length);
    const image: RepeatedRowsImage = {
      widthPx,
      rows,
      runs: counts.map((count, row) => ({ row: counts.length - 1 - row, count })),
    };
    // inflateSync checks the Huffman codes' completeness, every distance, and the Adler-32.
    expect(inflateSync(deflateRepeatedRows(image)).equals(scanlinesOf(image))).toBe(true);
  });

  test("repeated rows cost a match, not their bytes", () => {
    const rows = Uint8Array.from([0xff, 0x0f, 0xf0, 0x00, 0xff, 0xff, 0x00, 0x0f, 0xf0, 0xff, 0x00, 0xff, 0x0f, 0xf0]);
    const once = deflateRepeatedRows({ widthPx: 108, rows, runs: [{ row: 0, count: 1 }] }).length;
    const fourTimes = deflateRepeatedRows({ widthPx: 108, rows, runs: [{ row: 0, count: 4 }] }).length;
    expect(fourTimes - once).toBeLessThanOrEqual(2);
  });

  test("refuses rows wider than deflate's window", () => {
    expect(() =>
      deflateRepeatedRows({ widthPx: 8 * 40_000, rows: new Uint8Array(40_000), runs: [{ row: 0, count: 1 }] }),
    ).toThrow(RangeError);
  });
});
