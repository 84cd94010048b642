// An AVIF without its personal metadata. AVIF (HEIF) keeps EXIF and XMP as items of the file,
// located by offsets in the `iloc` box; moving or removing one would mean rewriting the offsets of
// every item after it. So their bytes are overwritten where they stand, at the same length: the
// EXIF item becomes an empty EXIF (no tags, zeros after), the XMP item an empty XMP packet
// (spaces after). Nothing else changes: the image, its ICC profile (`colr`) and its orientation
// (`irot`, `imir`: AVIF's own, which browsers follow; they ignore EXIF's) stay as they are.
// The file is read whole first (at most SVC_MEDIA_MAX_BYTES), since the boxes that say where the
// items are may come after them, and overwritten in that buffer. A file whose structure cannot be
// read is kept as it is.

interface Box {
  type: string;
  /** Where its payload starts and ends in the file. */
  start: number;
  end: number;
}

/** The boxes between `from` and `to`; stops at the first that does not fit. */
function boxes(file: Buffer, from: number, to: number): Box[] {
  const out: Box[] = [];
  let at = from;
  while (at + 8 <= to) {
    let size = file.readUInt32BE(at);
    let header = 8;
    if (size === 1) {
      if (at + 16 > to) break;
      size = Number(file.readBigUInt64BE(at + 8));
      header = 16;
    } else if (size === 0) size = to - at;
    if (size < header || at + size > to) break;
    out.push({ type: file.toString("latin1", at + 4, at + 8), start: at + header, end: at + size });
    at += size;
  }
  return out;
}

/** Reads unsigned big-endian numbers of 0, 1, 2, 4 or 8 bytes from a position that moves on. */
class Cursor {
  constructor(
    private readonly file: Buffer,
    public at: number,
    private readonly end: number,
  ) {}

  uint(bytes: number): number {
    if (this.at + bytes > this.end) throw new RangeError("past the box");
    let value = 0;
    for (let i = 0; i < bytes; i++) value = value * 256 + this.file[this.at + i];
    this.at += bytes;
    return value;
  }

  text(): string {
    const nul = this.file.indexOf(0, this.at);
    if (nul < 0 || nul >= this.end) throw new RangeError("past the box");
    const value = this.file.toString("utf8", this.at, nul);
    this.at = nul + 1;
    return value;
  }
}

/** The ids of the EXIF and XMP items (`iinf`). */
function metadataItems(file: Buffer, iinf: Box): { exif: Set<number>; xmp: Set<number> } {
  const exif = new Set<number>();
  const xmp = new Set<number>();
  const version = file[iinf.start];
  const first = iinf.start + 4 + (version === 0 ? 2 : 4);
  for (const infe of boxes(file, first, iinf.end)) {
    if (infe.type !== "infe") continue;
    const cursor = new Cursor(file, infe.start, infe.end);
    const infeVersion = cursor.uint(1);
    cursor.uint(3); // flags
    if (infeVersion < 2) {
      const id = cursor.uint(2);
      cursor.uint(2); // protection
      cursor.text(); // name
      if (cursor.text() === "application/rdf+xml") xmp.add(id);
      continue;
    }
    const id = cursor.uint(infeVersion === 2 ? 2 : 4);
    cursor.uint(2); // protection
    const type = file.toString("latin1", cursor.at, cursor.at + 4);
    cursor.uint(4);
    cursor.text(); // name
    if (type === "Exif") exif.add(id);
    else if (type === "mime" && cursor.text() === "application/rdf+xml") xmp.add(id);
  }
  return { exif, xmp };
}

/** Where each item's bytes are (`iloc`): runs of the file, in order. Items built otherwise are left out. */
function itemRuns(file: Buffer, iloc: Box, idat: Box | undefined): Map<number, Array<[number, number]>> {
  const cursor = new Cursor(file, iloc.start, iloc.end);
  const version = cursor.uint(1);
  cursor.uint(3);
  const sizes = cursor.uint(1);
  const more = cursor.uint(1);
  const [offsetSize, lengthSize, baseSize] = [sizes >> 4, sizes & 15, more >> 4];
  const indexSize = version === 0 ? 0 : more & 15;
  const runs = new Map<number, Array<[number, number]>>();
  const count = cursor.uint(version < 2 ? 2 : 4);
  for (let item = 0; item < count; item++) {
    const id = cursor.uint(version < 2 ? 2 : 4);
    const method = version === 0 ? 0 : cursor.uint(2) & 15;
    cursor.uint(2); // data reference: this file
    const base = cursor.uint(baseSize);
    const extents = cursor.uint(2);
    const found: Array<[number, number]> = [];
    for (let extent = 0; extent < extents; extent++) {
      cursor.uint(indexSize);
      const offset = cursor.uint(offsetSize);
      const length = cursor.uint(lengthSize);
      const origin = method === 0 ? 0 : method === 1 && idat ? idat.start : NaN;
      found.push([origin + base + offset, length]);
    }
    if (found.every(([start, length]) => Number.isSafeInteger(start) && length > 0 && start + length <= file.length))
      runs.set(id, found);
  }
  return runs;
}

const EMPTY_EXIF = Buffer.from([0, 0, 0, 0, 0x4d, 0x4d, 0, 42, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0]); // TIFF offset 0, header, IFD0 of no entries
const EMPTY_XMP = Buffer.from(
  '<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"/><?xpacket end="w"?>',
  "latin1",
);

/** Writes `replacement` over the runs, then `fill` to their end. */
function overwrite(file: Buffer, runs: Array<[number, number]>, replacement: Buffer, fill: number): void {
  const total = runs.reduce((sum, [, length]) => sum + length, 0);
  const bytes = replacement.length <= total ? replacement : Buffer.alloc(0);
  let written = 0;
  for (const [start, length] of runs) {
    file.fill(fill, start, start + length);
    if (written < bytes.length) written += bytes.copy(file, start, written, Math.min(bytes.length, written + length));
  }
}

/** `file` with its EXIF and XMP items emptied, in place. */
export function avifWithoutMetadata(file: Buffer): Buffer {
  try {
    const meta = boxes(file, 0, file.length).find((box) => box.type === "meta");
    if (meta === undefined) return file;
    const inside = boxes(file, meta.start + 4, meta.end);
    const iinf = inside.find((box) => box.type === "iinf");
    const iloc = inside.find((box) => box.type === "iloc");
    if (iinf === undefined || iloc === undefined) return file;
    const { exif, xmp } = metadataItems(file, iinf);
    if (exif.size === 0 && xmp.size === 0) return file;
    const runs = itemRuns(
      file,
      iloc,
      inside.find((box) => box.type === "idat"),
    );
    for (const id of exif) if (runs.has(id)) overwrite(file, runs.get(id)!, EMPTY_EXIF, 0);
    for (const id of xmp) if (runs.has(id)) overwrite(file, runs.get(id)!, EMPTY_XMP, 0x20);
    return file;
  } catch (error) {
    if (error instanceof RangeError) return file; // a box that says more than it holds
    throw error;
  }
}
