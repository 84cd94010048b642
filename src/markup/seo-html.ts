// What `svc/seo` prints into a page's <head> (docs/seo.md): one <title>, the meta
// description, one canonical link, the previous and next pages of a paged list, the Atom feed,
// hreflang alternates, Open Graph and Twitter tags, a robots meta when the page is noindex, and
// JSON-LD (the site's 404 page: no canonical, og:url, nor JSON-LD). Every value is escaped; the only script element is
// the JSON-LD, whose text escapes `<` so no `</script>` can end it early. Pure: the values come
// from the render context (publish/seo-head.ts builds them).
import { escapeAttr, escapeText } from "./escape.ts";
import type { SeoHead } from "./types.ts";

function meta(attr: "name" | "property", key: string, content: string): string {
  return `<meta ${attr}="${key}" content="${escapeAttr(content)}">`;
}

/** JSON for a script element: `<` (and the line separators JavaScript once refused) written as escapes. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

export function seoHeadHtml(head: SeoHead): string {
  const out: string[] = [`<title>${escapeText(head.title)}</title>`];
  if (head.description !== "") out.push(meta("name", "description", head.description));
  if (head.noindex) out.push(meta("name", "robots", "noindex"));
  if (head.canonical !== null) out.push(`<link rel="canonical" href="${escapeAttr(head.canonical)}">`);
  if (head.prev !== undefined) out.push(`<link rel="prev" href="${escapeAttr(head.prev)}">`);
  if (head.next !== undefined) out.push(`<link rel="next" href="${escapeAttr(head.next)}">`);
  if (head.feed !== undefined)
    out.push(
      `<link rel="alternate" type="application/atom+xml" title="${escapeAttr(head.feed.title)}" href="${escapeAttr(head.feed.href)}">`,
    );
  for (const alternate of head.alternates)
    out.push(
      `<link rel="alternate" hreflang="${escapeAttr(alternate.hreflang)}" href="${escapeAttr(alternate.href)}">`,
    );
  out.push(meta("property", "og:title", head.ogTitle), meta("property", "og:type", head.ogType));
  if (head.canonical !== null) out.push(meta("property", "og:url", head.canonical));
  if (head.description !== "") out.push(meta("property", "og:description", head.description));
  if (head.image !== null) out.push(meta("property", "og:image", head.image));
  if (head.siteName !== "") out.push(meta("property", "og:site_name", head.siteName));
  if (head.locale !== null) out.push(meta("property", "og:locale", head.locale));
  out.push(meta("name", "twitter:card", head.image !== null ? "summary_large_image" : "summary"));
  if (head.twitterSite !== "") out.push(meta("name", "twitter:site", head.twitterSite));
  if (head.jsonLd !== null) out.push(`<script type="application/ld+json">${scriptJson(head.jsonLd)}</script>`);
  return out.join("");
}
