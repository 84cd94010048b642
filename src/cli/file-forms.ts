// How a file of the folder that is not bytes as stored is read into the value its hash is taken
// of: JSON files as JSON, `redirects.csv` as its rows (kinds/redirects.ts), a Markdown page as its
// front matter and content (kinds/markdown-page.ts). A file that cannot be read throws, with the
// reason.
import type { Json } from "./canonical.ts";
import { markdownPageText, parseMarkdownPage } from "./kinds/markdown-page.ts";
import { redirectRows } from "./kinds/redirects.ts";

export function parseFile(key: string, text: string): Json {
  if (key.endsWith(".csv")) return redirectRows(text) as unknown as Json;
  if (key.endsWith(".md")) return parseMarkdownPage(text);
  try {
    return JSON.parse(text) as Json;
  } catch (error) {
    throw new Error(`not JSON: ${(error as Error).message}`);
  }
}

/** The text of a file that is not JSON, from its value; null for a JSON file. */
export function fileTextOf(key: string, value: Json): string | null {
  return key.endsWith(".md") ? markdownPageText(value) : null;
}
