// The token grammar (docs/markup.md, "Tokens") and which data source each token or repeat source reads.
import { sourceName, sourceText, type SourceKind } from "./source-name.ts";

const SITE_KEYS = new Set(["name", "tagline", "url", "lang"]);
const PAGE_KEYS = new Set([
  "title",
  "url",
  "path",
  "lang",
  "content",
  "parent_title",
  "parent_url",
  "updated_at",
  "created_at",
  "date",
]);
/** `t.<key>`: dot-separated segments of letters, digits, _ and - (strings per language). */
const STRING_KEY = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/;
const DATA_TOKEN = /^data\.([^.]+)\.(?:0|[1-9]\d*)\.[^.].*$/;
/** What a media token prints of a file (`media.<ref>.<field>`). */
export type MediaField = "url" | "alt" | "width" | "height";
const MEDIA_FIELDS: ReadonlySet<string> = new Set<MediaField>(["url", "alt", "width", "height"]);

export interface TokenInfo {
  /** The source this token reads (`site`, `settings`, `page`, `data.<set>`, `media.<ref>`), null for item/vars/unknown. */
  source: string | null;
  /** Whether the token follows the grammar. */
  valid: boolean;
}

function nonEmptySegments(path: string): boolean {
  if (path === "") return false;
  let start = 0;
  for (;;) {
    const dot = path.indexOf(".", start);
    if (dot === start) return false;
    if (dot < 0) return start < path.length;
    start = dot + 1;
  }
}

/**
 * The parts of a media token `media.<ref>.<field>`: the field is the last segment, so a ref may
 * itself hold dots. Undefined when the token is not one (no ref, or a field outside url, alt,
 * width, height).
 */
export function mediaToken(token: string): { ref: string; field: MediaField } | undefined {
  if (!token.startsWith("media.")) return undefined;
  const last = token.lastIndexOf(".");
  const ref = token.slice(6, last);
  const field = token.slice(last + 1);
  return last > 6 && nonEmptySegments(ref) && MEDIA_FIELDS.has(field) ? { ref, field: field as MediaField } : undefined;
}

/** Classifies a token such as `page.title`, `item.author.name` or `data.team.0.name`. */
export function classifyToken(token: string): TokenInfo {
  const dot = token.indexOf(".");
  if (dot <= 0) return { source: null, valid: false };
  const ns = token.slice(0, dot);
  const rest = token.slice(dot + 1);
  switch (ns) {
    case "site":
      return { source: "site", valid: SITE_KEYS.has(rest) };
    case "settings":
      return { source: "settings", valid: nonEmptySegments(rest) };
    case "page":
      return {
        source: "page",
        valid: PAGE_KEYS.has(rest) || (rest.startsWith("fields.") && nonEmptySegments(rest.slice(7))),
      };
    case "item":
    case "vars":
      return { source: null, valid: nonEmptySegments(rest) };
    case "data": {
      const m = DATA_TOKEN.exec(token);
      if (m) return { source: sourceText.data(m[1]), valid: nonEmptySegments(rest) };
      const set = rest.split(".")[0];
      return { source: set ? sourceText.data(set) : null, valid: false };
    }
    case "t":
      // A string in the page's language: each key is a source of its own (strings change per key).
      return STRING_KEY.test(rest) ? { source: sourceText.text(rest), valid: true } : { source: null, valid: false };
    case "media": {
      // A token outside the grammar reads nothing, so it names no source either.
      const parts = mediaToken(token);
      return parts ? { source: sourceText.media(parts.ref), valid: true } : { source: null, valid: false };
    }
    default:
      return { source: null, valid: false };
  }
}

/** Sources a repeat can name besides data sets; every other bare name is a data set. */
const REPEATABLE = new Set<SourceKind>(["pages", "children", "breadcrumbs", "languages", "site", "menu", "data"]);

export type RepeatSource =
  /** Read through RenderContext.items (and .menu for menu.<location>). */
  | { kind: "context"; source: string }
  /** Iterates an array inside the current item, e.g. `item.children` of a menu node. */
  | { kind: "item"; path: string; token: string };

/**
 * Normalises a svc/repeat `source`: `pages`, `pages.children`, `breadcrumbs`, `languages`, `site`,
 * `menu.<location>` and `data.<set>` stay as they are, `item.<path>` reads the current item, and
 * a bare name `x` is the data set `data.x`.
 */
export function normalizeRepeatSource(source: string): RepeatSource {
  if (source.startsWith("item.") && source.length > 5) return { kind: "item", path: source.slice(5), token: source };
  if (REPEATABLE.has(sourceName(source).kind)) return { kind: "context", source };
  return { kind: "context", source: sourceText.data(source) };
}

/** Sources whose content depends on the page being shown: a frame reading one renders on request. */
export const PAGE_SOURCES = new Set(["page", "pages.children", "breadcrumbs"]);
