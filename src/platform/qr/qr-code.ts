import QRCode from "qrcode";
import { bilevelPng } from "./bilevel-png.ts";
import { type RepeatedRowsImage, rowBytesOf } from "./deflate-repeated-rows.ts";

/**
 * A QR code as a PNG data URL, drawn on the hot path of every payment and withdrawal code.
 *
 * The `qrcode` library computes the symbol (encoding, error correction, placement); the image is a
 * 1-bit PNG written here (`bilevel-png.ts`): the library's own PNG path converts the matrix to RGBA
 * and encodes it with pngjs, at far more CPU per code (docs/performance.md, "QR codes").
 *
 * Our texts are a fixed prefix and a code of digits (`wallet://pay?code=123456789`), and for such
 * texts the library is asked only once per prefix and code length (a template). Everything between
 * the code's bits and the image is linear over GF(2): the digits become 10-bit groups at fixed
 * positions of the data, Reed–Solomon error correction is linear, interleaving and placement move
 * bits, and a fixed mask flips fixed modules. So the image of any code is the image of the all-zero
 * code with, for each 1 bit of the code's groups, that bit's difference image flipped in; both come
 * from the library, drawing the zero code and each one-bit code once. A code then costs a few XORs
 * of short rows instead of the library's matrix (`npm run bench:payments` prints both).
 *
 * The mask pattern is fixed instead of chosen by scoring all eight (ISO/IEC 18004 allows any; the
 * score only avoids rare patterns that slow some readers), which is what keeps the mask linear.
 * Every mask decodes; the tests read our codes back with an independent decoder and compare them
 * pixel for pixel with the library's own matrices.
 */

export type QrImageOptions = {
  /** Side of one module in pixels. */
  moduleSizePx: number;
  /** White border around the symbol, in modules. */
  quietZoneModules: number;
};

const DEFAULT_OPTIONS: QrImageOptions = { moduleSizePx: 4, quietZoneModules: 1 };
const MASK_PATTERN = 3;
const ERROR_CORRECTION_LEVEL = "M";
const TRAILING_DIGITS = /\d+$/;
/** Numeric mode packs three digits in 10 bits; a last group of two in 7 bits, of one in 4. */
const NUMERIC_GROUP_DIGITS = 3;
const NUMERIC_GROUP_BITS: Record<number, number> = { 1: 4, 2: 7, 3: 10 };
/** Templates kept; in practice one per deep-link prefix. */
const TEMPLATES_MAX = 16;

/**
 * The image: a white row, then one pixel row per module row (quiet-zone columns included), held as
 * 32-bit words for the XORs; and how the rows fill the image (quiet zone, each module row
 * `moduleSizePx` times, quiet zone).
 */
type ModuleRows = { widthPx: number; words: Uint32Array; runs: RepeatedRowsImage["runs"] };

type Template = {
  zeroCode: ModuleRows;
  /** For each numeric group of the code, for each of its bits (least significant first): what flips. */
  flips: Uint32Array[][];
};

const templates = new Map<string, Template>();

export function qrPngDataUrl(text: string, options: QrImageOptions = DEFAULT_OPTIONS): string {
  const { widthPx, words, runs } = moduleRowsOf(text, options);
  const png = bilevelPng({ widthPx, rows: new Uint8Array(words.buffer), runs });
  return `data:image/png;base64,${png.toString("base64")}`;
}

/**
 * A QR code of any text (a receipt link), drawn from the library's matrix with no template: the
 * templates pay off only for a fixed prefix and many codes, and a random token would make each its own.
 */
export function qrPngOfText(text: string, options: QrImageOptions = DEFAULT_OPTIONS): Buffer {
  const { widthPx, words, runs } = drawModuleRows(QRCode.create(text, qrOptions).modules, options);
  return bilevelPng({ widthPx, rows: new Uint8Array(words.buffer), runs });
}

function moduleRowsOf(text: string, options: QrImageOptions): ModuleRows {
  const digits = TRAILING_DIGITS.exec(text)?.[0] ?? "";
  if (digits === "") {
    return drawModuleRows(QRCode.create(segmentsOf(text), qrOptions).modules, options);
  }
  const prefix = text.slice(0, text.length - digits.length);
  const template = templateFor(prefix, digits.length, options);
  const words = template.zeroCode.words.slice();
  for (let group = 0; group < template.flips.length; group += 1) {
    const start = group * NUMERIC_GROUP_DIGITS;
    let value = Number(digits.slice(start, start + NUMERIC_GROUP_DIGITS));
    const flips = template.flips[group] ?? [];
    for (let bit = 0; value !== 0; bit += 1, value >>>= 1) {
      if ((value & 1) === 1) {
        xorInto(words, flips[bit] ?? new Uint32Array(0));
      }
    }
  }
  return { ...template.zeroCode, words };
}

const qrOptions = { errorCorrectionLevel: ERROR_CORRECTION_LEVEL, maskPattern: MASK_PATTERN } as const;

/**
 * The text's segments as the library would choose them, given directly: the prefix in byte mode, the
 * digits in numeric mode (3⅓ bits a digit instead of 8). This skips the library's search for the
 * optimal segmentation, which finds the same two segments for such texts.
 */
function segmentsOf(text: string): QRCode.QRCodeSegment[] {
  const digits = TRAILING_DIGITS.exec(text)?.[0] ?? "";
  const prefix = text.slice(0, text.length - digits.length);
  const segments: QRCode.QRCodeSegment[] = [];
  if (prefix !== "") {
    segments.push({ data: Buffer.from(prefix, "utf8"), mode: "byte" });
  }
  if (digits !== "") {
    segments.push({ data: digits, mode: "numeric" });
  }
  return segments;
}

function templateFor(prefix: string, digitCount: number, options: QrImageOptions): Template {
  const key = `${digitCount}:${options.moduleSizePx}:${options.quietZoneModules}:${prefix}`;
  let template = templates.get(key);
  if (template === undefined) {
    if (templates.size >= TEMPLATES_MAX) {
      templates.clear();
    }
    template = buildTemplate(prefix, digitCount, options);
    templates.set(key, template);
  }
  return template;
}

function buildTemplate(prefix: string, digitCount: number, options: QrImageOptions): Template {
  const groupWidths: number[] = [];
  for (let start = 0; start < digitCount; start += NUMERIC_GROUP_DIGITS) {
    groupWidths.push(Math.min(NUMERIC_GROUP_DIGITS, digitCount - start));
  }
  const draw = (groupValues: readonly number[]) => {
    const digits = groupWidths.map((width, group) => String(groupValues[group] ?? 0).padStart(width, "0")).join("");
    return drawModuleRows(QRCode.create(segmentsOf(`${prefix}${digits}`), qrOptions).modules, options);
  };
  const zeroCode = draw([]);
  const flips = groupWidths.map((width, group) =>
    Array.from({ length: NUMERIC_GROUP_BITS[width] ?? 0 }, (_, bit) => {
      const oneBit = draw(groupWidths.map((_, other) => (other === group ? 2 ** bit : 0)));
      if (oneBit.widthPx !== zeroCode.widthPx) {
        throw new RangeError(`QR template for ${prefix}: the symbol's size changed with the code's value`);
      }
      xorInto(oneBit.words, zeroCode.words);
      return oneBit.words;
    }),
  );
  return { zeroCode, flips };
}

function xorInto(target: Uint32Array, flips: Uint32Array): void {
  for (let index = 0; index < flips.length; index += 1) {
    target[index] = (target[index] ?? 0) ^ (flips[index] ?? 0);
  }
}

/** The module rows of a symbol as pixel rows: 0 bits (black) for dark modules, 1 (white) elsewhere. */
function drawModuleRows(matrix: { size: number; data: Uint8Array }, options: QrImageOptions): ModuleRows {
  const { moduleSizePx, quietZoneModules } = options;
  const widthPx = (matrix.size + 2 * quietZoneModules) * moduleSizePx;
  const rowBytes = rowBytesOf(widthPx);
  // Row 0 stays white: the quiet zone above and below.
  const bytes = new Uint8Array(Math.ceil(((matrix.size + 1) * rowBytes) / 4) * 4).fill(0xff);
  for (let moduleRow = 0; moduleRow < matrix.size; moduleRow += 1) {
    for (let moduleColumn = 0; moduleColumn < matrix.size; moduleColumn += 1) {
      if (matrix.data[moduleRow * matrix.size + moduleColumn]) {
        const firstPx = (moduleColumn + quietZoneModules) * moduleSizePx;
        for (let px = firstPx; px < firstPx + moduleSizePx; px += 1) {
          const byteIndex = (moduleRow + 1) * rowBytes + (px >> 3);
          bytes[byteIndex] = (bytes[byteIndex] ?? 0) & ~(0x80 >> (px & 7));
        }
      }
    }
  }
  const quietZone = { row: 0, count: quietZoneModules * moduleSizePx };
  const runs = [
    quietZone,
    ...Array.from({ length: matrix.size }, (_, moduleRow) => ({ row: moduleRow + 1, count: moduleSizePx })),
    quietZone,
  ].filter((run) => run.count > 0);
  return { widthPx, words: new Uint32Array(bytes.buffer), runs };
}
