// What the index holds of a page (docs/search.md): its title, `fields.summary`, its tags and its
// content as text — Markdown rendered first, then the text of the HTML without its markup, scripts
// or styles. Control characters are dropped, so the snippet's markers (snippet.ts) never come from
// a page.
import { Parser } from "htmlparser2";
import { markdown, type MarkdownLinks } from "../markup/markdown.ts";
import type { PageRow } from "../store/schema.ts";

export interface PageText {
  title: string;
  summary: string;
  tags: string;
  body: string;
}

/** Elements whose text is not the page's words. */
const UNREAD = new Set(["script", "style", "template", "noscript", "svg", "head"]);

/** Links print their text only: the index needs no addresses. */
const TEXT_ONLY: MarkdownLinks = { page: () => null, media: () => null };

/** Control characters out, runs of white space one space. */
export function plainText(text: string): string {
  return text
    .replace(/[\p{Cc}\p{Cf}]+/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** The text of HTML: elements' text, a space between every element's (a `<p>` ends a word). */
export function textOfHtml(html: string): string {
  const parts: string[] = [];
  let unread = 0;
  const parser = new Parser(
    {
      onopentag(name) {
        if (UNREAD.has(name)) unread++;
        parts.push(" ");
      },
      ontext(text) {
        if (unread === 0) parts.push(text);
      },
      onclosetag(name) {
        if (UNREAD.has(name) && unread > 0) unread--;
        parts.push(" ");
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.end(html);
  return plainText(parts.join(""));
}

function parsed(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return null;
  }
}

/** `fields.summary` when it is a text. */
function summaryOf(fieldsJson: string): string {
  const fields = parsed(fieldsJson) as Record<string, unknown> | null;
  return typeof fields?.summary === "string" ? plainText(fields.summary) : "";
}

function tagsOf(tagsJson: string): string {
  const tags = parsed(tagsJson);
  return Array.isArray(tags) ? plainText(tags.filter((tag) => typeof tag === "string").join(" ")) : "";
}

export async function pageText(
  row: Pick<PageRow, "title" | "content" | "content_format" | "fields_json" | "tags_json">,
): Promise<PageText> {
  const html = row.content_format === "markdown" ? (await markdown()).html(row.content, TEXT_ONLY) : row.content;
  return {
    title: plainText(row.title),
    summary: summaryOf(row.fields_json),
    tags: tagsOf(row.tags_json),
    body: textOfHtml(html),
  };
}
