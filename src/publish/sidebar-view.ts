// A documentation sidebar as one page shows it (docs/sidebars.md): invalid pages left out, the page
// shown marked (aria-current on its link; every section above it open), the items of its ancestors
// in the page tree marked (`current-ancestor`, as menus mark them: markup/current.ts), and the
// pager's neighbours in the sidebar's reading order (sections flattened; links, invalid and
// untranslated pages skipped).
import { isAncestorItem, type CurrentPage, type PagerLinks, type SidebarNode } from "../markup/index.ts";
import type { SidebarItem as SidebarItemForRender } from "../sidebars/tree.ts";

export interface SidebarView {
  nodes: SidebarNode[];
  pager: PagerLinks;
}

export function sidebarView(items: readonly SidebarItemForRender[], shown: CurrentPage | null): SidebarView {
  const pageId = shown?.id ?? null;
  const reading: Array<{ label: string; url: string; page: number }> = [];
  const mark = (list: readonly SidebarItemForRender[]): { nodes: SidebarNode[]; holds: boolean } => {
    let holds = false;
    const nodes: SidebarNode[] = [];
    for (const item of list) {
      if (!item.valid) continue;
      const current = item.page !== null && item.page === pageId;
      if (item.page !== null && item.url !== null) reading.push({ label: item.label, url: item.url, page: item.page });
      const inner = mark(item.items);
      holds ||= current || inner.holds;
      const ancestor = shown !== null && !current && isAncestorItem(item.url, item.page, shown);
      nodes.push({
        label: item.label,
        url: item.url,
        current,
        ...(ancestor ? { ancestor } : {}),
        open: item.open || inner.holds,
        items: inner.nodes,
      });
    }
    return { nodes, holds };
  };
  const { nodes } = mark(items);
  const at = pageId === null ? -1 : reading.findIndex((entry) => entry.page === pageId);
  const link = (i: number) => (i >= 0 && i < reading.length ? { label: reading[i].label, url: reading[i].url } : null);
  return { nodes, pager: at < 0 ? { prev: null, next: null } : { prev: link(at - 1), next: link(at + 1) } };
}
