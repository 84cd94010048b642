// A menu's items as the editor holds them: a tree built from the flat list GET /menus/{ref}
// answers (parents first), reordered within a level, and flattened back into the flat form
// PUT /menus/{ref}/items takes (docs/menus.md, "Items": a top-level item whose `parent` is the id
// of another item of the body goes under it, in the body's order).

export interface ItemNode {
  /** The stored item's id; absent for an item added here and not saved yet. */
  id?: number;
  title: string;
  page: number | null;
  url: string;
  target: string;
  classes: string;
  children: ItemNode[];
}

export interface FetchedItem {
  id: number;
  title: string;
  page: number | null;
  url: string;
  parent: number;
  target: string;
  classes: string;
}

export function treeOf(items: readonly FetchedItem[]): ItemNode[] {
  const nodes = new Map<number, ItemNode>();
  const top: ItemNode[] = [];
  for (const item of items) {
    const node: ItemNode = { ...item, children: [] };
    nodes.set(item.id, node);
    (nodes.get(item.parent)?.children ?? top).push(node);
  }
  return top;
}

/** The level holding the node at `path` (indexes from the top) and its index there. */
function levelOf(tree: ItemNode[], path: readonly number[]): { level: ItemNode[]; index: number } {
  let level = tree;
  for (const index of path.slice(0, -1)) level = level[index]!.children;
  return { level, index: path[path.length - 1]! };
}

/** The tree with the node at `path` moved one place up (-1) or down (+1) among its siblings. */
export function moved(tree: ItemNode[], path: readonly number[], by: -1 | 1): ItemNode[] {
  const copy = structuredClone(tree);
  const { level, index } = levelOf(copy, path);
  const to = index + by;
  if (to < 0 || to >= level.length) return tree;
  [level[index], level[to]] = [level[to]!, level[index]!];
  return copy;
}

/** The flat body of PUT …/items: every item in order, a child naming its parent by id. */
export function flatOf(tree: readonly ItemNode[], parent = 0): Array<Record<string, unknown>> {
  return tree.flatMap((node) => {
    const own: Record<string, unknown> = {
      ...(node.id === undefined ? {} : { id: node.id, parent }),
      ...(node.page === null ? { url: node.url } : { page: node.page }),
      // A new page item shows the page's own title, which follows the page: none is stored.
      ...(node.id === undefined ? {} : { title: node.title }),
      target: node.target,
      classes: node.classes,
    };
    return [own, ...flatOf(node.children, node.id ?? 0)];
  });
}
