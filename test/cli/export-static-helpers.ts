// What the tests of `svc export-static` share: the starter site with media and variants, a
// stylesheet naming that media, a draft 404 page, a page no menu names, and redirects; the export
// served by Debian's nginx (its `_redirects` made nginx rules); a page's links resolved to the
// site's paths, so a page of the export and the service's can be compared apart from their links.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { Parser } from "htmlparser2";
import sharp from "sharp";
import { newSite, svcSite } from "./folder-helpers.ts";
import { runSvc, tempDir, write, type Served } from "./harness.ts";

export interface BuiltSite {
  id: number;
  domain: string;
  dir: string;
}

const PAGE_FRAME = `<!-- svc/layout {"name": "base"} /-->
<article class="page">
<h1 data-op-bind='{"text": "page.title"}'></h1>
<!-- svc/image {"media": "photo", "sizes": "(min-width: 40em) 40em, 100vw"} /-->
<div class="content" data-op-bind='{"html": "page.content"}'></div>
</article>
`;

function pageFile(title: string, status: string, body: string, translations = ""): string {
  return `---\ntitle: ${title}\nstatus: ${status}\nframe: page\n${translations}---\n${body}\n`;
}

/** The starter (two languages, menus, news with a feed and a paged list) with this test's additions, pushed into a new site. */
export async function buildSite(t: Served): Promise<BuiltSite> {
  const site = await newSite(t, "Export");
  const root = tempDir("svc-export-site-");
  const init = await runSvc(["init", "site"], { cwd: root });
  if (init.code !== 0) throw new Error(init.stdout + init.stderr);
  const dir = join(root, "site");
  const photo = await sharp({ create: { width: 900, height: 600, channels: 3, background: "#3366aa" } })
    .png()
    .toBuffer();
  mkdirSync(join(dir, "media"), { recursive: true });
  writeFileSync(join(dir, "media/photo.png"), photo);
  write(dir, "pages/en/not-found.md", pageFile("Not here", "draft", "This page is not here. Try the [home page](/)."));
  write(dir, "pages/en/legal.md", pageFile("Legal notice", "publish", "Who runs this site."));
  const settings = JSON.parse(readFileSync(join(dir, "settings.json"), "utf8"));
  write(dir, "settings.json", `${JSON.stringify({ ...settings, not_found_page: "/not-found" }, null, 2)}\n`);
  write(
    dir,
    "redirects.csv",
    "from,to,status\r\n/old-about/,/about/,301\r\n/elsewhere/,https://example.com/,302\r\n/?page_id=7,/contact/,301\r\n",
  );
  const push = async () => {
    const run = await svcSite(t, site.id, ["push", dir]);
    if (run.code !== 0) throw new Error(run.stdout + run.stderr);
  };
  await push();
  // Then what names the media, which a push checks against the site's media.
  write(dir, "frames/page.html", PAGE_FRAME);
  const css = readFileSync(join(dir, "styles/main.css"), "utf8");
  write(dir, "styles/main.css", `${css}\n.site-header {\n  background-image: url(media:photo);\n}\n`);
  await push();
  return { ...site, dir };
}

/** A server block serving `root` on 127.0.0.1:`port` as a static host does: index.html, 404.html, `_redirects`. */
export function staticServer(root: string, port: number): string {
  const rules = readFileSync(join(root, "_redirects"), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => {
      const [from, to, status] = line.split(" ");
      return `    location = ${from} { return ${status} ${to}; }`;
    });
  return [
    "server {",
    `  listen 127.0.0.1:${port};`,
    `  root ${root};`,
    "  index index.html;",
    "  error_page 404 /404.html;",
    ...rules,
    "}",
    "",
  ].join("\n");
}

/** The file types of the exports (nginx's own mime.types is not in a throwaway prefix). */
export const STATIC_TYPES =
  "types { text/html html; text/css css; image/png png; image/webp webp; application/xml xml; text/plain txt; }\ndefault_type application/octet-stream;\n";

/** Every file under `dir` (the manifest left out), as paths with `/`. */
export function filesIn(dir: string): string[] {
  const out: string[] = [];
  const walk = (path: string) => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      const full = join(path, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name !== ".svc-export.json") out.push(relative(dir, full));
    }
  };
  walk(dir);
  return out.sort();
}

const ADDRESS_ATTRIBUTES = new Set(["href", "src", "poster", "action", "content", "srcset"]);

/**
 * `html` (the page at `url`) with every address in an attribute made the path it resolves to when
 * it is on one of `origins`, and those origins taken out of the rest (JSON-LD): two pages equal
 * after this differ only in how their links are written.
 */
export function linksResolved(html: string, url: string, origins: readonly string[]): string {
  const own = (value: string): string => {
    let resolved: URL;
    try {
      resolved = new URL(value, url);
    } catch {
      return value;
    }
    // Applied to both pages at the same address, so a value that is no address resolves alike in both.
    return origins.includes(resolved.origin) ? `${resolved.pathname}${resolved.search}${resolved.hash}` : value;
  };
  const edits: Array<{ start: number; end: number; text: string }> = [];
  const parser: Parser = new Parser({
    onattribute(name, value) {
      if (!ADDRESS_ATTRIBUTES.has(name) || value === "") return;
      const raw = html.slice(parser.startIndex, parser.endIndex);
      const text =
        name === "srcset"
          ? value
              .split(", ")
              .map((candidate) => candidate.replace(/^\S+/, own))
              .join(", ")
          : own(value);
      edits.push({ start: parser.startIndex, end: parser.endIndex, text: `${raw.split("=")[0]}="${text}"` });
    },
  });
  parser.write(html);
  parser.end();
  let out = "";
  let at = 0;
  for (const edit of edits) {
    out += html.slice(at, edit.start) + edit.text;
    at = edit.end;
  }
  out += html.slice(at);
  for (const origin of origins) out = out.split(origin).join("");
  return out;
}

/** The links of the page open in the browser, resolved (source text: see test/cli/init.test.ts). */
export const LINKS_IN_PAGE = `(() => {
  const out = [];
  const add = (value) => { if (value) out.push(new URL(value, document.baseURI).href); };
  for (const el of document.querySelectorAll("[href]")) add(el.getAttribute("href"));
  for (const el of document.querySelectorAll("[src]")) add(el.getAttribute("src"));
  for (const el of document.querySelectorAll("[srcset]"))
    for (const part of el.getAttribute("srcset").split(",")) add(part.trim().split(/\\s+/)[0]);
  for (const el of document.querySelectorAll("meta[content]")) {
    const content = el.getAttribute("content");
    if (/^https?:\\/\\//.test(content)) add(content);
  }
  return out;
})()`;
