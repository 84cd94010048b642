// EXIF, as far as keeping an image private needs it: the orientation tag read out of a camera's
// EXIF (a TIFF structure), and a new EXIF holding that tag alone. An upload's EXIF is replaced by
// it (docs/media.md, "Private by default"): the photo still stands as it was taken, in browsers
// and in its variants, without the position, camera, serial number or author beside it.

const ORIENTATION_TAG = 0x0112;
const SHORT = 3;
/** What some writers put before the TIFF structure (JPEG's APP1 always; WebP's and PNG's at times). */
export const EXIF_PREFIX = Buffer.from("Exif\0\0", "latin1");

/** The TIFF structure of an EXIF block, its `Exif\0\0` prefix dropped if it has one. */
export function tiffOf(exif: Buffer): Buffer {
  return exif.subarray(0, EXIF_PREFIX.length).equals(EXIF_PREFIX) ? exif.subarray(EXIF_PREFIX.length) : exif;
}

/** The orientation (1–8) IFD0 of a TIFF structure names; null when it names none or cannot be read. */
export function orientationOf(tiff: Buffer): number | null {
  if (tiff.length < 8) return null;
  const order = tiff.toString("latin1", 0, 2);
  if (order !== "II" && order !== "MM") return null;
  const little = order === "II";
  const u16 = (at: number) => (little ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const u32 = (at: number) => (little ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
  if (u16(2) !== 42) return null;
  const ifd = u32(4);
  if (ifd + 2 > tiff.length) return null;
  const count = u16(ifd);
  for (let entry = 0; entry < count; entry++) {
    const at = ifd + 2 + entry * 12;
    if (at + 12 > tiff.length) return null;
    if (u16(at) !== ORIENTATION_TAG) continue;
    if (u16(at + 2) !== SHORT || u32(at + 4) < 1) return null;
    const value = u16(at + 8);
    return value >= 1 && value <= 8 ? value : null;
  }
  return null;
}

/** A TIFF structure whose IFD0 holds only `orientation` (26 bytes, big-endian). */
export function orientationTiff(orientation: number): Buffer {
  const tiff = Buffer.alloc(26);
  tiff.write("MM", 0, "latin1");
  tiff.writeUInt16BE(42, 2);
  tiff.writeUInt32BE(8, 4); // IFD0 right after the header
  tiff.writeUInt16BE(1, 8); // one entry
  tiff.writeUInt16BE(ORIENTATION_TAG, 10);
  tiff.writeUInt16BE(SHORT, 12);
  tiff.writeUInt32BE(1, 14); // one value, held in the entry itself
  tiff.writeUInt16BE(orientation, 18);
  // bytes 20–21 pad the value; 22–25: no next IFD
  return tiff;
}

/**
 * What replaces an EXIF block: the TIFF structure with its orientation alone, or nothing when it
 * names none or the upright one (1), since then there is nothing to keep.
 */
export function keptExif(exif: Buffer): Buffer | null {
  const orientation = orientationOf(tiffOf(exif));
  return orientation === null || orientation === 1 ? null : orientationTiff(orientation);
}
