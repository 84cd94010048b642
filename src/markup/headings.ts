// The headings of a page's content (docs/sidebars.md): each <h1>…<h6> without an id gets one, the
// slug of its text (`Getting started` → `getting-started`), made unique with -2, -3, … against
// every id in the content; ids already written are kept. Pure and deterministic, so the ids are the
// same on every render. `svc/toc` lists what this finds; `page.content` is printed with the ids.
import { Parser } from "htmlparser2";
import type { Heading } from "./types.ts";

const HEADING = /^h([1-6])$/;

/** Text to an id: accents dropped, lower case, other runs a dash; `section` when nothing is left. */
export function headingSlug(text: string): string {
  const slug = text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80)
    .replace(/-+$/, "");
  return slug || "section";
}

interface Open {
  level: number;
  /** Where ` id="…"` goes (before the start tag's `>` or `/>`), or -1 when it has an id. */
  insertAt: number;
  id: string | null;
  text: string;
}

export function withHeadingIds(html: string): { html: string; headings: Heading[] } {
  if (!/<h[1-6]/i.test(html)) return { html, headings: [] };
  const taken = new Set<string>();
  const found: Open[] = [];
  let current: Open | null = null;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (attributes.id) taken.add(attributes.id);
        const match = HEADING.exec(name);
        if (!match || current) return;
        const end = parser.endIndex;
        const insertAt = attributes.id ? -1 : html[end - 1] === "/" ? end - 1 : end;
        current = { level: Number(match[1]), insertAt, id: attributes.id ?? null, text: "" };
      },
      ontext(text) {
        if (current) current.text += text;
      },
      onclosetag(name) {
        if (current && name === `h${current.level}`) {
          found.push(current);
          current = null;
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.end(html);
  const headings: Heading[] = [];
  const inserts: Array<[number, string]> = [];
  for (const heading of found) {
    const text = heading.text.replace(/\s+/g, " ").trim();
    let id = heading.id;
    if (id === null) {
      const base = headingSlug(text);
      id = base;
      for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
      taken.add(id);
      inserts.push([heading.insertAt, ` id="${id}"`]);
    }
    headings.push({ level: heading.level, id, text });
  }
  let out = html;
  for (const [at, attribute] of inserts.sort((a, b) => b[0] - a[0])) out = out.slice(0, at) + attribute + out.slice(at);
  return { html: out, headings };
}
