import jsQRModule from "jsqr";
import { PNG } from "pngjs";
import QRCode from "qrcode";
import { qrPngDataUrl } from "../../src/platform/qr/index.ts";

// jsqr is CommonJS with `exports.default`: depending on the loader, the import is the function or its module.
const jsQR = ((jsQRModule as { default?: unknown }).default ?? jsQRModule) as typeof jsQRModule.default;

function decode(dataUrl: string) {
  expect(dataUrl.startsWith("data:image/png;base64,")).toBe(true);
  // pngjs checks every chunk's CRC, and the zlib stream with its Adler-32, while reading.
  const image = PNG.sync.read(Buffer.from(dataUrl.slice("data:image/png;base64,".length), "base64"));
  return { image, text: jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data };
}

/** Each pixel, from the library's own matrix (same error correction level and mask): 0 black, 255 white. */
function expectedPixels(text: string, moduleSizePx: number, quietZoneModules: number): number[] {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: "M", maskPattern: 3 });
  const sidePx = (modules.size + 2 * quietZoneModules) * moduleSizePx;
  const pixels: number[] = [];
  for (let y = 0; y < sidePx; y += 1) {
    for (let x = 0; x < sidePx; x += 1) {
      const row = Math.floor(y / moduleSizePx) - quietZoneModules;
      const column = Math.floor(x / moduleSizePx) - quietZoneModules;
      const inside = row >= 0 && column >= 0 && row < modules.size && column < modules.size;
      pixels.push(inside && modules.get(row, column) ? 0 : 255);
    }
  }
  return pixels;
}

const greyPixels = (image: PNG) =>
  Array.from({ length: image.width * image.height }, (_, index) => image.data[index * 4]);

/** Deterministic codes spread over the whole range, every digit in every place. */
const codes = (count: number) =>
  Array.from({ length: count }, (_, index) =>
    String((index * 7_919_993 + 123_456_789) % 1_000_000_000).padStart(9, "0"),
  );

describe("QR PNG data URLs", () => {
  test.each(["wallet://pay?code=123456789", "987654321", `https://pay.example.com/checkout/pay_${"x".repeat(120)}`])(
    "a reader finds %s in the image",
    (text) => {
      const { image, text: decoded } = decode(qrPngDataUrl(text));
      expect(decoded).toBe(text);
      const modules = QRCode.create(text, { errorCorrectionLevel: "M" }).modules.size;
      expect(image.width).toBe((modules + 2) * 4);
      expect(image.height).toBe(image.width);
    },
  );

  test("every payment code's deep link reads back (the mask pattern is fixed, not scored)", () => {
    for (const code of codes(60)) {
      for (const text of [`wallet://pay?code=${code}`, `wallet://withdraw?code=${code}`]) {
        expect(decode(qrPngDataUrl(text)).text).toBe(text);
      }
    }
  });

  test("codes drawn from a template are the library's symbols, pixel for pixel", () => {
    const texts = [
      ...codes(40).map((code) => `wallet://pay?code=${code}`),
      "wallet://pay?code=000000000",
      "wallet://pay?code=999999999",
      // Numeric groups of one and two digits at the end, and digits alone.
      "wallet://pay?code=1234",
      "wallet://pay?code=12345",
      "4",
      "00000000000000000000000000000000009",
    ];
    for (const text of texts) {
      expect(greyPixels(decode(qrPngDataUrl(text)).image)).toEqual(expectedPixels(text, 4, 1));
    }
    // Other image geometries: scanlines that are not whole bytes of modules, no quiet zone.
    for (const options of [
      { moduleSizePx: 3, quietZoneModules: 2 },
      { moduleSizePx: 1, quietZoneModules: 0 },
      { moduleSizePx: 12, quietZoneModules: 4 },
    ]) {
      for (const code of codes(5)) {
        const text = `wallet://withdraw?code=${code}`;
        const { image, text: decoded } = decode(qrPngDataUrl(text, options));
        expect(greyPixels(image)).toEqual(expectedPixels(text, options.moduleSizePx, options.quietZoneModules));
        if (options.moduleSizePx > 1) {
          expect(decoded).toBe(text);
        }
      }
    }
  });

  test("a text without a trailing code is drawn from the library's matrix", () => {
    const text = "https://pay.example.com/checkout/pay_abc";
    expect(greyPixels(decode(qrPngDataUrl(text)).image)).toEqual(expectedPixels(text, 4, 1));
  });

  test("the quiet zone is white and the finder pattern's corner is black", () => {
    const { image } = decode(qrPngDataUrl("wallet://pay?code=123456789", { moduleSizePx: 3, quietZoneModules: 2 }));
    const greyAt = (x: number, y: number) => image.data[(y * image.width + x) * 4];
    expect(greyAt(0, 0)).toBe(255);
    expect(greyAt(5, 5)).toBe(255);
    expect(greyAt(6, 6)).toBe(0);
    expect(greyAt(image.width - 1, image.height - 1)).toBe(255);
  });
});
