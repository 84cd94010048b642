import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { pageChangesBetween } from "../../src/effects/page-changes.ts";
import type { PageLite } from "../../src/effects/page-tree.ts";
import { PageTree } from "../../src/pages/tree.ts";

const page = (id: number, parent_id: number, extra: Partial<PageLite> = {}): PageLite => ({
  id,
  parent_id,
  status: "publish",
  lang: "en",
  slug: `p${id}`,
  path: `p${id}`,
  title: `Page ${id}`,
  translation_group: null,
  frame_id: "f",
  feed: 0,
  ...extra,
});

const tree = (...rows: PageLite[]) => new PageTree(rows);

describe("what a page write changed (effects/page-changes.ts)", () => {
  it("a written page is announced even when its light row is equal (content, fields, frame)", () => {
    const rows = [page(1, 0), page(2, 1)];
    assert.deepEqual(pageChangesBetween(tree(...rows), tree(...rows), [2]), [
      { kind: "page", pageId: 2, parents: [1] },
    ]);
  });

  it("unpublishing a parent announces every descendant gone, since none is visible any more", () => {
    const before = tree(page(1, 0), page(2, 1), page(3, 2), page(4, 0));
    const after = tree(page(1, 0, { status: "draft" }), page(2, 1), page(3, 2), page(4, 0));
    const changes = pageChangesBetween(before, after, [1]);
    assert.deepEqual(
      changes.map((change) => (change.kind === "page" ? [change.pageId, change.gone === true] : null)),
      [
        [1, true],
        [2, true],
        [3, true],
      ],
    );
  });

  it("a page moved under another parent names both parents, so both lists of children print anew", () => {
    const before = tree(page(1, 0), page(2, 0), page(3, 1));
    const after = tree(page(1, 0), page(2, 0), page(3, 2));
    assert.deepEqual(pageChangesBetween(before, after, []), [{ kind: "page", pageId: 3, parents: [1, 2] }]);
  });

  it("a page joining a translation group changes every member of it (their translations lists)", () => {
    const before = tree(
      page(1, 0, { translation_group: 1 }),
      page(2, 0, { lang: "de", translation_group: 1 }),
      page(3, 0, { lang: "fr" }),
    );
    const after = tree(
      page(1, 0, { translation_group: 1 }),
      page(2, 0, { lang: "de", translation_group: 1 }),
      page(3, 0, { lang: "fr", translation_group: 1 }),
    );
    assert.deepEqual(
      pageChangesBetween(before, after, []).map((change) => (change.kind === "page" ? change.pageId : 0)),
      [1, 2, 3],
    );
  });

  it("a deleted page is gone; only the region named in `within` is compared", () => {
    const before = tree(page(1, 0), page(2, 0, { title: "old" }));
    const after = tree(page(2, 0, { title: "new" }));
    assert.deepEqual(pageChangesBetween(before, after, [], new Set([1])), [{ kind: "page", pageId: 1, gone: true }]);
  });
});
