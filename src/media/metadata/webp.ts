// A WebP without its personal metadata. WebP is a RIFF file whose first bytes give the size of
// the whole, so the file is read whole first (at most SVC_MEDIA_MAX_BYTES; WebP images are web
// images, rarely more than a few MB) and written again with its chunks, never re-encoded.
//
// Kept: the image (VP8, VP8L, ALPH), the animation (ANIM, ANMF), the ICC profile (ICCP), and the
// orientation in an EXIF of its own (exif.ts). Dropped: EXIF (replaced), XMP, every chunk the
// format does not define, and whatever follows the RIFF. The VP8X header's flags say which of
// EXIF and XMP remain. A file whose structure cannot be read is kept as it is.
import { keptExif } from "./exif.ts";

const KEPT = new Set(["VP8X", "VP8 ", "VP8L", "ALPH", "ANIM", "ANMF", "ICCP"]);
const EXIF_FLAG = 0x08;
const XMP_FLAG = 0x04;

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.write(type, 0, "latin1");
  head.writeUInt32LE(data.length, 4);
  return Buffer.concat(data.length % 2 === 1 ? [head, data, Buffer.alloc(1)] : [head, data]);
}

export function webpWithoutMetadata(file: Buffer): Buffer {
  if (file.length < 12 || file.toString("latin1", 0, 4) !== "RIFF" || file.toString("latin1", 8, 12) !== "WEBP")
    return file;
  const end = Math.min(file.length, 8 + file.readUInt32LE(4));
  const kept: Buffer[] = [];
  let exif: Buffer | null = null;
  let at = 12;
  while (at + 8 <= end) {
    const type = file.toString("latin1", at, at + 4);
    const size = file.readUInt32LE(at + 4);
    const next = at + 8 + size + (size % 2);
    if (at + 8 + size > end) return file; // a chunk past the end: not read
    if (KEPT.has(type)) kept.push(file.subarray(at, Math.min(next, end)));
    else if (type === "EXIF" && exif === null) exif = keptExif(file.subarray(at + 8, at + 8 + size));
    at = next;
  }
  // Only the extended format (VP8X first) may carry EXIF; its flags say what remains.
  const first = kept[0];
  if (first !== undefined && first.toString("latin1", 0, 4) === "VP8X" && first.length >= 9) {
    const header = Buffer.from(first);
    header[8] = (header[8] & ~(EXIF_FLAG | XMP_FLAG)) | (exif === null ? 0 : EXIF_FLAG);
    kept[0] = header;
    if (exif !== null) kept.push(chunk("EXIF", exif));
  }
  const riff = Buffer.alloc(12);
  riff.write("RIFF", 0, "latin1");
  riff.writeUInt32LE(4 + kept.reduce((sum, piece) => sum + piece.length, 0), 4);
  riff.write("WEBP", 8, "latin1");
  return Buffer.concat([riff, ...kept]);
}
