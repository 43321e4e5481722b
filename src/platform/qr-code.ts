import { crc32, deflateSync } from "node:zlib";
import QRCode from "qrcode";

/**
 * A QR code as a PNG data URL, drawn on the hot path of every payment and withdrawal code.
 *
 * The `qrcode` library computes the module matrix (encoding, error correction, mask choice); the
 * image is a 1-bit greyscale PNG written here. The library's own PNG path converts the matrix to RGBA
 * and encodes it with pngjs, which measured ~1.2 ms of CPU per code on this project's machines against
 * ~0.16 ms for the matrix itself (`npm run bench:payments` prints both): the picture of a few hundred
 * black and white squares needs neither colour nor a general-purpose encoder.
 *
 * The mask pattern is fixed instead of chosen by scoring all eight (ISO/IEC 18004 allows any; the
 * score only avoids rare patterns that slow some readers): scoring was 85 % of the matrix's cost.
 * Every mask decodes; the tests read a hundred of our codes back with an independent decoder.
 */

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const COLOUR_TYPE_GREYSCALE = 0;
const BIT_DEPTH_ONE = 1;

export type QrImageOptions = {
  /** Side of one module in pixels. */
  moduleSizePx: number;
  /** White border around the symbol, in modules. */
  quietZoneModules: number;
};

const DEFAULT_OPTIONS: QrImageOptions = { moduleSizePx: 4, quietZoneModules: 1 };
const MASK_PATTERN = 3;

// A deflate stream for a few kilobytes of scanlines: small windows cost less to set up (the default
// 32 KiB window and 256 KiB state took most of the PNG's time) and compress these images as well.
const DEFLATE_OPTIONS = { windowBits: 12, memLevel: 4 };
const TRAILING_DIGITS = /\d+$/;

export function qrPngDataUrl(text: string, options: QrImageOptions = DEFAULT_OPTIONS): string {
  const { modules } = QRCode.create(segmentsOf(text), { errorCorrectionLevel: "M", maskPattern: MASK_PATTERN });
  return `data:image/png;base64,${encodePng(modules, options).toString("base64")}`;
}

/**
 * Our texts are a prefix and a code (`wallet://pay?code=123456789`): bytes, then digits in numeric
 * mode (3⅓ bits a digit instead of 8). Handing the library these segments skips its search for the
 * optimal segmentation (a shortest path over a graph of every split, ~45 % of its matrix's cost),
 * which finds the same two segments for such texts.
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

function encodePng(modules: { size: number; data: Uint8Array }, options: QrImageOptions): Buffer {
  const { moduleSizePx, quietZoneModules } = options;
  const sidePx = (modules.size + 2 * quietZoneModules) * moduleSizePx;
  // Each scanline: filter type 0 (none), then the row's bits, most significant first; 1 is white.
  const scanlineBytes = Math.ceil(sidePx / 8) + 1;
  const scanlines = Buffer.alloc(scanlineBytes * sidePx, 0xff);
  for (let rowPx = 0; rowPx < sidePx; rowPx += 1) {
    scanlines[rowPx * scanlineBytes] = 0;
  }
  // Drawn once per module row, then copied to the module's pixel rows.
  const scanline = Buffer.alloc(scanlineBytes);
  for (let moduleRow = 0; moduleRow < modules.size; moduleRow += 1) {
    scanline.fill(0xff);
    scanline[0] = 0;
    for (let moduleColumn = 0; moduleColumn < modules.size; moduleColumn += 1) {
      if (modules.data[moduleRow * modules.size + moduleColumn]) {
        const firstPx = (moduleColumn + quietZoneModules) * moduleSizePx;
        for (let px = firstPx; px < firstPx + moduleSizePx; px += 1) {
          const byteIndex = 1 + (px >> 3);
          scanline[byteIndex] = (scanline[byteIndex] ?? 0) & ~(0x80 >> (px & 7));
        }
      }
    }
    const firstRowPx = (moduleRow + quietZoneModules) * moduleSizePx;
    for (let rowPx = firstRowPx; rowPx < firstRowPx + moduleSizePx; rowPx += 1) {
      scanline.copy(scanlines, rowPx * scanlineBytes);
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(sidePx, 0);
  header.writeUInt32BE(sidePx, 4);
  header[8] = BIT_DEPTH_ONE;
  header[9] = COLOUR_TYPE_GREYSCALE;
  // Bytes 10–12: deflate compression, adaptive filtering, no interlace (all zero).
  return Buffer.concat([
    PNG_SIGNATURE,
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(scanlines, DEFLATE_OPTIONS)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

function chunk(type: string, data: Buffer): Buffer {
  const typeAndData = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const framed = Buffer.alloc(typeAndData.length + 8);
  framed.writeUInt32BE(data.length, 0);
  typeAndData.copy(framed, 4);
  framed.writeUInt32BE(crc32(typeAndData), typeAndData.length + 4);
  return framed;
}
