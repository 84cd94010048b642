// The allowlist sanitiser of the HTML an editor writes (docs/roles.md, "What an editor writes";
// docs/security.md, "Trust model"): sanitize-html, kept to the elements and attributes of rich
// content. Nothing that runs script is kept: no `<script>`, no event handler (`on…`), no URL of
// another scheme than http, https, mailto and tel (so no `javascript:`), no `<style>` and no
// `style` attribute, no `<iframe>` but from the host names the site's administrators allow
// (setting `iframe_hosts`). What was removed is told by kind, for the write's warning.
//
// Pure: the text in, the text out. sanitize-html (with postcss) is loaded on the first sanitising
// write, not at start (bench/README.md, "Cold start").
import type { IOptions } from "sanitize-html";

/** What a sanitised value lost, by kind. */
export type RemovedKind =
  | "script"
  | "style"
  | "event_handler"
  | "javascript_url"
  | "url"
  | "iframe"
  | "element"
  | "attribute"
  | "comment";

export interface SanitizePolicy {
  /** The host names an `<iframe src>` may name (exact, lower case, punycode). */
  iframeHosts: readonly string[];
}

export interface Sanitized {
  html: string;
  /** Empty when nothing was removed. */
  removed: RemovedKind[];
}

export type HtmlSanitizer = (html: string) => Sanitized;

/** The elements kept; any other is removed (its text kept, but a script's, a style's, a textarea's). */
const TAGS = [
  ...["address", "article", "aside", "footer", "header", "main", "nav", "section", "hgroup"],
  ...["h1", "h2", "h3", "h4", "h5", "h6", "p", "div", "span", "br", "hr", "blockquote", "pre"],
  ...["ul", "ol", "li", "dl", "dt", "dd", "menu", "figure", "figcaption", "details", "summary"],
  ...["a", "abbr", "b", "bdi", "bdo", "cite", "code", "data", "del", "dfn", "em", "i", "ins", "kbd"],
  ...["mark", "q", "rp", "rt", "ruby", "s", "samp", "small", "strong", "sub", "sup", "time", "u", "var"],
  ...["wbr", "table", "caption", "colgroup", "col", "thead", "tbody", "tfoot", "tr", "th", "td"],
  ...["img", "picture", "source", "video", "audio", "track", "iframe"],
  // A task list's checkbox (Markdown's `- [x]`, markup/markdown.ts); an input of any other type goes.
  "input",
];

/** The attributes kept, by element (`*`: on every element); any other is removed. */
const ATTRIBUTES: Record<string, string[]> = {
  "*": ["class", "id", "title", "lang", "dir", "role", "aria-*"],
  a: ["href", "name", "target", "rel", "hreflang"],
  img: ["src", "srcset", "sizes", "alt", "width", "height", "loading", "decoding"],
  source: ["src", "srcset", "sizes", "type", "media"],
  video: ["src", "poster", "controls", "width", "height", "preload", "loop", "muted", "playsinline"],
  audio: ["src", "controls", "preload", "loop", "muted"],
  track: ["src", "kind", "srclang", "label", "default"],
  iframe: ["src", "width", "height", "allow", "allowfullscreen", "loading", "referrerpolicy"],
  input: ["type", "checked", "disabled"],
  // `align`: how a Markdown table aligns its columns (markup/markdown.ts).
  th: ["colspan", "rowspan", "headers", "scope", "abbr", "align"],
  td: ["colspan", "rowspan", "headers", "align"],
  col: ["span"],
  colgroup: ["span"],
  ol: ["start", "reversed", "type"],
  li: ["value"],
  time: ["datetime"],
  data: ["value"],
  blockquote: ["cite"],
  q: ["cite"],
  del: ["cite", "datetime"],
  ins: ["cite", "datetime"],
  details: ["open"],
};

const SCHEMES = ["http", "https", "mailto", "tel"];
/** Attributes whose value is a URL, checked for its scheme (sanitize-html's own list, in part). */
const URL_ATTRIBUTES = new Set(["href", "src", "cite", "poster", "action", "formaction", "data", "xlink:href"]);
const TAG_SET = new Set(TAGS);

/**
 * A URL that runs script where it lands (`javascript:`, `vbscript:`), read as a browser reads it:
 * entities decoded already (the parser did), ASCII white space and control characters ignored,
 * in any case.
 */
export function isScriptUrl(value: string): boolean {
  return /^(?:javascript|vbscript):/.test(compactUrl(value));
}

function compactUrl(value: string): string {
  return value
    .replace(/<!--.*?-->/g, "")
    .replace(/[\x00-\x20]+/g, "")
    .toLowerCase();
}

/** A scheme sanitize-html refuses: one not allowed, on an absolute URL. */
function refusedScheme(value: string): boolean {
  const scheme = /^([a-z][a-z0-9.+-]*):/.exec(compactUrl(value));
  return scheme !== null && !SCHEMES.includes(scheme[1]);
}

function attributeKept(tag: string, name: string): boolean {
  const kept = [...ATTRIBUTES["*"], ...(ATTRIBUTES[tag] ?? [])];
  return kept.some((allowed) => (allowed.endsWith("*") ? name.startsWith(allowed.slice(0, -1)) : allowed === name));
}

function iframeKept(src: string | undefined, hosts: readonly string[]): boolean {
  if (src === undefined) return false;
  const address = src.trim();
  try {
    const url = new URL(address.startsWith("//") ? `https:${address}` : address);
    return (url.protocol === "https:" || url.protocol === "http:") && hosts.includes(url.hostname);
  } catch {
    return false;
  }
}

/** An `<input>` is kept as a checkbox only. */
function inputKept(attributes: Record<string, string>): boolean {
  return attributes.type?.trim().toLowerCase() === "checkbox";
}

/** What sanitize-html will remove of one element as the parser opened it, by kind. */
function classify(tag: string, attributes: Record<string, string>, policy: SanitizePolicy, into: Set<RemovedKind>) {
  if (tag === "script" || tag === "style") into.add(tag);
  else if (tag === "iframe" && !iframeKept(attributes.src, policy.iframeHosts)) into.add("iframe");
  else if (!TAG_SET.has(tag) || (tag === "input" && !inputKept(attributes))) into.add("element");
  const kept = TAG_SET.has(tag) && tag !== "iframe";
  for (const [name, value] of Object.entries(attributes)) {
    if (/^on/i.test(name)) into.add("event_handler");
    else if ((URL_ATTRIBUTES.has(name) || name.endsWith("srcset")) && isScriptUrl(value)) into.add("javascript_url");
    else if (kept && !attributeKept(tag, name)) into.add("attribute");
    else if (kept && URL_ATTRIBUTES.has(name) && refusedScheme(value)) into.add("url");
  }
}

type SanitizeHtml = (html: string, options: IOptions) => string;
let loading: Promise<SanitizeHtml> | undefined;

/** The sanitiser of one site's policy; sanitize-html is loaded by the first call. */
export async function htmlSanitizer(policy: SanitizePolicy): Promise<HtmlSanitizer> {
  loading ??= import("sanitize-html").then((module) => module.default as SanitizeHtml);
  const sanitizeHtml = await loading;
  return (html) => {
    const removed = new Set<RemovedKind>();
    const options: IOptions = {
      allowedTags: TAGS,
      allowedAttributes: ATTRIBUTES,
      allowedSchemes: SCHEMES,
      allowProtocolRelative: true,
      allowedIframeHostnames: [...policy.iframeHosts],
      allowIframeRelativeUrls: false,
      parseStyleAttributes: false,
      // An iframe whose address was refused (its src removed) goes whole, as does an input that is
      // not a checkbox.
      exclusiveFilter: (frame) =>
        (frame.tag === "iframe" && !frame.attribs.src) || (frame.tag === "input" && !inputKept(frame.attribs)),
      onOpenTag: (tag, attributes) => classify(tag, attributes, policy, removed),
    };
    const out = sanitizeHtml(html, options);
    if (/<!--/.test(html)) removed.add("comment");
    return { html: out, removed: [...removed] };
  };
}

/**
 * Whether a string value (of a page's fields, a data item) counts as HTML: it holds a tag, a
 * comment or a doctype (`<` then a letter, `/`, `!` or `?`). Text without one prints as it is.
 */
export function holdsMarkup(value: string): boolean {
  return /<[a-zA-Z!/?]/.test(value);
}
