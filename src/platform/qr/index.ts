/**
 * The QR codes of payments and withdrawal codes, drawn as small 1-bit PNG data URLs. The rest of this
 * folder (the bilevel PNG and its deflate of repeated rows) is how, and is not imported from outside.
 */
export { qrPngDataUrl, qrPngOfText } from "./qr-code.ts";
