// Public addresses of media files and their variants (docs/media.md), one rule for the API's records,
// the public site that serves them and the renderer that prints them.
//
// - A file: `/media/<p>/<filename>`, `<p>` the first 16 hex digits of its sha256, so the address
//   changes when the bytes do (and may be cached for a year), `<filename>` percent-encoded.
// - A variant of a raster image: `/media/<p>/<stem>-<width>w.webp`, `<stem>` the file name without
//   its extension; WebP at each of VARIANT_WIDTHS not wider than the original, same aspect ratio.
//   (AVIF is left out: sharp encodes it several times slower than WebP.)
// Addresses are site-relative: a file answers on its own site's domains only.

export const VARIANT_WIDTHS = [320, 640, 1024, 1600, 2400] as const;

/**
 * The largest image (width × height) that gets variants: past it sharp refuses to decode
 * (limitInputPixels, media/variants.ts), so a decompression bomb — a few MB of PNG that would
 * decode to gigabytes — costs nothing, and no variant is listed that could not be made. 100 MP is
 * more than any camera but the 200 MP phones; the file itself still serves.
 */
export const MAX_VARIANT_SOURCE_PIXELS = 100_000_000;

/** The sniffed types that get variants (SVG, being a drawing, does not). */
export const RASTER_TYPES = new Set(["image/jpeg", "image/png", "image/webp", "image/avif", "image/gif"]);

export const PREFIX_LENGTH = 16;

export interface Variant {
  width: number;
  height: number;
  mime: "image/webp";
  url: string;
}

export interface Addressable {
  sha256: string;
  filename: string;
  mime: string;
  width: number | null;
  height: number | null;
}

export function addressPrefix(sha256: string): string {
  return sha256.slice(0, PREFIX_LENGTH);
}

export function fileUrl(media: Pick<Addressable, "sha256" | "filename">): string {
  return `/media/${addressPrefix(media.sha256)}/${encodeURIComponent(media.filename)}`;
}

/** The file name without its last extension (`holiday.photo.png` → `holiday.photo`). */
export function fileStem(filename: string): string {
  const dot = filename.lastIndexOf(".");
  return dot > 0 ? filename.slice(0, dot) : filename;
}

/** The name a variant is served and stored under, e.g. `holiday-640w.webp`. */
export function variantName(filename: string, width: number): string {
  return `${fileStem(filename)}-${width}w.webp`;
}

/** The variants a raster image has, narrowest first; none for other files. */
export function variantsOf(media: Addressable): Variant[] {
  if (!RASTER_TYPES.has(media.mime) || !media.width || !media.height) return [];
  const { width, height } = media;
  if (width * height > MAX_VARIANT_SOURCE_PIXELS) return [];
  return VARIANT_WIDTHS.filter((w) => w <= width).map((w) => ({
    width: w,
    height: Math.max(1, Math.round((w * height) / width)),
    mime: "image/webp",
    url: `/media/${addressPrefix(media.sha256)}/${encodeURIComponent(variantName(media.filename, w))}`,
  }));
}
