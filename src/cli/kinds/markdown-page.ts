// A page written in Markdown as Hugo, Jekyll and Astro keep one: `pages/<lang>/<path>.md`, YAML
// front matter between two `---` lines (title, status, date, frame, menu_order, tags, feed,
// translations, seo, fields: what the page's JSON file holds but its content and format) and then
// the Markdown source, byte for byte, as the page's content. Read into the same value as a page's
// JSON file (with `content_format: "markdown"`), so its hash is the server page's. The front matter
// is written quoting every text a YAML 1.1 reader would take for something else (`"yes"`, a date),
// so Hugo's, Jekyll's and Astro's readers read the same values; it is read as YAML 1.2. Pure.
import { parse, stringify } from "yaml";
import type { Json } from "../canonical.ts";
import { isRecord } from "../file-shape.ts";
import { PAGE_KEYS } from "./page-file.ts";

const FRONT = PAGE_KEYS.filter((key) => key !== "content" && key !== "content_format");
const OPENING = /^---\r?\n/;
const CLOSING = /^---[ \t]*(?:\r?\n|$)/m;

/** A Markdown page's file: its front matter, then its content. */
export function markdownPageText(value: Json): string {
  const page = isRecord(value) ? value : {};
  const front: Record<string, unknown> = {};
  for (const key of FRONT) if (key in page) front[key] = page[key];
  for (const key of Object.keys(page).sort())
    if (!(key in front) && key !== "content" && key !== "content_format") front[key] = page[key];
  return `---\n${stringify(front, { lineWidth: 0, schema: "yaml-1.1" })}---\n${String(page.content ?? "")}`;
}

/** A Markdown page's file read as the page's value; throws with the reason when it cannot be. */
export function parseMarkdownPage(text: string): Json {
  const opening = OPENING.exec(text);
  if (!opening) throw new Error("a Markdown page starts with its front matter: a line ---, YAML, a line ---");
  const rest = text.slice(opening[0].length);
  const closing = CLOSING.exec(rest);
  if (!closing) throw new Error("the front matter has no closing --- line");
  let front: unknown;
  try {
    front = parse(rest.slice(0, closing.index)) ?? {};
  } catch (error) {
    throw new Error(`front matter is not YAML: ${(error as Error).message}`);
  }
  if (!isRecord(front)) throw new Error("the front matter is a YAML mapping (title: …, status: …)");
  for (const key of ["content", "content_format"])
    if (key in front) throw new Error(`${key} is not in the front matter: the Markdown after it is the content`);
  return {
    ...(front as Record<string, Json>),
    content_format: "markdown",
    content: rest.slice(closing.index + closing[0].length),
  };
}
