/**
 * zlib streams (RFC 1950, 1951) of the PNG scanlines of images made of repeated rows: the QR code of
 * every payment and withdrawal code, drawn on the request path.
 *
 * Node's `deflateSync` was most of the CPU of a payment code's drawing (docs/performance.md, "QR
 * codes"): it searches a general LZ77 window and builds Huffman tables for data with little to find. A QR image
 * is a few distinct rows (one per module row, each repeated for the module's height) of the same few
 * bytes (a 4-pixel module is half a byte: 0x00, 0x0F, 0xF0, 0xFF). So the stream is one block whose
 * Huffman codes are fixed here for such images (2–3 bits for those bytes and for the match that
 * repeats a row, 10–11 bits for any other symbol); each run's first scanline goes as literals and
 * its repeats as matches one scanline back. Any inflater reads it; other images stay valid, only less
 * compressed, and the image is a little larger than zlib's best.
 */

const MATCH_LENGTH_MIN = 3;
const MATCH_LENGTH_MAX = 258;
const END_OF_BLOCK = 256;
const LITERAL_LENGTH_SYMBOLS = 286;
const DISTANCE_SYMBOLS = 30;
/** How far back a match may reach: the 32 KiB window the zlib header announces. */
const MATCH_DISTANCE_MAX = 32_768;
const ADLER_MODULUS = 65_521;

// RFC 1951 §3.2.5: base value and extra bits of each length symbol (257…285) and distance code.
const LENGTH_BASES = [
  3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258,
];
const LENGTH_EXTRA_BITS = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
const DISTANCE_BASES = [
  1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145,
  8193, 12_289, 16_385, 24_577,
];
const DISTANCE_EXTRA_BITS = [
  0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
];
/** RFC 1951 §3.2.7: the order in which the code length code's lengths are sent. */
const CODE_LENGTH_ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];
/** The code length symbol that repeats the previous length 3…6 times (2 extra bits). */
const REPEAT_PREVIOUS = 16;

/**
 * The literal/length code: the module bytes and the match that repeats a 15-byte row three times (a
 * 25-module symbol, 4-pixel modules, a 1-module quiet zone: length 45, symbol 273) are short; the
 * other 281 symbols share what is left, 10 or 11 bits. Complete (Kraft sum 1), as inflaters require.
 */
const LITERAL_LENGTH_CODE_LENGTHS = (() => {
  const lengths = new Uint8Array(LITERAL_LENGTH_SYMBOLS);
  const short = new Map([
    [0x00, 2],
    [0xff, 2],
    [0x0f, 3],
    [0xf0, 3],
    [273, 4],
  ]);
  let others = 0;
  for (let symbol = 0; symbol < LITERAL_LENGTH_SYMBOLS; symbol += 1) {
    const length = short.get(symbol);
    if (length === undefined) {
      // 103 × 2^-10 + 178 × 2^-11 = 3/16, what the short codes leave.
      lengths[symbol] = others < 103 ? 10 : 11;
      others += 1;
    } else {
      lengths[symbol] = length;
    }
  }
  return lengths;
})();

/** The distance code: one row back for that image (15 bytes, code 7) in 1 bit, the others 5–6 bits. */
const DISTANCE_CODE_LENGTHS = Uint8Array.from({ length: DISTANCE_SYMBOLS }, (_, code) =>
  code === 7 ? 1 : code <= 2 ? 5 : 6,
);

/** The code that sends the two codes' lengths (lengths 1…6, 10, 11 and the repeat symbol). */
const CODE_LENGTH_CODE_LENGTHS = (() => {
  const lengths = new Uint8Array(CODE_LENGTH_ORDER.length);
  for (const [symbol, length] of [
    [16, 2],
    [10, 2],
    [11, 3],
    [6, 3],
    [2, 4],
    [3, 4],
    [4, 4],
    [1, 5],
    [5, 5],
  ] as const) {
    lengths[symbol] = length;
  }
  return lengths;
})();

/** A Huffman code as deflate packs it: bit-reversed, since bits go in least significant first. */
function reversed(code: number, length: number): number {
  let result = 0;
  for (let bit = 0; bit < length; bit += 1) {
    result = (result << 1) | ((code >> bit) & 1);
  }
  return result;
}

/** RFC 1951 §3.2.2: the canonical codes of a complete set of code lengths, reversed for packing. */
function canonicalCodes(lengths: Uint8Array): Uint16Array {
  const longest = Math.max(...lengths);
  const counts = new Array<number>(longest + 1).fill(0);
  let kraftSum = 0;
  for (const length of lengths) {
    if (length > 0) {
      counts[length] = (counts[length] ?? 0) + 1;
      kraftSum += 2 ** -length;
    }
  }
  if (kraftSum !== 1) {
    throw new RangeError(`Huffman code lengths are not complete (Kraft sum ${kraftSum})`);
  }
  const nextCode = new Array<number>(longest + 1).fill(0);
  let code = 0;
  for (let length = 1; length <= longest; length += 1) {
    code = (code + (counts[length - 1] ?? 0)) << 1;
    nextCode[length] = code;
  }
  const codes = new Uint16Array(lengths.length);
  lengths.forEach((length, symbol) => {
    if (length > 0) {
      const next = nextCode[length] ?? 0;
      codes[symbol] = reversed(next, length);
      nextCode[length] = next + 1;
    }
  });
  return codes;
}

const LITERAL_LENGTH_CODES = canonicalCodes(LITERAL_LENGTH_CODE_LENGTHS);
const DISTANCE_CODES = canonicalCodes(DISTANCE_CODE_LENGTHS);

/** Each match length's symbol index (0…28 for symbols 257…285). */
const LENGTH_INDEX = new Uint8Array(MATCH_LENGTH_MAX + 1);
LENGTH_BASES.forEach((base, index) => {
  const last = index + 1 < LENGTH_BASES.length ? (LENGTH_BASES[index + 1] ?? 0) - 1 : MATCH_LENGTH_MAX;
  LENGTH_INDEX.fill(index, base, last + 1);
});

function distanceIndex(distance: number): number {
  let index = DISTANCE_BASES.length - 1;
  while ((DISTANCE_BASES[index] ?? 0) > distance) {
    index -= 1;
  }
  return index;
}

/** Packs bits least significant first. */
class BitWriter {
  readonly bytes: Uint8Array;
  length = 0;
  private pending = 0;
  private pendingBits = 0;

  constructor(capacity: number) {
    this.bytes = new Uint8Array(capacity);
  }

  /** A writer holding what `start` wrote, with room for `capacity` bytes in all. */
  static continuing(start: BitWriter, capacity: number): BitWriter {
    const writer = new BitWriter(capacity);
    writer.bytes.set(start.bytes.subarray(0, start.length));
    writer.length = start.length;
    writer.pending = start.pending;
    writer.pendingBits = start.pendingBits;
    return writer;
  }

  /** At most 16 bits at a time. */
  write(value: number, bits: number): void {
    this.pending |= value << this.pendingBits;
    this.pendingBits += bits;
    while (this.pendingBits >= 8) {
      this.bytes[this.length++] = this.pending & 0xff;
      this.pending >>>= 8;
      this.pendingBits -= 8;
    }
  }

  /** Pads the last byte with zero bits. */
  alignToByte(): void {
    if (this.pendingBits > 0) {
      this.write(0, 8 - this.pendingBits);
    }
  }
}

/**
 * The stream's start, the same for every image: the zlib header, then the block's header (its two
 * codes, sent as their code lengths). Written once; each image's stream continues from it.
 */
const STREAM_START: BitWriter = (() => {
  const header: [number, number][] = [
    // CMF 0x78: deflate with a 32 KiB window; FLG 0x01: no dictionary, fastest level, check bits.
    [0x78, 8],
    [0x01, 8],
    // BFINAL = 1, BTYPE = 2 (dynamic Huffman codes), then HLIT, HDIST.
    [1, 1],
    [2, 2],
    [LITERAL_LENGTH_SYMBOLS - 257, 5],
    [DISTANCE_SYMBOLS - 1, 5],
  ];
  let sent = CODE_LENGTH_ORDER.length;
  while (sent > 4 && CODE_LENGTH_CODE_LENGTHS[CODE_LENGTH_ORDER[sent - 1] ?? 0] === 0) {
    sent -= 1;
  }
  header.push([sent - 4, 4]);
  for (const symbol of CODE_LENGTH_ORDER.slice(0, sent)) {
    header.push([CODE_LENGTH_CODE_LENGTHS[symbol] ?? 0, 3]);
  }
  const codeLengthCodes = canonicalCodes(CODE_LENGTH_CODE_LENGTHS);
  const send = (symbol: number) => header.push([codeLengthCodes[symbol] ?? 0, CODE_LENGTH_CODE_LENGTHS[symbol] ?? 0]);
  // Both codes' lengths form one sequence; runs of one length are sent once, then repeated.
  const lengths = [...LITERAL_LENGTH_CODE_LENGTHS, ...DISTANCE_CODE_LENGTHS];
  for (let index = 0; index < lengths.length; ) {
    const length = lengths[index] ?? 0;
    send(length);
    index += 1;
    let run = 0;
    while (index + run < lengths.length && lengths[index + run] === length) {
      run += 1;
    }
    while (run >= 3) {
      const repeat = Math.min(6, run);
      send(REPEAT_PREVIOUS);
      header.push([repeat - 3, 2]);
      index += repeat;
      run -= repeat;
    }
  }
  const writer = new BitWriter(header.length * 2);
  for (const [value, bits] of header) {
    writer.write(value, bits);
  }
  return writer;
})();

/** An image as rows that repeat: its distinct pixel rows, and which of them fill it from the top. */
export type RepeatedRowsImage = {
  widthPx: number;
  /** Distinct pixel rows, `ceil(widthPx / 8)` bytes each, most significant bit first. */
  rows: Uint8Array;
  /** Top to bottom: a row of `rows` and how many times it repeats there. */
  runs: readonly { row: number; count: number }[];
};

export function rowBytesOf(widthPx: number): number {
  return Math.ceil(widthPx / 8);
}

/**
 * The image's PNG scanlines (each a filter-type byte 0, none, and a row) as a zlib stream: the first
 * scanline of each run as literals, its repeats as matches one scanline back.
 *
 * Longer than 70 lines on purpose: it runs for every code drawn, in one pass that writes the stream
 * and sums its Adler-32 together, and it reads top to bottom as the zlib stream is laid out (header,
 * runs, end of block, checksum); its state (the writer, the distance codes, the sums) is per image.
 */
export function deflateRepeatedRows(image: RepeatedRowsImage): Uint8Array {
  const rowBytes = rowBytesOf(image.widthPx);
  const scanlineBytes = rowBytes + 1;
  if (scanlineBytes > MATCH_DISTANCE_MAX) {
    throw new RangeError(`rows of ${image.widthPx} pixels are wider than deflate's window`);
  }
  const distance = distanceIndex(scanlineBytes);
  const distanceCode = DISTANCE_CODES[distance] ?? 0;
  const distanceCodeBits = DISTANCE_CODE_LENGTHS[distance] ?? 0;
  const distanceExtra = scanlineBytes - (DISTANCE_BASES[distance] ?? 0);
  const distanceExtraBits = DISTANCE_EXTRA_BITS[distance] ?? 0;
  const writeMatch = (length: number) => {
    const lengthIndex = LENGTH_INDEX[length] ?? 0;
    const lengthSymbol = 257 + lengthIndex;
    writer.write(LITERAL_LENGTH_CODES[lengthSymbol] ?? 0, LITERAL_LENGTH_CODE_LENGTHS[lengthSymbol] ?? 0);
    writer.write(length - (LENGTH_BASES[lengthIndex] ?? 0), LENGTH_EXTRA_BITS[lengthIndex] ?? 0);
    writer.write(distanceCode, distanceCodeBits);
    writer.write(distanceExtra, distanceExtraBits);
  };
  const writeLiteral = (byte: number) => {
    writer.write(LITERAL_LENGTH_CODES[byte] ?? 0, LITERAL_LENGTH_CODE_LENGTHS[byte] ?? 0);
  };

  // Worst case: each first scanline of a run in 11-bit literals, each repeat in 258-byte matches of
  // up to 32 bits; plus the header, the end of block and the zlib frame.
  const heightPx = image.runs.reduce((sum, run) => sum + run.count, 0);
  const writer = BitWriter.continuing(
    STREAM_START,
    STREAM_START.length +
      Math.ceil((image.runs.length * scanlineBytes * 11 + Math.ceil((heightPx * scanlineBytes) / 258) * 32) / 8) +
      8,
  );
  let low = 1;
  let high = 0;
  for (const run of image.runs) {
    const start = run.row * rowBytes;
    writeLiteral(0);
    for (let index = start; index < start + rowBytes; index += 1) {
      writeLiteral(image.rows[index] ?? 0);
    }
    const repeatedBytes = (run.count - 1) * scanlineBytes;
    for (let written = 0; written < repeatedBytes; ) {
      const remaining = repeatedBytes - written;
      if (remaining < MATCH_LENGTH_MIN) {
        // Too short for a match (scanlines of one byte of pixels): the scanline's next byte as it is.
        const offset = written % scanlineBytes;
        writeLiteral(offset === 0 ? 0 : (image.rows[start + offset - 1] ?? 0));
        written += 1;
        continue;
      }
      // A match is 3…258 bytes: leave at least 3 for the last one.
      const length =
        remaining > MATCH_LENGTH_MAX ? Math.min(MATCH_LENGTH_MAX, remaining - MATCH_LENGTH_MIN) : remaining;
      writeMatch(length);
      written += length;
    }
    // Adler-32 of the run's scanlines. One scanline of bytes b1…bn (b1 the filter byte, 0) adds
    // sum(b) to the low sum and n × low + sum over i of (n − i + 1) × bi to the high sum: summed once
    // per run, applied once per repeat.
    let rowSum = 0;
    let rowWeightedSum = 0;
    for (let index = start; index < start + rowBytes; index += 1) {
      rowSum += image.rows[index] ?? 0;
      rowWeightedSum += rowSum;
    }
    for (let repeat = 0; repeat < run.count; repeat += 1) {
      high = (high + scanlineBytes * low + rowWeightedSum) % ADLER_MODULUS;
      low = (low + rowSum) % ADLER_MODULUS;
    }
  }
  writeLiteral(END_OF_BLOCK);
  writer.alignToByte();
  const checksum = ((high << 16) | low) >>> 0;
  writer.write(checksum >>> 24, 8);
  writer.write((checksum >>> 16) & 0xff, 8);
  writer.write((checksum >>> 8) & 0xff, 8);
  writer.write(checksum & 0xff, 8);
  return writer.bytes.subarray(0, writer.length);
}
