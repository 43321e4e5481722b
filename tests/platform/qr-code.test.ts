import jsQRModule from "jsqr";
import { PNG } from "pngjs";
import QRCode from "qrcode";
import { qrPngDataUrl } from "../../src/platform/qr-code.ts";

// jsqr is CommonJS with `exports.default`: depending on the loader, the import is the function or its module.
const jsQR = ((jsQRModule as { default?: unknown }).default ?? jsQRModule) as typeof jsQRModule.default;

function decode(dataUrl: string) {
  expect(dataUrl.startsWith("data:image/png;base64,")).toBe(true);
  // pngjs checks every chunk's CRC and the zlib stream while reading.
  const image = PNG.sync.read(Buffer.from(dataUrl.slice("data:image/png;base64,".length), "base64"));
  return { image, text: jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data };
}

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
    for (let index = 0; index < 60; index += 1) {
      const code = String((index * 7_919_993 + 123_456_789) % 1_000_000_000).padStart(9, "0");
      for (const text of [`wallet://pay?code=${code}`, `wallet://withdraw?code=${code}`]) {
        expect(decode(qrPngDataUrl(text)).text).toBe(text);
      }
    }
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
