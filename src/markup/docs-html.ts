// What the documentation inserts print (docs/sidebars.md, "Printing"): a sidebar as a nav of nested
// lists whose sections are <details> (open when they hold the page shown, or written open; the
// items of the page's ancestors in the page tree with class current-ancestor), the
// pager's two links, and the table of contents of the page's headings. Every label and address
// escaped.
import { escapeAttr, escapeText } from "./escape.ts";
import type { Heading, PagerLinks, SidebarNode } from "./types.ts";

function link(node: SidebarNode): string {
  return node.url === null
    ? escapeText(node.label)
    : `<a href="${escapeAttr(node.url)}"${node.current ? ' aria-current="page"' : ""}>${escapeText(node.label)}</a>`;
}

function list(nodes: readonly SidebarNode[], level: number, depth: number): string {
  const out: string[] = ["<ul>"];
  for (const node of nodes) {
    const nested = node.items.length > 0 && (depth === 0 || level < depth);
    const li = node.ancestor ? `<li class="current-ancestor">` : "<li>";
    if (nested) {
      out.push(
        `${li}<details${node.open ? " open" : ""}><summary>${link(node)}</summary>${list(node.items, level + 1, depth)}</details></li>`,
      );
    } else {
      out.push(`${li}${link(node)}</li>`);
    }
  }
  out.push("</ul>");
  return out.join("");
}

/** svc/sidebar: `<nav class>` of nested lists; `depth` 0 prints every level. */
export function sidebarHtml(nodes: readonly SidebarNode[], depth: number, cls: string | null): string {
  return `<nav class="${escapeAttr(cls ?? "sidebar")}">${list(nodes, 1, depth)}</nav>`;
}

/** svc/pager: the previous and next pages; nothing when the page shown is not in the sidebar. */
export function pagerHtml(pager: PagerLinks): string {
  if (pager.prev === null && pager.next === null) return "";
  const a = (rel: string, to: { label: string; url: string }) =>
    `<a rel="${rel}" href="${escapeAttr(to.url)}">${escapeText(to.label)}</a>`;
  return `<nav class="pager">${pager.prev ? a("prev", pager.prev) : ""}${pager.next ? a("next", pager.next) : ""}</nav>`;
}

/** svc/toc: the headings of those levels, a deeper one nested under the heading before it. */
export function tocHtml(headings: readonly Heading[], levels: readonly number[]): string {
  const chosen = headings.filter((h) => levels.includes(h.level));
  if (chosen.length === 0) return "";
  const out: string[] = ['<nav class="toc">'];
  const open: number[] = [];
  for (const heading of chosen) {
    while (open.length > 0 && open[open.length - 1] > heading.level) {
      out.push("</li></ul>");
      open.pop();
    }
    if (open.length > 0 && open[open.length - 1] === heading.level) out.push("</li>");
    else {
      out.push("<ul>");
      open.push(heading.level);
    }
    out.push(`<li><a href="#${escapeAttr(heading.id)}">${escapeText(heading.text)}</a>`);
  }
  while (open.length > 0) {
    out.push("</li></ul>");
    open.pop();
  }
  out.push("</nav>");
  return out.join("");
}
