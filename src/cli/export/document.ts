// One public answer as a file of the export (docs/cli.md, "svc export-static"): where it goes
// (`/about/` → `about/index.html`, `/` → `index.html`, `/media/…/a%20b.png` → `media/…/a b.png`,
// as a static server maps addresses to files) and its bytes with their links rewritten by what
// the answer is: HTML, a stylesheet, XML (sitemaps, feeds), robots.txt; anything else as served.
import { rewriteCss } from "./css-links.ts";
import { rewriteHtml } from "./html-links.ts";
import type { LinkForm, Linking } from "./links.ts";
import { rebaseAbsolute, rewriteXml } from "./xml-links.ts";

export interface Exported {
  file: string;
  bytes: Buffer;
  /** The site's own paths it links to. */
  links: string[];
  /** The service's endpoints it sends visitors to (forms, search). */
  endpoints: string[];
  /** An HTML page. */
  page: boolean;
}

const XML_TYPES = /^(application|text)\/([\w.+-]*\+)?xml\b/i;

/** The file an address is written to, or null when it names none a static server could serve. */
export function fileOf(address: string, html: boolean): string | null {
  let segments: string[];
  try {
    segments = address.split("/").slice(1).map(decodeURIComponent);
  } catch {
    return null;
  }
  const directory = address.endsWith("/");
  if (directory) segments.pop();
  if (segments.some((segment) => segment === "" || segment === "." || segment === ".." || /[/\\\0]/.test(segment)))
    return null;
  if (directory) return html ? [...segments, "index.html"].join("/") : null;
  return segments.length > 0 ? segments.join("/") : null;
}

function mediaType(type: string): string {
  return type.split(";")[0].trim().toLowerCase();
}

/** The answer's bytes as the export writes them, for the file at `document` (the address it answers). */
export function exportedOf(
  document: string,
  file: string,
  answer: { type: string; body: Buffer },
  linking: Linking,
  form: LinkForm = "mode",
): Exported {
  const type = mediaType(answer.type);
  const text = () => answer.body.toString("utf8");
  const done = (body: string, links: string[] = [], endpoints: string[] = [], page = false): Exported => ({
    file,
    bytes: Buffer.from(body, "utf8"),
    links,
    endpoints,
    page,
  });
  if (type === "text/html") {
    const html = rewriteHtml(text(), document, linking, form);
    return done(html.text, html.links, html.endpoints, true);
  }
  if (type === "text/css") {
    const css = rewriteCss(text(), document, linking, { form });
    return done(css.text, css.links);
  }
  if (XML_TYPES.test(type)) {
    const xml = rewriteXml(text(), linking);
    return done(xml.text, xml.links);
  }
  if (type === "text/plain" && document === "/robots.txt") return done(rebaseAbsolute(text(), linking));
  return { file, bytes: answer.body, links: [], endpoints: [], page: false };
}
