import { crc32 } from "node:zlib";
import { deflateRepeatedRows, type RepeatedRowsImage } from "./deflate-repeated-rows.ts";

/** A black-and-white PNG (1-bit greyscale: a 0 bit is black, a 1 bit white) of an image of repeated rows. */

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const COLOUR_TYPE_GREYSCALE = 0;
const BIT_DEPTH_ONE = 1;
const HEADER_BYTES = 13;
/** Length, type, and CRC around each chunk's data. */
const CHUNK_FRAME_BYTES = 12;

export function bilevelPng(image: RepeatedRowsImage): Buffer {
  const heightPx = image.runs.reduce((sum, run) => sum + run.count, 0);
  const compressed = deflateRepeatedRows(image);
  const png = Buffer.allocUnsafe(PNG_SIGNATURE.length + 3 * CHUNK_FRAME_BYTES + HEADER_BYTES + compressed.length);
  let offset = 0;
  for (const byte of PNG_SIGNATURE) {
    offset = png.writeUInt8(byte, offset);
  }
  const writeChunk = (type: string, fill: (dataOffset: number) => number) => {
    const typeOffset = offset + 4;
    png.write(type, typeOffset, "latin1");
    const dataEnd = fill(typeOffset + 4);
    png.writeUInt32BE(dataEnd - typeOffset - 4, offset);
    // The CRC covers the chunk's type and data.
    png.writeUInt32BE(crc32(png.subarray(typeOffset, dataEnd)), dataEnd);
    offset = dataEnd + 4;
  };
  writeChunk("IHDR", (dataOffset) => {
    let at = png.writeUInt32BE(image.widthPx, dataOffset);
    at = png.writeUInt32BE(heightPx, at);
    at = png.writeUInt8(BIT_DEPTH_ONE, at);
    at = png.writeUInt8(COLOUR_TYPE_GREYSCALE, at);
    // Deflate compression, adaptive filtering (each scanline says its filter), no interlace.
    at = png.writeUInt8(0, at);
    at = png.writeUInt8(0, at);
    return png.writeUInt8(0, at);
  });
  writeChunk("IDAT", (dataOffset) => {
    png.set(compressed, dataOffset);
    return dataOffset + compressed.length;
  });
  writeChunk("IEND", (dataOffset) => dataOffset);
  return png;
}
