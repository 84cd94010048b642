// A page's head as a browser's parser reads it (htmlparser2, entities decoded), for the tests of
// what `svc/seo` prints (docs/seo.md).
import { Parser } from "htmlparser2";

export interface Head {
  titles: string[];
  metas: Array<Record<string, string>>;
  links: Array<Record<string, string>>;
  scripts: Array<{ type: string; text: string }>;
}

/** The elements of a page's head, as a browser's parser reads them (entities decoded). */
export function headOf(html: string): Head {
  const head: Head = { titles: [], metas: [], links: [], scripts: [] };
  let inTitle = false;
  let script: { type: string; text: string } | null = null;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === "title") {
          inTitle = true;
          head.titles.push("");
        }
        if (name === "meta") head.metas.push(attributes);
        if (name === "link") head.links.push(attributes);
        if (name === "script") {
          script = { type: attributes.type ?? "", text: "" };
          head.scripts.push(script);
        }
      },
      ontext(text) {
        if (inTitle) head.titles[head.titles.length - 1] += text;
        if (script) script.text += text;
      },
      onclosetag(name) {
        if (name === "title") inTitle = false;
        if (name === "script") script = null;
      },
    },
    { decodeEntities: true },
  );
  parser.end(html);
  return head;
}

export const meta = (head: Head, key: string) =>
  head.metas.filter((m) => m.name === key || m.property === key).map((m) => m.content);
export const canonical = (head: Head) => head.links.filter((l) => l.rel === "canonical").map((l) => l.href);
export const alternates = (head: Head) =>
  head.links.filter((l) => l.rel === "alternate").map((l) => [l.hreflang, l.href]);
export const jsonLd = (head: Head) =>
  head.scripts.filter((s) => s.type === "application/ld+json").map((s) => JSON.parse(s.text));
