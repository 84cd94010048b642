// A page as its file (docs/cli.md, "The folder"): what an author writes of it — title, status,
// date, frame, order, tags, feed, format, the pages it is a translation of, SEO, fields, content —
// and the body of the write that makes the server's page what the file says. Pure.
import type { Json } from "../canonical.ts";
import { bad, isRecord, refuseUnknown, type Rec } from "../file-shape.ts";
import type { SiteFacts } from "../files.ts";

export const PAGE_KEYS = [
  "title",
  "status",
  "date",
  "frame",
  "menu_order",
  "tags",
  "feed",
  "content_format",
  "translations",
  "seo",
  "fields",
  "content",
] as const;
const SEO_KEYS = ["title", "description", "canonical", "noindex", "og_image"] as const;
const FORMATS = ["html", "markdown"];

/**
 * The page's translations as a file names them: `{lang: path}` for every other page of its
 * translation group (its path without a language prefix: the language says it). A page the folder
 * cannot name (trashed) is left out.
 */
export function translationsOf(page: Rec, facts: SiteFacts): Record<string, string> {
  const group = isRecord(page.translations) ? page.translations : {};
  const out: Record<string, string> = {};
  for (const [lang, id] of Object.entries(group).sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (lang === page.lang || Number(id) === Number(page.id)) continue;
    const other = facts.pages.get(Number(id));
    if (other) out[lang] = other.path;
  }
  return out;
}

/** A page record as its file: `pages/<lang>/<path>.json` (or `.md`, kinds/markdown-page.ts). */
export function pageFile(page: Rec, facts: SiteFacts): Json {
  const seo = isRecord(page.seo) ? page.seo : {};
  return {
    title: String(page.title ?? ""),
    status: String(page.status ?? "publish"),
    date: typeof page.date === "string" ? page.date : null,
    frame: typeof page.frame === "string" ? page.frame : null,
    menu_order: typeof page.menu_order === "number" ? page.menu_order : 0,
    tags: Array.isArray(page.tags) ? page.tags.map(String) : [],
    feed: page.feed === true,
    content_format: page.content_format === "markdown" ? "markdown" : "html",
    translations: translationsOf(page, facts),
    seo: Object.fromEntries(SEO_KEYS.map((key) => [key, (seo[key] ?? (key === "noindex" ? false : null)) as Json])),
    fields: (isRecord(page.fields) ? page.fields : {}) as Json,
    content: String(page.content ?? ""),
  };
}

/** The translations a page file names, checked: `{lang: path}`. */
export function fileTranslations(key: string, value: Rec): Record<string, string> {
  const given = value.translations ?? {};
  if (!isRecord(given) || !Object.values(given).every((path) => typeof path === "string" && path.startsWith("/")))
    throw bad(key, 'translations: an object {"<lang>": "/<path>"} naming the page\'s translations');
  return given as Record<string, string>;
}

/**
 * The body of a page write from its file (every field, so the server ends up as the file says).
 * `date` is sent only when the file has one: without it the service dates a published page itself.
 * Translations are linked by their own call (kinds/translations.ts), not sent here.
 */
export function pageBody(key: string, value: Json): Rec {
  if (!isRecord(value)) throw bad(key, `a page file is a JSON object {${PAGE_KEYS.join(", ")}}`);
  if (typeof value.title !== "string" || value.title.trim() === "") throw bad(key, "title: a page needs a title");
  refuseUnknown(key, value, PAGE_KEYS, "a page file");
  if (value.fields !== undefined && !isRecord(value.fields)) throw bad(key, "fields: an object");
  if (value.seo !== undefined && !isRecord(value.seo)) throw bad(key, "seo: an object");
  if (value.tags !== undefined && value.tags !== null && !Array.isArray(value.tags))
    throw bad(key, "tags: a list of texts");
  const format = value.content_format ?? "html";
  if (typeof format !== "string" || !FORMATS.includes(format)) throw bad(key, "content_format: html or markdown");
  const markdownFile = key.endsWith(".md");
  if (format === "markdown" && !markdownFile)
    throw bad(key, `a Markdown page is a .md file: move it to ${key.replace(/\.json$/, ".md")}`);
  if (format !== "markdown" && markdownFile) throw bad(key, "a .md page is Markdown: content_format is markdown");
  fileTranslations(key, value);
  const seo = isRecord(value.seo) ? value.seo : {};
  return {
    title: value.title,
    status: value.status ?? "publish",
    ...(value.date !== undefined && value.date !== null ? { date: value.date } : {}),
    frame: value.frame ?? null,
    menu_order: value.menu_order ?? 0,
    tags: value.tags ?? [],
    feed: value.feed ?? false,
    content_format: format,
    seo: Object.fromEntries(SEO_KEYS.map((k) => [k, seo[k] ?? null])),
    fields: value.fields ?? {},
    content: value.content ?? "",
  };
}
