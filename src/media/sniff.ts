// What an upload's bytes are, told from its first bytes, never from its name or claimed type
// (docs/media.md, "Uploads"). Binary formats by their signatures (file-type); SVG, being text, by
// parsing the start as XML: it is SVG when the first element is an <svg> root with nothing but
// the XML declaration, a doctype, comments and white space before it. The allowed types and the
// group each belongs to (?type= filters) are listed here.
import { Parser } from "htmlparser2";

/** How many of the first bytes are sniffed: file-type needs about 4 KB; an SVG root may follow a long comment. */
export const SNIFF_BYTES = 64 * 1024;

export const MEDIA_KINDS = ["image", "video", "audio", "font", "document"] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];

/** The types an upload may be, each with its group. */
export const ALLOWED_TYPES: Readonly<Record<string, MediaKind>> = {
  "image/jpeg": "image",
  "image/png": "image",
  "image/webp": "image",
  "image/avif": "image",
  "image/gif": "image",
  "image/svg+xml": "image",
  "application/pdf": "document",
  "video/mp4": "video",
  "video/webm": "video",
  "audio/mpeg": "audio",
  "font/woff2": "font",
};

export const SVG_TYPE = "image/svg+xml";

export function isAllowedType(mime: string | null): mime is string {
  return mime !== null && Object.hasOwn(ALLOWED_TYPES, mime);
}

/** Other names clients give the allowed types. */
const TYPE_ALIASES: Readonly<Record<string, string>> = {
  "image/jpg": "image/jpeg",
  "image/pjpeg": "image/jpeg",
  "audio/mp3": "audio/mpeg",
  "application/font-woff2": "font/woff2",
  "application/x-font-woff2": "font/woff2",
};

/**
 * The type a client claims, as a bare lower-case type; null when it claims none: no
 * Content-Type, or application/octet-stream ("I do not know, sniff it").
 */
export function claimedType(contentType: string | null | undefined): string | null {
  const essence = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  if (essence === "" || essence === "application/octet-stream") return null;
  return Object.hasOwn(TYPE_ALIASES, essence) ? TYPE_ALIASES[essence]! : essence;
}

export interface Sniffed {
  /** The detected type (allowed or not), or null when the bytes are nothing known. */
  mime: string | null;
  /** An SVG's drawing size from its root's width and height or viewBox; null when it has none in pixels. */
  svgSize: { width: number; height: number } | null;
}

/** A length in user units or pixels (`120`, `120.5px`), rounded; null for %, em and the rest. */
function pixels(value: string | undefined): number | null {
  const match = /^\s*(\d+(?:\.\d+)?|\.\d+)\s*(?:px)?\s*$/.exec(value ?? "");
  if (!match) return null;
  const n = Math.round(Number(match[1]));
  return n >= 1 && n <= 1_000_000 ? n : null;
}

function svgSizeOf(attributes: Record<string, string>): { width: number; height: number } | null {
  const box = (attributes.viewBox ?? "")
    .trim()
    .split(/[\s,]+/)
    .map(Number);
  const boxed =
    box.length === 4 && box.every(Number.isFinite) && box[2]! > 0 && box[3]! > 0 ? { w: box[2]!, h: box[3]! } : null;
  let width = pixels(attributes.width);
  let height = pixels(attributes.height);
  // One side given: the other follows the viewBox's aspect ratio, as a browser draws it.
  if (width !== null && height === null && boxed) height = Math.max(1, Math.round((width * boxed.h) / boxed.w));
  if (height !== null && width === null && boxed) width = Math.max(1, Math.round((height * boxed.w) / boxed.h));
  if (width === null && height === null && boxed) {
    width = Math.max(1, Math.round(boxed.w));
    height = Math.max(1, Math.round(boxed.h));
  }
  return width !== null && height !== null ? { width, height } : null;
}

/** The root element of a text that starts as XML, with its attributes; null when it is not XML with a root in `text`. */
function xmlRoot(text: string): { name: string; attributes: Record<string, string> } | null {
  if (text.includes("\u0000") || !/^\s*</.test(text)) return null;
  let root: { name: string; attributes: Record<string, string> } | null = null;
  let spoiled = false;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (root === null && !spoiled) root = { name, attributes };
      },
      ontext(data) {
        // Text before the root: not an XML document (prose, a script, HTML's text).
        if (root === null && data.trim() !== "") spoiled = true;
      },
      oncdatastart() {
        if (root === null) spoiled = true;
      },
    },
    { xmlMode: true, recognizeCDATA: true },
  );
  parser.write(text);
  parser.end();
  return spoiled ? null : root;
}

/** The type of bytes from their start (`head`, up to SNIFF_BYTES of them). */
export async function sniff(head: Uint8Array): Promise<Sniffed> {
  const start = head.subarray(0, SNIFF_BYTES);
  // Binary signatures first: an image or a video is known from a few bytes, without decoding its
  // start as text and parsing it (which cost about 7% of a 5 MB JPEG's upload). Loaded on first
  // upload: a start of the service does not pay for it.
  const { fileTypeFromBuffer } = await import("file-type");
  const found = await fileTypeFromBuffer(start);
  if (found && found.mime !== "application/xml") return { mime: found.mime, svgSize: null };
  const text = new TextDecoder("utf-8", { fatal: false, ignoreBOM: false }).decode(start);
  const root = xmlRoot(text);
  if (root === null) return { mime: found?.mime ?? null, svgSize: null };
  const isSvg = root.name === "svg" || root.name.endsWith(":svg");
  return isSvg ? { mime: SVG_TYPE, svgSize: svgSizeOf(root.attributes) } : { mime: "application/xml", svgSize: null };
}
