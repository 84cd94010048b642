// The links of an HTML page, found by htmlparser2 and rewritten in place (docs/cli.md, "svc
// export-static"): only the values of the attributes that hold addresses change, so the page is
// byte for byte what the service served apart from its links.
// - href, src, poster, srcset (parse-srcset reads its candidates), `data` of <object>, the form
//   addresses action and formaction, and url() in `style` attributes and <style> elements;
// - absolute whatever the mode: canonical and hreflang <link>s, <meta> contents that are
//   addresses (Open Graph, Twitter cards), the addresses inside JSON-LD;
// - followed (fetched into the export when not there yet): all of them but form addresses and
//   the service's own endpoints (`/_forms/…`, `/_search`), which are reported instead.
import { Parser } from "htmlparser2";
import parseSrcset from "parse-srcset";
import { rewriteCss } from "./css-links.ts";
import { isServiceEndpoint, ownAddress, rewriteLink, type LinkForm, type Linking } from "./links.ts";
import { applyEdits, replaceInOrder, type Edit } from "./spans.ts";

const ADDRESS_ATTRIBUTES = new Set(["href", "src", "poster", "action", "formaction", "xlink:href"]);
const FORM_ATTRIBUTES = new Set(["action", "formaction"]);

export interface HtmlLinks {
  text: string;
  /** The site's own paths it links to (to fetch). */
  links: string[];
  /** The service's endpoints it sends visitors to (forms, search), which a static host cannot answer. */
  endpoints: string[];
}

interface Attribute {
  name: string;
  value: string;
  /** The raw attribute in the source: `name="value"`. */
  start: number;
  end: number;
}

/** Where the value stands inside the raw attribute, and its quote. */
function valueSpan(html: string, attribute: Attribute): { start: number; end: number; quote: string } | null {
  const raw = html.slice(attribute.start, attribute.end);
  const equals = raw.indexOf("=");
  if (equals === -1) return null;
  let at = equals + 1;
  while (at < raw.length && /\s/.test(raw[at])) at++;
  const quote = raw[at] === '"' || raw[at] === "'" ? raw[at] : "";
  const start = attribute.start + at + quote.length;
  const end = quote ? attribute.start + raw.lastIndexOf(quote) : attribute.end;
  return { start, end, quote };
}

function encodeValue(value: string, quote: string): string {
  const text = value.replace(/&/g, "&amp;");
  if (quote === '"') return text.replace(/"/g, "&quot;");
  if (quote === "'") return text.replace(/'/g, "&#39;");
  return /[\s"'=<>`]/.test(text) || text === "" ? `"${text.replace(/"/g, "&quot;")}"` : text;
}

function isAbsoluteOwn(value: string, linking: Linking): boolean {
  return /^https?:\/\//i.test(value.trim()) && ownAddress(value, linking) !== null;
}

/** The addresses inside a JSON-LD block made absolute on the base URL. */
function rewriteJsonLd(text: string, document: string, linking: Linking): string {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return text;
  }
  const values: Array<{ from: string; to: string | null }> = [];
  const walk = (node: unknown): void => {
    if (typeof node === "string") {
      if (isAbsoluteOwn(node, linking)) {
        const to = rewriteLink(node, document, linking, "absolute");
        values.push({
          from: JSON.stringify(node).slice(1, -1),
          to: to === null ? null : JSON.stringify(to).slice(1, -1),
        });
      }
    } else if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === "object") Object.values(node).forEach(walk);
  };
  walk(data);
  return values.length > 0 ? replaceInOrder(text, values) : text;
}

/** An HTML page with its own links rewritten for the file at `document` (a site path). */
export function rewriteHtml(html: string, document: string, linking: Linking, form: LinkForm = "mode"): HtmlLinks {
  const edits: Edit[] = [];
  const links = new Set<string>();
  const endpoints = new Set<string>();
  let attributes: Attribute[] = [];
  let raw: { kind: "style" | "json-ld"; start: number; end: number } | null = null;

  const follow = (value: string, attribute: string) => {
    const own = ownAddress(value, linking);
    if (!own) return;
    if (isServiceEndpoint(own.path)) endpoints.add(own.path);
    else if (!FORM_ATTRIBUTES.has(attribute)) links.add(own.path);
  };

  const rewriteAttribute = (tag: string, attribute: Attribute, attribs: Record<string, string>) => {
    const span = valueSpan(html, attribute);
    if (!span) return;
    const { name, value } = attribute;
    const rel = (attribs.rel ?? "").toLowerCase().split(/\s+/);
    const absolute =
      (tag === "link" && (rel.includes("canonical") || (rel.includes("alternate") && "hreflang" in attribs))) ||
      tag === "meta";
    let next: string | null = null;
    if (name === "srcset") {
      const candidates = parseSrcset(value).map((candidate) => candidate.url);
      for (const url of candidates) follow(url, name);
      next = replaceInOrder(
        value,
        candidates.map((url) => ({ from: url, to: rewriteLink(url, document, linking, form) })),
      );
    } else if (name === "style") {
      const css = rewriteCss(value, document, linking, { attribute: true, form });
      for (const path of css.links) links.add(path);
      next = css.text;
    } else if (tag === "meta" && name === "content") {
      if (!isAbsoluteOwn(value, linking)) return;
      follow(value, name);
      next = rewriteLink(value, document, linking, "absolute");
    } else if (ADDRESS_ATTRIBUTES.has(name) || (tag === "object" && name === "data")) {
      follow(value, name);
      next = rewriteLink(value, document, linking, absolute ? "absolute" : form);
    }
    if (next !== null && next !== value)
      edits.push({ start: span.start, end: span.end, text: encodeValue(next, span.quote) });
  };

  const parser: Parser = new Parser(
    {
      onattribute(name, value) {
        attributes.push({ name, value, start: parser.startIndex, end: parser.endIndex });
      },
      onopentag(tag, attribs) {
        for (const attribute of attributes) rewriteAttribute(tag, attribute, attribs);
        attributes = [];
        const type = (attribs.type ?? "").toLowerCase();
        if (tag === "style") raw = { kind: "style", start: -1, end: -1 };
        else if (tag === "script" && type === "application/ld+json") raw = { kind: "json-ld", start: -1, end: -1 };
      },
      ontext() {
        if (!raw) return;
        if (raw.start === -1) raw.start = parser.startIndex;
        raw.end = parser.endIndex + 1;
      },
      onclosetag() {
        const block = raw;
        raw = null;
        if (!block || block.start === -1) return;
        const text = html.slice(block.start, block.end);
        let next = text;
        if (block.kind === "json-ld") next = rewriteJsonLd(text, document, linking);
        else {
          const css = rewriteCss(text, document, linking, { form });
          for (const path of css.links) links.add(path);
          next = css.text;
        }
        if (next !== text) edits.push({ start: block.start, end: block.end, text: next });
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  return { text: applyEdits(html, edits), links: [...links], endpoints: [...endpoints] };
}
