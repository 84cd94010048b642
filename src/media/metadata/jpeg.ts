// A JPEG without its personal metadata, segment by segment as it streams: no pixel is decoded or
// encoded again, so the image is the uploaded one bit for bit (the scans are copied as they are).
//
// Kept: the frame and its tables, the scans, JFIF (APP0, its thumbnail dropped), ICC profiles
// (APP2 ICC_PROFILE, every chunk), Adobe (APP14: it says how the colours are coded), and the
// orientation, in an EXIF of its own (exif.ts).
// Dropped: EXIF (position, camera, serial number, dates, author, thumbnails), XMP and its
// extensions (APP1), IPTC and Photoshop resources (APP13), comments (COM), every other APPn
// (MPF, FlashPix, JUMBF/C2PA, makers' own), and whatever follows the image's end (EOI): MPF's
// further images and makers' trailers carry EXIF of their own.
// A file cut short ends where it was cut: what arrived of a scan or table is kept, a segment
// header or an APPn/COM segment cut short is not (so the result is the start of what the whole
// file would give). Where the structure breaks otherwise (bytes that are no marker, a length
// under 2), the rest is copied as it is: no reader finds metadata past that point either.
import type { ByteReader } from "./byte-reader.ts";
import { EXIF_PREFIX, keptExif } from "./exif.ts";

const SOI = 0xd8;
const EOI = 0xd9;
const SOS = 0xda;
const APP0 = 0xe0;
const APP1 = 0xe1;
const APP2 = 0xe2;
const APP14 = 0xee;
const APP15 = 0xef;
const COM = 0xfe;

function startsWith(payload: Buffer, text: string): boolean {
  return payload.toString("latin1", 0, text.length) === text;
}

/** A segment: its marker, then its length (two bytes, counting themselves) and payload. */
function segment(marker: number, payload: Buffer): Buffer {
  const head = Buffer.from([0xff, marker, 0, 0]);
  head.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([head, payload]);
}

/** What an APPn or COM segment becomes: itself, another segment, or nothing. */
function keptSegment(marker: number, payload: Buffer, state: { exifDone: boolean }): Buffer | null {
  if (marker === APP0 && startsWith(payload, "JFIF\0") && payload.length >= 14) {
    const jfif = Buffer.from(payload.subarray(0, 14));
    jfif[12] = 0; // no thumbnail: it may show what the image was cropped from
    jfif[13] = 0;
    return segment(APP0, jfif);
  }
  if (marker === APP2 && startsWith(payload, "ICC_PROFILE\0")) return segment(APP2, payload);
  if (marker === APP14 && startsWith(payload, "Adobe")) return segment(APP14, payload);
  if (marker === APP1 && startsWith(payload, "Exif\0") && !state.exifDone) {
    state.exifDone = true;
    const kept = keptExif(payload.subarray(EXIF_PREFIX.length));
    return kept === null ? null : segment(APP1, Buffer.concat([EXIF_PREFIX, kept]));
  }
  return null;
}

/** Copies entropy-coded data up to the next marker (stuffed 0xFF00, restarts and fill bytes are data). */
async function* scan(reader: ByteReader): AsyncGenerator<Buffer> {
  for (;;) {
    if (!(await reader.ensure(1))) return;
    const bytes = reader.peek();
    let from = 0;
    let at: number;
    for (;;) {
      at = bytes.indexOf(0xff, from);
      if (at < 0 || at + 1 >= bytes.length) break;
      const next = bytes[at + 1];
      if (next === 0x00 || (next >= 0xd0 && next <= 0xd7)) from = at + 2;
      else if (next === 0xff) from = at + 1;
      else break; // a marker: the scan ends here
    }
    if (at < 0) {
      yield reader.take(bytes.length);
      continue;
    }
    if (at > 0) yield reader.take(at);
    if (at + 1 < bytes.length) return; // a marker is next
    // A 0xFF ends what is read so far: what follows it decides.
    if (!(await reader.ensure(2))) {
      yield reader.take(reader.peek().length);
      return;
    }
    const next = reader.peek()[1];
    if (next === 0x00 || (next >= 0xd0 && next <= 0xd7)) yield reader.take(2);
    else if (next === 0xff) yield reader.take(1);
    else return;
  }
}

export async function* jpegWithoutMetadata(reader: ByteReader): AsyncGenerator<Buffer> {
  const start = await reader.read(2);
  yield start;
  if (start.length < 2 || start[0] !== 0xff || start[1] !== SOI) return yield* reader.rest();
  const state = { exifDone: false };
  for (;;) {
    if (!(await reader.ensure(2))) return reader.drain();
    const [lead, marker] = reader.peek();
    if (lead !== 0xff) return yield* reader.rest();
    if (marker === 0xff) {
      reader.take(1); // a fill byte before a marker
      continue;
    }
    if (marker === EOI) {
      yield reader.take(2);
      return reader.drain(); // nothing after it is kept
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      yield reader.take(2); // no length
      continue;
    }
    if (!(await reader.ensure(4))) return reader.drain();
    const length = reader.peek().readUInt16BE(2);
    if (length < 2) return yield* reader.rest();
    if ((marker >= APP0 && marker <= APP15) || marker === COM) {
      if (!(await reader.ensure(2 + length))) return reader.drain();
      const payload = reader.take(2 + length).subarray(4);
      const kept = keptSegment(marker, payload, state);
      if (kept !== null) yield kept;
      continue;
    }
    yield* reader.pass(2 + length);
    if (marker === SOS) yield* scan(reader);
  }
}
