// Parses the text of one HTML comment into an insert (docs/markup.md, "Inserts"):
//   <!-- svc/<name> [{json object}] /-->     self-closing insert (also op/<name>)
//   <!-- svc/repeat {json} -->               block open (only svc/repeat is a block)
//   <!-- /svc/repeat -->                     block close
// The caller hands over the comment data between `<!--` and `-->`; anything that does not
// match is an ordinary comment and stays plain markup.

export type InsertForm = "self" | "open" | "close";

export interface ParsedInsert {
  /** `svc/menu`, `op/lang-switcher`, ... */
  full: string;
  /** The name without namespace (`menu`): output markers always use `op/<name>`. */
  name: string;
  form: InsertForm;
  /** Parameter text as written (trimmed), or null when there is none. */
  paramsText: string | null;
  /** Offsets of the parameter text in the markup (equal when there is none). */
  paramsStart: number;
  paramsEnd: number;
  /** The parsed parameters; null when absent or unparseable. */
  params: Record<string, unknown> | null;
  /** True when parameter text is present but is not a JSON object (or nests too deep). */
  paramsError: boolean;
  /** True when the parameters nest deeper than MAX_JSON_DEPTH: never parsed (paramsError too). */
  paramsTooDeep: boolean;
}

import { MAX_JSON_DEPTH, nestedDeeperThan } from "./json-scan.ts";

const SLASH = 0x2f;
const BRACE = 0x7b;

/** HTML white space (space, LF, tab, CR, FF): the markup's separators, also around attributes. */
export function isWs(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d || c === 0x0c;
}

function isNameChar(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x5f;
}

/**
 * Parses JSON text that must be an object; undefined otherwise, and "too_deep" (without parsing
 * it) when it nests deeper than MAX_JSON_DEPTH, so no deep value ever sits in a program.
 */
export function parseJsonObject(text: string): Record<string, unknown> | "too_deep" | undefined {
  if (text.charCodeAt(0) !== BRACE) return undefined;
  if (nestedDeeperThan(text, MAX_JSON_DEPTH)) return "too_deep";
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/**
 * Parses comment data `html[start, end)` (the text between `<!--` and `-->`).
 * Returns null when the comment is not an insert.
 */
export function parseInsert(html: string, start: number, end: number): ParsedInsert | null {
  let i = start;
  while (i < end && isWs(html.charCodeAt(i))) i++;
  // Cheap rejection of ordinary comments: an insert starts with `s`, `o` or `/`.
  const first = html.charCodeAt(i);
  if (first !== 0x73 && first !== 0x6f && first !== SLASH) return null;
  let close = false;
  if (first === SLASH) {
    close = true;
    i++;
  }
  let nsEnd: number;
  if (html.startsWith("svc/", i)) nsEnd = i + 4;
  else if (html.startsWith("op/", i)) nsEnd = i + 3;
  else return null;
  const nsStart = i;
  i = nsEnd;
  while (i < end && isNameChar(html.charCodeAt(i))) i++;
  if (i === nsEnd) return null;
  const nameEnd = i;

  // Trim the tail and take off the self-closing slash.
  let j = end;
  while (j > nameEnd && isWs(html.charCodeAt(j - 1))) j--;
  let selfClosing = false;
  if (j > nameEnd && html.charCodeAt(j - 1) === SLASH) {
    selfClosing = true;
    j--;
    while (j > nameEnd && isWs(html.charCodeAt(j - 1))) j--;
  }
  // The name must end at white space, at `{`, or at the closing slash itself.
  if (nameEnd < end) {
    const c = html.charCodeAt(nameEnd);
    if (!isWs(c) && c !== BRACE && !(c === SLASH && selfClosing && j === nameEnd)) return null;
  }
  let k = nameEnd;
  while (k < j && isWs(html.charCodeAt(k))) k++;

  const full = html.slice(nsStart, nameEnd);
  const name = html.slice(nsEnd, nameEnd);
  if (close) {
    // A block close carries no parameters.
    if (k < j) return null;
    return {
      full,
      name,
      form: "close",
      paramsText: null,
      paramsStart: k,
      paramsEnd: k,
      params: null,
      paramsError: false,
      paramsTooDeep: false,
    };
  }
  let paramsText: string | null = null;
  let params: Record<string, unknown> | null = null;
  let paramsError = false;
  let paramsTooDeep = false;
  if (k < j) {
    paramsText = html.slice(k, j);
    const parsed = parseJsonObject(paramsText);
    if (parsed === undefined) paramsError = true;
    else if (parsed === "too_deep") paramsError = paramsTooDeep = true;
    else params = parsed;
  } else {
    j = k;
  }
  return {
    full,
    name,
    form: selfClosing ? "self" : "open",
    paramsText,
    paramsStart: k,
    paramsEnd: j,
    params,
    paramsError,
    paramsTooDeep,
  };
}

/** The inserts this module knows, by full name. */
export type InsertKind =
  | "frame"
  | "partial"
  | "menu"
  | "repeat"
  | "lang"
  | "image"
  | "styles"
  | "seo"
  | "sidebar"
  | "form"
  | "search"
  | "pager"
  | "toc"
  | "pagination"
  | "layout"
  | "slot"
  | "block"
  | "if"
  | "else";
export const KNOWN_INSERTS: ReadonlyMap<string, InsertKind> = new Map<string, InsertKind>([
  ["svc/frame", "frame"],
  ["svc/partial", "partial"],
  ["svc/menu", "menu"],
  ["op/menu", "menu"],
  ["svc/repeat", "repeat"],
  ["op/lang-switcher", "lang"],
  ["svc/image", "image"],
  ["svc/styles", "styles"],
  ["svc/seo", "seo"],
  ["svc/sidebar", "sidebar"],
  ["svc/form", "form"],
  ["svc/search", "search"],
  ["svc/pager", "pager"],
  ["svc/toc", "toc"],
  ["svc/pagination", "pagination"],
  ["svc/layout", "layout"],
  ["svc/slot", "slot"],
  ["svc/block", "block"],
  ["svc/if", "if"],
  ["svc/else", "else"],
]);

/** Keys that name an embedded frame, in the order they are tried. `name` is the main key. */
export const REF_KEYS = ["name", "ref", "frame", "slug", "id"] as const;
export const REF_KEY_SET: ReadonlySet<string> = new Set(REF_KEYS);
