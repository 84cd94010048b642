// A PNG (or APNG) without its personal metadata, chunk by chunk as it streams: the image data is
// copied as it is, so nothing is decoded or compressed again.
//
// Kept: the critical chunks (IHDR, PLTE, IDAT, IEND, and any other a decoder needs: a critical
// chunk it does not know makes it refuse the file), what says how to show the pixels
// (tRNS, gAMA, cHRM, sRGB, iCCP, cICP, mDCV, cLLI, sBIT, bKGD, hIST, pHYs, sPLT), APNG's
// animation (acTL, fcTL, fdAT), and the orientation in an eXIf of its own (exif.ts).
// Dropped: eXIf (replaced), text (tEXt, zTXt, iTXt: authors, comments, XMP), tIME, and every
// other ancillary chunk, known or private (makers' chunks may say anything), and whatever follows
// IEND. A file cut short ends where it was cut (a chunk header or an eXIf cut short is not kept);
// where the structure breaks (no chunk type where one must be), the rest is copied as it is (see
// jpeg.ts).
import { crc32 } from "node:zlib";
import type { ByteReader } from "./byte-reader.ts";
import { keptExif } from "./exif.ts";

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const KEPT_ANCILLARY = new Set([
  "tRNS",
  "gAMA",
  "cHRM",
  "sRGB",
  "iCCP",
  "cICP",
  "mDCV",
  "cLLI",
  "sBIT",
  "bKGD",
  "hIST",
  "pHYs",
  "sPLT",
  "acTL",
  "fcTL",
  "fdAT",
]);
/** An eXIf larger than this is dropped unread (its orientation with it): EXIF is a few KB. */
const MAX_EXIF_READ = 1024 * 1024;

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, "latin1");
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** A chunk type: four ASCII letters; anything else means the structure is broken. */
function isChunkType(type: Buffer): boolean {
  return type.every((byte) => (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a));
}

export async function* pngWithoutMetadata(reader: ByteReader): AsyncGenerator<Buffer> {
  const signature = await reader.read(SIGNATURE.length);
  yield signature;
  if (!signature.equals(SIGNATURE)) return yield* reader.rest();
  for (;;) {
    if (!(await reader.ensure(8))) return reader.drain();
    const head = reader.peek();
    const length = head.readUInt32BE(0);
    const typeBytes = head.subarray(4, 8);
    if (!isChunkType(typeBytes) || length > 0x7fffffff) return yield* reader.rest();
    const type = typeBytes.toString("latin1");
    const critical = type.charCodeAt(0) < 0x61;
    if (critical || KEPT_ANCILLARY.has(type)) {
      yield* reader.pass(12 + length); // length, type, data, CRC
      if (type === "IEND") return reader.drain(); // nothing after it is kept
      continue;
    }
    if (type === "eXIf" && length <= MAX_EXIF_READ) {
      if (!(await reader.ensure(12 + length))) return reader.drain();
      const kept = keptExif(reader.take(12 + length).subarray(8, 8 + length));
      if (kept !== null) yield chunk("eXIf", kept);
      continue;
    }
    await reader.skip(12 + length);
  }
}
