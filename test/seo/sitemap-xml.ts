// Reading sitemaps in tests (test/seo/sitemap.test.ts): a urlset or sitemapindex parsed with
// htmlparser2's XML mode, and xmllint checks against the schemas kept in test/seo/schema/.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Parser } from "htmlparser2";

const SCHEMAS = join(import.meta.dirname, "schema");
export const URLSET_XSD = join(SCHEMAS, "sitemap-with-xhtml.xsd");
export const INDEX_XSD = join(SCHEMAS, "siteindex.xsd");
/** A W3C datetime (https://www.w3.org/TR/NOTE-datetime): a date, or a date and time with its zone. */
export const W3C_DATETIME = /^\d{4}-\d\d-\d\d(T\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d))?$/;

export interface Alternate {
  attributes: Record<string, string>;
}
export interface UrlEntry {
  loc: string;
  lastmod: string | undefined;
  alternates: Alternate[];
}
export interface Parsed {
  root: string;
  urls: UrlEntry[];
  /** The <loc> of each <sitemap> of an index. */
  sitemaps: string[];
}

/** The entries of a urlset or a sitemapindex, read with a real XML tokenizer. */
export function parse(xml: string): Parsed {
  const parsed: Parsed = { root: "", urls: [], sitemaps: [] };
  const open: string[] = [];
  let url: UrlEntry | null = null;
  let text = "";
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (open.length === 0) parsed.root = name;
        open.push(name);
        text = "";
        if (name === "url") url = { loc: "", lastmod: undefined, alternates: [] };
        if (name === "xhtml:link") {
          assert.ok(url, "xhtml:link stands inside a <url>");
          url.alternates.push({ attributes: { ...attributes } });
        }
      },
      ontext(chunk) {
        text += chunk;
      },
      onclosetag(name) {
        open.pop();
        const parent = open.at(-1);
        if (name === "loc" && parent === "url") url!.loc = text;
        if (name === "lastmod" && parent === "url") url!.lastmod = text;
        if (name === "loc" && parent === "sitemap") parsed.sitemaps.push(text);
        if (name === "url") {
          parsed.urls.push(url!);
          url = null;
        }
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.write(xml);
  parser.end();
  return parsed;
}

/** xmllint --noout --schema `xsd` over the text: answers what xmllint printed when it refuses it. */
export function validate(xml: string, xsd: string): { valid: boolean; output: string } {
  const dir = mkdtempSync(join(tmpdir(), "sitemap-"));
  try {
    const file = join(dir, "sitemap.xml");
    writeFileSync(file, xml);
    const run = spawnSync("xmllint", ["--noout", "--schema", xsd, file], { encoding: "utf8" });
    return { valid: run.status === 0, output: `${run.stdout}${run.stderr}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function assertValid(xml: string, xsd: string, what: string): void {
  const { valid, output } = validate(xml, xsd);
  assert.ok(valid, `${what} is valid against ${xsd.split("/").pop()}:\n${output}\n${xml}`);
}
