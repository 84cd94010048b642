// What a page write changed, decided here rather than by the pages feature: the feature reports
// the region of the page tree it wrote, before and after (pages/region.ts), and this names every
// page whose own record, address or visibility changed, with its parent before and after (a
// parent's new title shows in its children, a new child in its parent's `pages.children`) and
// `gone` when it left the public site. Comparing the trees means moved subtrees, reparented
// children and translation partners are never forgotten.
import type { Change } from "../write/change.ts";
import type { PageLite, PageTreeView } from "./page-tree.ts";

function differs(a: PageLite, b: PageLite): boolean {
  return (
    a.parent_id !== b.parent_id ||
    a.path !== b.path ||
    a.slug !== b.slug ||
    a.title !== b.title ||
    a.status !== b.status ||
    a.lang !== b.lang ||
    a.translation_group !== b.translation_group
  );
}

/**
 * The page changes between two trees of one site. `touched` names pages whose other columns
 * (content, fields, frame) were written; they are announced even when their light row is equal.
 * `within`: the trees hold a region of the site (region.ts); only these pages can have changed.
 */
export function pageChangesBetween(
  before: PageTreeView,
  after: PageTreeView,
  touched: Iterable<number> = [],
  within?: ReadonlySet<number>,
): Change[] {
  const changed = new Set<number>(touched);
  const ids = new Set<number>(within);
  if (!within) {
    for (const row of before.all()) ids.add(row.id);
    for (const row of after.all()) ids.add(row.id);
  }
  for (const id of ids) {
    const b = before.get(id);
    const a = after.get(id);
    if (!a || !b || differs(a, b) || before.visible(id) !== after.visible(id)) changed.add(id);
  }
  // A page that joined, left or changed within a translation group changes its partners' `translations`.
  const groups = new Set<number>();
  for (const id of changed) {
    for (const row of [before.get(id), after.get(id)])
      if (row?.translation_group != null) groups.add(row.translation_group);
  }
  if (groups.size > 0) {
    for (const row of after.all())
      if (row.translation_group !== null && groups.has(row.translation_group)) changed.add(row.id);
  }

  const out: Change[] = [];
  for (const id of [...changed].sort((x, y) => x - y)) {
    const b = before.get(id);
    const a = after.get(id);
    if (!a && !b) continue;
    const parents = [...new Set([b?.parent_id, a?.parent_id].filter((p): p is number => p !== undefined && p !== 0))];
    const gone = a === undefined ? true : b !== undefined && before.visible(id) && !after.visible(id);
    out.push({ kind: "page", pageId: id, ...(parents.length > 0 ? { parents } : {}), ...(gone ? { gone: true } : {}) });
  }
  return out;
}
