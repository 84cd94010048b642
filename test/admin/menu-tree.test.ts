// The Menus editor's tree (admin/menus/tree.ts): built from the flat items GET /menus/{ref}
// answers and flattened back into the flat form PUT …/items takes, keeping every item's id,
// parent and order; a move up undoes a move down.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { flatOf, moved, treeOf, type FetchedItem } from "../../admin/menus/tree.ts";

/** Flat items, parents first: each item's parent is 0 or an earlier item. */
const flatItems = fc.array(fc.nat(), { maxLength: 25 }).map((choices) =>
  choices.map(
    (choice, index): FetchedItem => ({
      id: index + 1,
      title: `Item ${index + 1}`,
      page: index % 2 ? index + 100 : null,
      url: index % 2 ? "" : `/link-${index}`,
      parent: index === 0 ? 0 : choice % (index + 1),
      target: "",
      classes: "",
    }),
  ),
);

describe("the menu editor's tree", () => {
  it("flattens back to the same items in the same order, each under the same parent", () => {
    fc.assert(
      fc.property(flatItems, (items) => {
        const flat = flatOf(treeOf(items));
        // Depth-first order keeps each level's order: compare per parent.
        const byParent = (list: Array<{ id?: unknown; parent?: unknown }>) => {
          const levels = new Map<unknown, unknown[]>();
          for (const item of list) levels.set(item.parent, [...(levels.get(item.parent) ?? []), item.id]);
          return levels;
        };
        assert.deepEqual(byParent(flat), byParent(items));
        assert.equal(flat.length, items.length);
      }),
    );
  });

  it("a move down then up gives the tree back; a move past either end changes nothing", () => {
    fc.assert(
      fc.property(flatItems, fc.nat(), (items, pick) => {
        const tree = treeOf(items);
        if (tree.length === 0) return;
        if (tree.length > 1) {
          const index = pick % (tree.length - 1);
          assert.deepEqual(moved(moved(tree, [index], 1), [index + 1], -1), tree);
          assert.notDeepEqual(moved(tree, [index], 1), tree);
        }
        assert.equal(moved(tree, [0], -1), tree);
        assert.equal(moved(tree, [tree.length - 1], 1), tree);
      }),
    );
  });

  it("an item added here sends its page and no title (the page's own title follows the page)", () => {
    const flat = flatOf([{ title: "Contact", page: 7, url: "", target: "", classes: "", children: [] }]);
    assert.deepEqual(flat, [{ page: 7, target: "", classes: "" }]);
  });
});
