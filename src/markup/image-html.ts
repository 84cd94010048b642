// The `<img>` that svc/image prints: the file as `src`, its responsive variants as `srcset` with
// the `sizes` that tells the browser which to fetch, its size (so the page keeps its layout while
// the image loads), the alt text in the output's language, and the insert's `class` and
// `loading`. Every value is escaped. Whatever prints a media file as an image (svc/image, Markdown
// images) goes through `imageHtml`, and warns through `imageSizesMissing` when it names no size.

import { escapeAttr } from "./escape.ts";
import type { MediaView } from "./types.ts";

export interface ImageParams {
  /** The `sizes` given (how wide the image is shown, as a media condition list). */
  sizes: string | null;
  /** The width the image is shown at, in CSS pixels (its height follows the original's ratio). */
  width?: number | null;
  cls: string | null;
  loading: string | null;
}

/** The width in CSS pixels the `width` parameter asks for: a positive integer (a number or its digits). */
export function displayWidthFrom(value: unknown): number | undefined {
  const n = typeof value === "string" && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  return typeof n === "number" && Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

/**
 * The `sizes` printed beside a `srcset` (a `srcset` of widths without `sizes` is read as `100vw`, so
 * a 40-pixel logo would fetch the widest variant): the one given; else, for an image shown `width`
 * pixels wide, `(max-width: <width>px) 100vw, <width>px` (as WordPress writes it); else `100vw`,
 * which the analysis warns about (`imageSizesMissing`).
 */
export function imageSizes(params: Pick<ImageParams, "sizes" | "width">): string {
  if (params.sizes !== null && params.sizes.trim() !== "") return params.sizes;
  const width = params.width ?? null;
  return width !== null ? `(max-width: ${width}px) 100vw, ${width}px` : "100vw";
}

/** Whether an image names how wide it is shown (else its `sizes` is `100vw`, warned). */
export function namesItsSize(params: Pick<ImageParams, "sizes" | "width">): boolean {
  return (params.sizes?.trim() ?? "") !== "" || (params.width ?? null) !== null;
}

/** The warning of an image that names no size (`subject`: how the writer wrote it, e.g. the insert). */
export function imageSizesMissing(subject: string): { code: "image_sizes_missing"; message: string } {
  return {
    code: "image_sizes_missing",
    message: `${subject} gives neither "sizes" nor "width": its srcset is printed with sizes="100vw", so browsers fetch the variant as wide as the window; give "sizes" or "width"`,
  };
}

/**
 * `srcset`: each variant as `<url> <width>w`, and the original at its own width when it is wider
 * than every variant (else a browser wanting more pixels than the widest variant would never be
 * offered them). Empty when the file has no variants.
 */
function srcset(media: MediaView): string {
  const { variants } = media;
  if (variants.length === 0) return "";
  const candidates = variants.map((variant) => `${variant.url} ${variant.width}w`);
  if (media.width !== null && media.width > variants[variants.length - 1]!.width)
    candidates.push(`${media.url} ${media.width}w`);
  return candidates.join(", ");
}

function attr(name: string, value: string | number | null): string {
  return value === null ? "" : ` ${name}="${escapeAttr(String(value))}"`;
}

/** The size printed: the original's, or the width asked for with the height at the original's ratio. */
function shownSize(media: MediaView, width: number | null): { width: number | null; height: number | null } {
  if (width === null) return { width: media.width, height: media.height };
  const height =
    media.width !== null && media.width > 0 && media.height !== null
      ? Math.max(1, Math.round((media.height * width) / media.width))
      : null;
  return { width, height };
}

export function imageHtml(media: MediaView, params: ImageParams): string {
  const set = srcset(media);
  const size = shownSize(media, params.width ?? null);
  return (
    `<img${attr("src", media.url)}` +
    // `sizes` means something only beside a `srcset` of widths.
    (set === "" ? "" : attr("srcset", set) + attr("sizes", imageSizes(params))) +
    attr("width", size.width) +
    attr("height", size.height) +
    attr("alt", media.alt) +
    attr("class", params.cls) +
    attr("loading", params.loading) +
    ` decoding="async">`
  );
}
