// Turns a parsed insert into its program operation: checks the parameters each known insert
// needs, records what the analysis reports about it (sources, live reasons, frame_refs), and
// precomputes the output markers.

import { sourceText } from "./source-name.ts";
import type { AnalysisBuilder } from "./analysis.ts";
import { REF_KEY_SET, REF_KEYS, type ParsedInsert } from "./insert-grammar.ts";
import type { InsertOp } from "./program.ts";
import { displayWidthFrom, imageSizesMissing, namesItsSize } from "./image-html.ts";

/** `<!-- op/<name> <params as written> -->`: the namespace is always op (svc/menu is marked op/menu). */
export function markerOpen(ins: ParsedInsert): string {
  return ins.paramsText === null ? `<!-- op/${ins.name} -->` : `<!-- op/${ins.name} ${ins.paramsText} -->`;
}

/** `<!-- /op/<name> -->`. */
export function markerClose(ins: ParsedInsert): string {
  return `<!-- /op/${ins.name} -->`;
}

/** A non-negative integer from a number or a numeric string; undefined when it is neither. */
export function toCount(value: unknown): number | undefined {
  const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  if (typeof n !== "number" || !Number.isFinite(n) || n < 0) return undefined;
  return Math.floor(n);
}

/** The string a match value is compared as (match.ts: values compare as strings). */
export function matchText(value: unknown): string | undefined {
  if (value === null) return "null";
  switch (typeof value) {
    case "string":
      return value;
    case "number":
    case "boolean":
      return String(value);
    default:
      return undefined;
  }
}

/** An insert operation with no parameters applied yet. */
export function insertOp(kind: InsertOp["kind"], ins: ParsedInsert, at: number): InsertOp {
  return {
    t: "insert",
    kind,
    full: ins.full,
    at,
    open: markerOpen(ins),
    close: markerClose(ins),
    refs: [],
    vars: null,
    location: "",
    depth: 0,
    cls: null,
    media: "",
    sizes: null,
    width: null,
    loading: null,
    styles: [],
    name: "",
    levels: [],
    labels: null,
  };
}

/** Warns that the insert lacks `param` (`what` says it for people); the warning names the insert and the parameter. */
export function missing(a: AnalysisBuilder, ins: ParsedInsert, param: string, what: string, at: number): void {
  a.warn("insert_param_missing", `${ins.full} needs ${what}; it prints nothing`, at, { insert: ins.full, param });
}

/** Warns that the insert's `param` has a wrong value; the warning names the insert and the parameter. */
export function invalid(a: AnalysisBuilder, ins: ParsedInsert, param: string, what: string, at: number): void {
  a.warn("insert_param_invalid", `${ins.full}: ${what}; it prints nothing`, at, { insert: ins.full, param });
}

/**
 * The optional text parameters `keys` of an insert, those given; null (with `insert_param_invalid`
 * for the first that is no string) when one is given as anything else.
 */
export function textParams<K extends string>(
  a: AnalysisBuilder,
  ins: ParsedInsert,
  keys: readonly K[],
  at: number,
): Partial<Record<K, string>> | null {
  const params = ins.params ?? {};
  const out: Partial<Record<K, string>> = {};
  for (const key of keys) {
    const value = params[key];
    if (value === undefined || value === null) continue;
    if (typeof value !== "string") {
      invalid(a, ins, key, `"${key}" must be a string`, at);
      return null;
    }
    out[key] = value;
  }
  return out;
}

/**
 * svc/frame and svc/partial: lists the insert in frame_refs (reference keys as written, numbers
 * stringified), keeps the references in the order they are tried, and the partial's `with`.
 */
export function frameOp(a: AnalysisBuilder, kind: "frame" | "partial", ins: ParsedInsert, at: number): InsertOp {
  const params = ins.params ?? {};
  const keys: Array<[string, string]> = [];
  for (const key of Object.keys(params)) {
    if (!REF_KEY_SET.has(key)) continue;
    const v = params[key];
    if (typeof v === "string") keys.push([key, v]);
    else if (typeof v === "number" && Number.isFinite(v)) keys.push([key, String(v)]);
  }
  a.frameRefs.push({ insert: ins.full as "svc/frame" | "svc/partial", at, keys });
  const op = insertOp(kind, ins, at);
  for (const key of REF_KEYS) {
    const found = keys.find((pair) => pair[0] === key);
    if (found && found[1] !== "") op.refs.push(found[1]);
  }
  if (op.refs.length === 0) {
    missing(a, ins, "name", `a frame reference ("name", or "ref", "frame", "slug", "id")`, at);
    op.kind = "invalid";
    return op;
  }
  if (kind === "partial" && params.with !== undefined) {
    const w = params.with;
    if (w === null || typeof w !== "object" || Array.isArray(w)) {
      invalid(a, ins, "with", `"with" must be an object`, at);
      op.kind = "invalid";
      return op;
    }
    op.vars = w as Record<string, unknown>;
  }
  return op;
}

/** op/lang-switcher: an optional `class` for the list. */
export function langOp(a: AnalysisBuilder, ins: ParsedInsert, at: number): InsertOp {
  const op = insertOp("lang", ins, at);
  const cls = ins.params?.class;
  if (cls !== undefined && cls !== null) {
    if (typeof cls !== "string") {
      invalid(a, ins, "class", `"class" must be a string`, at);
      op.kind = "invalid";
      return op;
    }
    op.cls = cls;
  }
  return op;
}

/** svc/menu and op/menu: `location` (required), `depth` (levels printed, 0 = all) and `class`. */
export function menuOp(a: AnalysisBuilder, ins: ParsedInsert, at: number): InsertOp {
  const params = ins.params ?? {};
  const op = insertOp("menu", ins, at);
  const location = params.location;
  if (typeof location !== "string" || location.trim() === "") {
    missing(a, ins, "location", `"location"`, at);
    op.kind = "invalid";
    return op;
  }
  op.location = location.trim();
  a.source(sourceText.menu(op.location), at);
  if (params.depth !== undefined && params.depth !== null) {
    const depth = toCount(params.depth);
    if (depth === undefined) {
      invalid(a, ins, "depth", `"depth" must be a non-negative number`, at);
      op.kind = "invalid";
      return op;
    }
    op.depth = depth;
  }
  if (params.class !== undefined && params.class !== null) {
    if (typeof params.class !== "string") {
      invalid(a, ins, "class", `"class" must be a string`, at);
      op.kind = "invalid";
      return op;
    }
    op.cls = params.class;
  }
  return op;
}

/**
 * svc/image: `media` (required: an id or slug, a number taken as its text), the optional strings
 * `sizes`, `class` and `loading` of the `<img>` it prints, and `width` (the width it is shown at, in
 * CSS pixels). Without `sizes` or `width` its `sizes` is `100vw`, warned (image_sizes_missing).
 * The frame reads `media.<ref>`.
 */
export function imageOp(a: AnalysisBuilder, ins: ParsedInsert, at: number): InsertOp {
  const params = ins.params ?? {};
  const op = insertOp("image", ins, at);
  const media = params.media;
  const ref =
    typeof media === "string"
      ? media.trim()
      : typeof media === "number" && Number.isSafeInteger(media) && media > 0
        ? String(media)
        : "";
  if (ref === "") {
    if (media === undefined || media === null || typeof media === "string")
      missing(a, ins, "media", `"media" (an id or slug)`, at);
    else invalid(a, ins, "media", `"media" must be an id or slug`, at);
    op.kind = "invalid";
    return op;
  }
  op.media = ref;
  const texts = textParams(a, ins, ["sizes", "class", "loading"], at);
  if (texts === null) {
    op.kind = "invalid";
    return op;
  }
  if (texts.class !== undefined) op.cls = texts.class;
  if (texts.sizes !== undefined) op.sizes = texts.sizes;
  if (texts.loading !== undefined) op.loading = texts.loading;
  if (params.width !== undefined && params.width !== null) {
    const width = displayWidthFrom(params.width);
    if (width === undefined) {
      invalid(a, ins, "width", `"width" must be a positive whole number of pixels`, at);
      op.kind = "invalid";
      return op;
    }
    op.width = width;
  }
  if (!namesItsSize(op)) {
    const { code, message } = imageSizesMissing(ins.full);
    a.warn(code, message, at);
  }
  // Only an insert that prints reads the file (an invalid one never will).
  a.source(sourceText.media(ref), at);
  return op;
}

/**
 * svc/styles: `name` (one stylesheet) or `names` (several, in order), not both; each a non-empty
 * string. The frame reads `style.<name>` of each.
 */
export function stylesOp(a: AnalysisBuilder, ins: ParsedInsert, at: number): InsertOp {
  const params = ins.params ?? {};
  const op = insertOp("styles", ins, at);
  const { name, names } = params;
  const given = name !== undefined && name !== null ? [name] : names;
  if (
    (name !== undefined && name !== null && names !== undefined && names !== null) ||
    (given !== undefined && given !== null && !Array.isArray(given))
  ) {
    invalid(a, ins, "names", `give "name" (a stylesheet) or "names" (a list of them), not both`, at);
    op.kind = "invalid";
    return op;
  }
  if (!Array.isArray(given) || given.length === 0) {
    missing(a, ins, "name", `"name" or "names" (stylesheet names)`, at);
    op.kind = "invalid";
    return op;
  }
  for (const value of given) {
    const style = typeof value === "string" ? value.trim() : "";
    if (style === "") {
      invalid(a, ins, "names", `stylesheet names must be non-empty strings`, at);
      op.kind = "invalid";
      return op;
    }
    op.styles.push(style);
  }
  for (const style of op.styles) a.source(sourceText.style(style), at);
  return op;
}
