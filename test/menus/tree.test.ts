// The pure parts of menus: the input tree, the stored tree and the plan of what is stored,
// checked with properties over random trees.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { completeUrl, urlProblem, type ItemInput } from "../../src/menus/input.ts";
import { parseTree } from "../../src/menus/tree-input.ts";
import { flatten } from "../../src/menus/resolve.ts";
import { ItemTree, nest, type TreeRow } from "../../src/menus/tree.ts";
import { countPlanned, planTree, type Planned } from "../../src/menus/write.ts";
import type { PageFacts } from "../../src/menus/resolve.ts";
import { ServiceError } from "../../src/errors.ts";

interface RawNode {
  url: string;
  children?: RawNode[];
}

/** Random item trees up to 4 levels, each node a link named by its path of indexes. */
const rawTree: fc.Arbitrary<RawNode[]> = fc.letrec<{ forest: RawNode[]; node: RawNode }>((tie) => ({
  forest: fc.array(tie("node"), { maxLength: 4 }),
  node: fc.record({
    url: fc.constant("/x"),
    children: fc.oneof({ depthSize: "small", withCrossShrink: true }, fc.constant([] as RawNode[]), tie("forest")),
  }),
})).forest;

/** Stores a parsed tree the way writeTree does for a new menu (ids breadth first, positions 1..n). */
function store(items: readonly ItemInput[]): { rows: Array<TreeRow & { at: string }> } {
  const rows: Array<TreeRow & { at: string }> = [];
  const queue: Array<{ level: readonly ItemInput[]; parent: number }> = [{ level: items, parent: 0 }];
  for (let i = 0; i < queue.length; i++) {
    queue[i].level.forEach((item, index) => {
      const id = rows.length + 1;
      rows.push({ id, parent_id: queue[i].parent, position: index + 1, at: item.at });
      if (item.children.length > 0) queue.push({ level: item.children, parent: id });
    });
  }
  return { rows };
}

describe("menu trees", () => {
  it("coordinates of the stored tree are those of the submitted tree, and preorder is document order", () => {
    fc.assert(
      fc.property(rawTree, (raw) => {
        const parsed = parseTree(raw);
        const { rows } = store(parsed.items);
        const tree = new ItemTree(rows);
        const coordinates = tree.coordinates();
        for (const row of rows) assert.equal(coordinates.get(row.id), row.at);
        assert.deepEqual(
          tree.preorder().map((row) => row.at),
          flatten(parsed.items).map((item) => item.at),
        );
        assert.equal(parsed.total, rows.length);
      }),
    );
  });

  it("a branch is the item and everything under it; depth and height agree with the coordinates", () => {
    fc.assert(
      fc.property(
        rawTree.filter((raw) => raw.length > 0),
        (raw) => {
          const { rows } = store(parseTree(raw).items);
          const tree = new ItemTree(rows);
          for (const row of rows) {
            const under = rows
              .filter((other) => other.at === row.at || other.at.startsWith(`${row.at}.`))
              .map((other) => other.id)
              .sort((a, b) => a - b);
            assert.deepEqual(
              [...tree.branch(row.id)].sort((a, b) => a - b),
              under,
            );
            assert.equal(tree.depth(row.id), row.at.split(".").length);
            const deepest = Math.max(...under.map((id) => rows[id - 1].at.split(".").length));
            assert.equal(tree.height(row.id), deepest - row.at.split(".").length + 1);
            for (const other of rows) assert.equal(tree.isSelfOrDescendant(row.id, other.id), under.includes(other.id));
          }
        },
      ),
    );
  });

  it("nest rebuilds the submitted shape from flat records", () => {
    fc.assert(
      fc.property(rawTree, (raw) => {
        const { rows } = store(parseTree(raw).items);
        const tree = new ItemTree(rows);
        const flat = tree.preorder().map((row) => ({ id: row.id, parent: tree.parentOf(row.id) }));
        const strip = (nodes: any[]): unknown[] => nodes.map((node) => strip(node.children));
        const rawShape = (nodes: RawNode[]): unknown[] => nodes.map((node) => rawShape(node.children ?? []));
        assert.deepEqual(strip(nest(flat)), rawShape(raw));
      }),
    );
  });

  it("planning with allow_invalid keeps every valid item, in document order, and lists each invalid one", () => {
    fc.assert(
      fc.property(rawTree, fc.func(fc.boolean()), (raw, isInvalid) => {
        const parsed = parseTree(raw).items;
        const all = flatten(parsed);
        const pageIds = new Map<ItemInput, number>();
        const facts = new Map<number, PageFacts>();
        all.forEach((item, index) => {
          item.page = index + 1;
          pageIds.set(item, index + 1);
          const valid = !isInvalid(item.at);
          facts.set(index + 1, { id: index + 1, page: null, valid, reason: valid ? null : "draft" });
        });
        const plan = planTree(parsed, pageIds, facts, true);
        const kept: string[] = [];
        const walk = (nodes: readonly Planned[]) => {
          for (const node of nodes) {
            kept.push(node.input.at);
            walk(node.children);
          }
        };
        walk(plan.items);
        assert.deepEqual(
          kept,
          all.filter((item) => !isInvalid(item.at)).map((item) => item.at),
        );
        assert.deepEqual(
          plan.invalid.map((entry) => entry.at),
          all.filter((item) => isInvalid(item.at)).map((item) => item.at),
        );
        assert.equal(countPlanned(plan.items) + plan.invalid.length, all.length);
        if (plan.invalid.length > 0) {
          assert.throws(
            () => planTree(parsed, pageIds, facts, false),
            (error: unknown) => error instanceof ServiceError && error.code === "menu_items_invalid",
          );
        }
      }),
    );
  });

  it("limits are counted over the whole tree", () => {
    const wide = Array.from({ length: 2001 }, () => ({ url: "/x" }));
    assert.throws(
      () => parseTree(wide),
      (error: unknown) =>
        error instanceof ServiceError && error.code === "too_many_items" && error.details.total === 2001,
    );
    const nested = [{ url: "/x", children: Array.from({ length: 2000 }, () => ({ url: "/y" })) }];
    assert.throws(
      () => parseTree(nested),
      (error: unknown) => error instanceof ServiceError && error.code === "too_many_items",
    );
    assert.equal(parseTree(Array.from({ length: 2000 }, () => "slug")).total, 2000);
  });
});

describe("menu links", () => {
  it("a path is completed with the site address; anything with a scheme, // or # stays", () => {
    const origin = "http://site.test:8080";
    assert.equal(completeUrl(origin, "/a"), "http://site.test:8080/a");
    assert.equal(completeUrl(origin, "a/b"), "http://site.test:8080/a/b");
    assert.equal(completeUrl(origin, "?s=1"), "http://site.test:8080/?s=1");
    for (const kept of ["https://x.org", "mailto:a@b.c", "tel:+123", "//cdn.x/y", "#top"])
      assert.equal(completeUrl(origin, kept), kept);
  });

  it("script schemes, control characters and empty links are refused", () => {
    for (const bad of ["javascript:alert(1)", " JavaScript:x", "data:text/html,x", "vbscript:x", "/a\nb", "", "   "]) {
      assert.notEqual(urlProblem(bad), null, JSON.stringify(bad));
    }
    assert.equal(urlProblem("https://example.org/a b"), null);
  });
});
