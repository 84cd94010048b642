// The `<img>` that svc/image prints: the file as `src`, its responsive variants as `srcset`,
// the original's size (so the page keeps its layout while the image loads), the alt text in the
// output's language, and the insert's `sizes`, `class` and `loading`. Every value is escaped.

import { escapeAttr } from "./escape.ts";
import type { MediaView } from "./types.ts";

export interface ImageParams {
  sizes: string | null;
  cls: string | null;
  loading: string | null;
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

export function imageHtml(media: MediaView, params: ImageParams): string {
  const set = srcset(media);
  return (
    `<img${attr("src", media.url)}` +
    // `sizes` means something only beside a `srcset` of widths.
    (set === "" ? "" : attr("srcset", set) + attr("sizes", params.sizes)) +
    attr("width", media.width) +
    attr("height", media.height) +
    attr("alt", media.alt) +
    attr("class", params.cls) +
    attr("loading", params.loading) +
    ` decoding="async">`
  );
}
