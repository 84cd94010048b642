// The HTML that svc/menu (op/menu) and op/lang-switcher print. Compact (no white space
// between tags) so that it never adds text nodes to the page's layout.

import { escapeAttr, escapeText } from "./escape.ts";
import type { LanguageLink, MenuNode } from "./types.ts";
import { Marks } from "./current.ts";

function text(value: unknown): string {
  return typeof value === "string" ? value : value === null || value === undefined ? "" : String(value);
}

/**
 * `<ul class="cls"><li class="item classes"><a href="url" target="t">Title</a><ul>…</ul></li></ul>`.
 * `class` goes on the outer list only; nested lists are plain `<ul>`. Nodes with `valid: false`
 * are left out with their branch. `levels` 0 prints every level, n prints the first n. The page
 * shown is marked (`marks`, current.ts): `is-current` and `aria-current` on its item, `is-ancestor`
 * on the items above it. Returns "" when nothing is left to print (no empty `<ul>`).
 */
export function menuHtml(
  nodes: readonly MenuNode[],
  levels: number,
  cls: string | null,
  marks: Marks = new Marks({ id: null, urls: [] }),
): string {
  return menuLevel(nodes, levels <= 0 ? Number.POSITIVE_INFINITY : levels, cls, 0, marks, -1);
}

function menuLevel(
  nodes: readonly MenuNode[] | undefined,
  levels: number,
  cls: string | null,
  guard: number,
  marks: Marks,
  parent: number,
): string {
  // `guard` stops a malformed tree that contains itself.
  if (!Array.isArray(nodes) || nodes.length === 0 || levels < 1 || guard > 64) return "";
  const parts: string[] = [];
  for (const node of nodes) {
    if (node === null || typeof node !== "object" || node.valid === false) continue;
    const classes = text(node.classes).trim();
    const target = text(node.target).trim();
    const mark = marks.item(node, parent, marks.holds(node));
    parts.push(
      classes ? `<li class="${escapeAttr(classes)}${mark.liClassExtra}">` : `<li${mark.li}>`,
      `<a href="${escapeAttr(text(node.url))}"${mark.a}`,
      target ? ` target="${escapeAttr(target)}">` : ">",
      escapeText(text(node.title)),
      "</a>",
      menuLevel(node.children, levels - 1, null, guard + 1, marks, mark.index),
      "</li>",
    );
  }
  if (parts.length === 0) return "";
  return `${cls ? `<ul class="${escapeAttr(cls)}">` : "<ul>"}${parts.join("")}</ul>`;
}

/**
 * `<ul class="lang-switcher"><li class="lang-item lang-item-en current-lang"><a href="/about/" hreflang="en" lang="en" aria-current="page">English</a></li>…</ul>`.
 * Returns "" when there are no languages.
 */
export function langSwitcherHtml(links: readonly LanguageLink[], cls: string | null): string {
  if (!Array.isArray(links) || links.length === 0) return "";
  const parts: string[] = [];
  for (const link of links) {
    if (link === null || typeof link !== "object") continue;
    const code = escapeAttr(text(link.code));
    parts.push(
      `<li class="lang-item lang-item-${code}${link.current ? " current-lang is-current" : ""}">`,
      `<a href="${escapeAttr(text(link.url))}" hreflang="${code}" lang="${code}"`,
      link.current ? ` aria-current="page">` : ">",
      escapeText(text(link.name) || text(link.code)),
      "</a></li>",
    );
  }
  if (parts.length === 0) return "";
  return `<ul class="${escapeAttr(cls ?? "lang-switcher")}">${parts.join("")}</ul>`;
}
