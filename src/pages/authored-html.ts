// What an editor writes cannot carry script (docs/roles.md, "What an editor writes"; docs/security.md,
// "Trust model"). A write of page content, page fields or data items asks this gate for the values
// it stores: an administrator's come back as written; an editor's through the allowlist sanitiser
// (markup/sanitize.ts) with the site's `iframe_hosts`, and each value that lost something is
// reported in a warning `content_sanitized` naming its field and what went. Called before the
// write's transaction, so a dry run warns the same and the rows hold only what the gate gave.
//
// Markdown content is stored as written, source and all, and its HTML is made when it is printed: an
// editor's is printed through the same sanitiser (docs/content-model.md, "Markdown"). Its write
// is told the same way, as `content_sanitized`, of what the printed page leaves out.
//
// What counts as HTML: a page's content, always; in page fields and data items, every string that
// holds markup (markup/sanitize.ts `holdsMarkup`), at any depth. A string that is a `javascript:`
// or `vbscript:` URL (which a frame binding it to `href` or `src` would run) is emptied.
import { htmlSanitizer, holdsMarkup, isScriptUrl, type HtmlSanitizer, type RemovedKind } from "../markup/sanitize.ts";
import { markdown } from "../markup/markdown.ts";
import type { MarkupTrust } from "../site/roles.ts";
import { iframeHostsOf, settingsOf } from "../site/settings.ts";
import type { Db } from "../store/database.ts";
import { warning, type Warning } from "../warnings.ts";

/** Warnings of one write past this many values are summed up in one. */
const MAX_SANITIZED_WARNINGS = 100;

const KIND_WORDS: Record<RemovedKind, string> = {
  script: "<script> elements",
  style: "<style> elements",
  event_handler: "event handlers (on… attributes)",
  javascript_url: "javascript: URLs",
  url: "URLs of another scheme than http, https, mailto and tel",
  iframe: "iframes of hosts not in the iframe_hosts setting",
  element: "elements that are not kept",
  attribute: "attributes that are not kept",
  comment: "comments",
};

export interface ContentGate {
  /** An HTML value (a page's content) as it is stored; `field` names it in the warning. */
  html(value: string, field: string): string;
  /** A JSON value (page fields, a data item) with its HTML strings as they are stored; `field` names its place. */
  values<T>(value: T, field: string): T;
  /** Warns of what the Markdown source's printed HTML leaves out; the source is stored as written. */
  markdown(source: string, field: string): void;
}

/** The gate of an administrator's write: everything as written. */
const RAW: ContentGate = { html: (value) => value, values: (value) => value, markdown: () => {} };

/** What a Markdown check links to: the output's shape is what matters, not where links go. */
const ANY_LINKS = { page: () => "/", media: () => null };

/** The gate of one write by a role of `trust` on a site; its warnings go into `warnings`. */
export async function contentGate(
  db: Db,
  siteId: number,
  trust: MarkupTrust,
  warnings: Warning[],
): Promise<ContentGate> {
  if (trust === "raw") return RAW;
  const sanitize = await htmlSanitizer({ iframeHosts: iframeHostsOf(await settingsOf(db, siteId)) });
  const md = await markdown();
  let reported = 0;
  let summary: Warning | undefined;
  const report = (field: string, removed: RemovedKind[], printed = false) => {
    if (removed.length === 0) return;
    if (reported < MAX_SANITIZED_WARNINGS) {
      reported++;
      const words = removed.map((kind) => KIND_WORDS[kind]).join(", ");
      const message = printed
        ? `The Markdown of ${field} is kept as written; its page leaves out what an editor may not write: ${words}.`
        : `Removed from ${field} what an editor may not write: ${words}.`;
      warnings.push(warning("content_sanitized", message, { field, removed, ...itemOf(field) }));
      return;
    }
    if (!summary) {
      summary = warning("content_sanitized", "", { field: null, values: 0 });
      warnings.push(summary);
    }
    summary.values = (summary.values as number) + 1;
    summary.message = `${summary.values} further values lost what an editor may not write, as the ones above did.`;
  };
  return {
    html(value, field) {
      const done = sanitize(value);
      report(field, done.removed);
      return done.html;
    },
    values: (value, field) => cleanValue(value, field, sanitize, report),
    markdown(source, field) {
      report(field, sanitize(md.html(source, ANY_LINKS)).removed, true);
    },
  };
}

/** `items.3.bio` names item 3 of a data set. */
function itemOf(field: string): { item?: number } {
  const match = /^items\.(\d+)(?:\.|$)/.exec(field);
  return match ? { item: Number(match[1]) } : {};
}

type Report = (field: string, removed: RemovedKind[]) => void;

function cleanString(value: string, field: string, sanitize: HtmlSanitizer, report: Report): string {
  let out = value;
  const removed: RemovedKind[] = [];
  if (holdsMarkup(value)) {
    const done = sanitize(value);
    out = done.html;
    removed.push(...done.removed);
  }
  if (isScriptUrl(out)) {
    out = "";
    if (!removed.includes("javascript_url")) removed.push("javascript_url");
  }
  report(field, removed);
  return out;
}

/** The value with each string cleaned; the same value (not a copy) when nothing in it changed. */
function cleanValue<T>(value: T, field: string, sanitize: HtmlSanitizer, report: Report): T {
  if (typeof value === "string") return cleanString(value, field, sanitize, report) as T;
  if (Array.isArray(value)) {
    const out = value.map((entry, i) => cleanValue(entry, `${field}.${i}`, sanitize, report));
    return (out.some((entry, i) => entry !== value[i]) ? out : value) as T;
  }
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value);
    const cleaned = entries.map(([key, entry]) => [key, cleanValue(entry, `${field}.${key}`, sanitize, report)]);
    // Object.fromEntries defines each key as data, `__proto__` too (pages/input.ts mergeFields).
    return (cleaned.some(([, entry], i) => entry !== entries[i][1]) ? Object.fromEntries(cleaned) : value) as T;
  }
  return value;
}
