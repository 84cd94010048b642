// Active menu state (docs/markup.md): the printed page's menu item (an item for that page, or a link
// to its address) is marked — `aria-current="page"` on its link, class `is-current` on its item —
// each item above it in the menu gets class `is-ancestor`, and each item for an ancestor of the page
// in the page tree (a news article's "News") gets class `current-ancestor`. A render for a page
// marks at once. A bake (no page: the frame's output is every page's static copy) prints markers
// instead and lists the items in a table; each page's copy then gets its own marks by a quick
// replacement (`applyMarks`), so pages on page-independent frames stay static.
import type { MenuNode } from "./types.ts";

/** A page as menus and sidebars recognise it: its id and the addresses it answers at. */
export interface MarkedPage {
  id: number | null;
  urls: readonly string[];
}

/**
 * The page a render is for: its id, the addresses it answers at (its own; `/` for the home page)
 * and its ancestors in the page tree, parent first (none: a page at the top).
 */
export interface CurrentPage extends MarkedPage {
  ancestors?: readonly MarkedPage[];
}

/** One menu item printed by a bake: what decides whether it is current, and the item above it. */
export interface MarkEntry {
  url: string;
  page: number | null;
  parent: number;
}

// Private-use characters: they do not occur in markup the service prints around them.
const OPEN = "\uE000";
const CLOSE = "\uE001";
const MARKER = /\uE000([LCA])(\d+)\uE001/g;

/** Two addresses name one page: equal, or equal but for a trailing slash. */
function sameAddress(a: string, b: string): boolean {
  if (a === b) return true;
  const trim = (u: string) => (u.endsWith("/") ? u.slice(0, -1) : u);
  return a !== "" && b !== "" && trim(a) === trim(b);
}

/** Whether an item (its address, its page) stands for that page. */
function isItemOf(url: string | null, page: number | null, marked: MarkedPage): boolean {
  return (page !== null && page === marked.id) || (url !== null && marked.urls.some((u) => sameAddress(u, url)));
}

/** Whether an item is the page shown's. */
export function isCurrentItem(url: string | null, page: number | null, current: CurrentPage): boolean {
  return isItemOf(url, page, current);
}

/** Whether an item stands for an ancestor of the page shown (and is not the page shown's own). */
export function isAncestorItem(url: string | null, page: number | null, current: CurrentPage): boolean {
  return !isItemOf(url, page, current) && (current.ancestors ?? []).some((ancestor) => isItemOf(url, page, ancestor));
}

/** The classes an item gets: `is-current` or `is-ancestor` (the menu), then `current-ancestor` (the page tree). */
function classesOf(current: boolean, menuAncestor: boolean, pageAncestor: boolean): string {
  const classes = current ? ["is-current"] : menuAncestor ? ["is-ancestor"] : [];
  if (pageAncestor) classes.push("current-ancestor");
  return classes.join(" ");
}

/** How a menu's items are marked while printing: for a page (at once), or with markers (a bake). */
export class Marks {
  /** The items printed with markers (a bake), in order. */
  readonly table: MarkEntry[] = [];

  constructor(readonly current: CurrentPage | null) {}

  /** The marks of one item: the `<li>`'s added class (or markers), and the `<a>`'s aria-current. */
  item(
    node: MenuNode,
    parent: number,
    subtreeHoldsCurrent: boolean,
  ): { index: number; li: string; liClassExtra: string; a: string } {
    if (this.current === null) {
      const index = this.table.push({ url: node.url, page: node.page ?? null, parent }) - 1;
      return {
        index,
        li: `${OPEN}L${index}${CLOSE}`,
        liClassExtra: `${OPEN}C${index}${CLOSE}`,
        a: `${OPEN}A${index}${CLOSE}`,
      };
    }
    const page = node.page ?? null;
    const current = isCurrentItem(node.url, page, this.current);
    const cls = classesOf(current, subtreeHoldsCurrent, isAncestorItem(node.url, page, this.current));
    return {
      index: -1,
      li: cls ? ` class="${cls}"` : "",
      liClassExtra: cls ? ` ${cls}` : "",
      a: current ? ' aria-current="page"' : "",
    };
  }

  /** Whether a node or one under it is the current page (a page render only). */
  holds(node: MenuNode): boolean {
    if (this.current === null) return false;
    const stack: MenuNode[] = [node];
    for (let guard = 0; stack.length > 0 && guard < 10_000; guard++) {
      const n = stack.pop()!;
      if (n.valid !== false && isCurrentItem(n.url, n.page ?? null, this.current)) return true;
      if (Array.isArray(n.children)) stack.push(...n.children);
    }
    return false;
  }
}

/**
 * A bake's output for one page: each marker replaced by that page's marks (`current` null: none,
 * as a frame's own bake is kept). Markup without markers is returned as it is.
 */
export function applyMarks(html: string, table: readonly MarkEntry[], current: CurrentPage | null): string {
  if (table.length === 0 || !html.includes(OPEN)) return html;
  const isCurrent = table.map(() => false);
  const isAbove = table.map(() => false);
  if (current !== null) {
    table.forEach((entry, i) => {
      if (!isCurrentItem(entry.url, entry.page, current)) return;
      isCurrent[i] = true;
      for (let p = entry.parent, guard = 0; p >= 0 && guard < table.length; p = table[p]!.parent, guard++)
        isAbove[p] = true;
    });
  }
  const classes = table.map((entry, i) =>
    current === null ? "" : classesOf(isCurrent[i]!, isAbove[i]!, isAncestorItem(entry.url, entry.page, current)),
  );
  return html.replace(MARKER, (_, kind: string, digits: string) => {
    const i = Number(digits);
    const cls = classes[i] ?? "";
    if (kind === "A") return isCurrent[i] ? ' aria-current="page"' : "";
    if (kind === "C") return cls ? ` ${cls}` : "";
    return cls ? ` class="${cls}"` : "";
  });
}
