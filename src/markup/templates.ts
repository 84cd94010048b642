// Bind values built from text and tokens, with filters (docs/markup.md "Templates and filters"):
// a bind value containing `{` is a template: each `{token}` or `{token | filter | filter:arg}` is
// replaced by the value, the text around it kept (`"mailto:{item.email}"`). Filters apply left to
// right; arguments are JSON strings or numbers. Formatting follows the page's language.
import type { AnalysisBuilder } from "./analysis.ts";
import type { Filter, TemplatePart, ValueSpec } from "./program.ts";
import { scalarText } from "./values.ts";

/** What compiling a template tells the analysis: the tokens it reads and its warnings. */
export type TemplateNotes = Pick<AnalysisBuilder, "warn" | "token">;

export const FILTERS = ["date", "number", "upper", "lower", "truncate", "default", "url", "json"] as const;
const DATE_STYLES = ["short", "medium", "long", "full"] as const;

/** One `{…}`: the token and its filters, or null when it is no placeholder (kept as text). */
function placeholder(a: TemplateNotes, inner: string, at: number): { token: string; filters: Filter[] } | null {
  const pieces = splitOutsideQuotes(inner, "|").map((piece) => piece.trim());
  const token = pieces[0]!;
  if (!/^[A-Za-z_][\w-]*(\.[^\s|{}]+)+$/.test(token)) return null;
  const filters: Filter[] = [];
  for (const piece of pieces.slice(1)) {
    const colon = piece.indexOf(":");
    const name = (colon < 0 ? piece : piece.slice(0, colon)).trim();
    if (!(FILTERS as readonly string[]).includes(name)) {
      a.warn("unknown_filter", `"${name}" is not a filter (${FILTERS.join(", ")}); it is left out`, at, {
        filter: name,
      });
      continue;
    }
    let arg: string | number | null = null;
    if (colon >= 0) {
      try {
        const value = JSON.parse(piece.slice(colon + 1).trim()) as unknown;
        if (typeof value !== "string" && typeof value !== "number") throw new Error("not a string or number");
        arg = value;
      } catch {
        a.warn(
          "bad_filter_argument",
          `the argument of "${name}" must be a JSON string or number; the filter is left out`,
          at,
          { filter: name },
        );
        continue;
      }
    }
    filters.push({ name, arg });
  }
  return { token, filters };
}

function splitOutsideQuotes(text: string, separator: string): string[] {
  const out: string[] = [];
  let current = "";
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      current += c;
      if (c === "\\") current += text[++i] ?? "";
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") {
      quote = c;
      current += c;
    } else if (c === separator) {
      out.push(current);
      current = "";
    } else current += c;
  }
  out.push(current);
  return out;
}

/** A bind value as compiled: a plain token, or a template (recording every token it reads). */
export function valueSpec(a: TemplateNotes, value: string, at: number): ValueSpec {
  if (!value.includes("{")) {
    a.token(value, at);
    return value;
  }
  const parts: TemplatePart[] = [];
  let text = "";
  let i = 0;
  while (i < value.length) {
    const open = value.indexOf("{", i);
    if (open < 0) break;
    const close = value.indexOf("}", open + 1);
    if (close < 0) break;
    const found = placeholder(a, value.slice(open + 1, close), at);
    if (found === null) {
      text += value.slice(i, close + 1);
    } else {
      text += value.slice(i, open);
      if (text !== "") parts.push({ text });
      text = "";
      a.token(found.token, at);
      parts.push(found);
    }
    i = close + 1;
  }
  text += value.slice(i);
  if (text !== "") parts.push({ text });
  return { parts };
}

/** An ISO 8601 date or date-time, or `YYYY-MM-DD HH:MM:SS` (GMT), as a Date; undefined when it is neither. */
function dateOf(text: string): Date | undefined {
  const gmt = /^(\d{4}-\d\d-\d\d)[ T](\d\d:\d\d(:\d\d(\.\d+)?)?)$/.exec(text);
  const iso = gmt ? `${gmt[1]}T${gmt[2]}Z` : /^\d{4}-\d\d-\d\d$/.test(text) ? `${text}T00:00:00Z` : text;
  if (!/^\d{4}-\d\d-\d\d/.test(iso)) return undefined;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** The language formats follow: a valid BCP 47 tag, else English. */
export function localeOf(lang: string): string {
  try {
    return Intl.getCanonicalLocales(lang)[0] ?? "en";
  } catch {
    return "en";
  }
}

/** Applies one filter to a value (undefined: no value). */
function applyFilter(value: unknown, filter: Filter, lang: string): unknown {
  const text = scalarText(value);
  switch (filter.name) {
    case "default":
      return text === undefined || text === "" ? (filter.arg === null ? "" : String(filter.arg)) : value;
    case "json":
      return value === undefined ? undefined : JSON.stringify(value);
    case "upper":
      return text?.toLocaleUpperCase(localeOf(lang));
    case "lower":
      return text?.toLocaleLowerCase(localeOf(lang));
    case "url":
      return text === undefined ? undefined : encodeURIComponent(text);
    case "truncate": {
      const n =
        typeof filter.arg === "number"
          ? Math.max(0, Math.floor(filter.arg))
          : typeof filter.arg === "string"
            ? Math.max(0, Number.parseInt(filter.arg, 10) || 0)
            : undefined;
      if (text === undefined || n === undefined) return text;
      const chars = [...text];
      return chars.length > n ? `${chars.slice(0, n).join("")}…` : text;
    }
    case "number": {
      const n =
        typeof value === "number" ? value : text !== undefined && text.trim() !== "" ? Number(text) : Number.NaN;
      if (!Number.isFinite(n)) return text;
      const digits = typeof filter.arg === "number" ? Math.min(20, Math.max(0, Math.floor(filter.arg))) : undefined;
      return new Intl.NumberFormat(
        localeOf(lang),
        digits === undefined ? {} : { minimumFractionDigits: digits, maximumFractionDigits: digits },
      ).format(n);
    }
    case "date": {
      const date = text === undefined ? undefined : dateOf(text.trim());
      if (date === undefined) return text;
      const style = (DATE_STYLES as readonly unknown[]).includes(filter.arg)
        ? (filter.arg as (typeof DATE_STYLES)[number])
        : "medium";
      return new Intl.DateTimeFormat(localeOf(lang), { dateStyle: style, timeZone: "UTC" }).format(date);
    }
    default:
      return value;
  }
}

/**
 * A template's text: each token's value (read by `read`) run through its filters; a token that
 * ends with no value prints nothing there and is reported to `unresolved`.
 */
export function renderTemplate(
  parts: readonly TemplatePart[],
  read: (token: string) => unknown,
  lang: string,
  unresolved: (token: string) => void,
): string {
  let out = "";
  for (const part of parts) {
    if ("text" in part) {
      out += part.text;
      continue;
    }
    let value = read(part.token);
    for (const filter of part.filters) value = applyFilter(value, filter, lang);
    const text = scalarText(value);
    if (text === undefined) unresolved(part.token);
    out += text ?? "";
  }
  return out;
}
