import QRCode from "qrcode";

/**
 * A QR code of `text` (a deep link) as a PNG data URL, drawn as payment codes are: error correction M,
 * a one-module margin and 4 pixels per module (about 1,280 a second per core, docs/STACK figures).
 */
export function qrPngDataUrl(text: string): Promise<string> {
  return QRCode.toDataURL(text, { errorCorrectionLevel: "M", margin: 1, scale: 4 });
}
