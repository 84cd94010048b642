// Issue 16, point 1: every write that can make a bake print more is tried before it is stored,
// the frame writes that do not carry markup included. A rename makes the frames that named the
// new slug print the renamed frame; an assign puts a page (its content, its fields) on a frame.
// Both are refused with 422 render_too_large past a budget, and store nothing.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { effects, ok, served, processes } from "../publish/effects-helpers.ts";

const embeds = (slug: string, times: number) => `<!-- svc/frame {"name": "${slug}"} /-->`.repeat(times);

describe(`render budgets of renames and assigns (${processes === 2 ? "PostgreSQL, two processes" : "SQLite"})`, () => {
  const e = effects();

  it("renaming a frame to a slug other frames embed many times is refused with 422 render_too_large, its dry run too, and the slug stays", async () => {
    const address = await e.shown("rn-top", `<main>${embeds("rn-big", 30)}</main>`);
    const before = served(await e.visit(address), "before");
    await e.frame("rn-heavy", `<p>${"h".repeat(300_000)}</p>`);
    for (const dryRun of [true, false]) {
      const refused = await e.api("PATCH", "/frames/rn-heavy", { slug: "rn-big", dry_run: dryRun });
      assert.equal(refused.status, 422, refused.text.slice(0, 300));
      assert.equal(refused.body.error, "render_too_large");
      assert.equal(refused.body.budget, "bytes");
      assert.deepEqual(refused.body.chain, ["rn-top", "rn-big"]);
    }
    assert.equal(ok(await e.api("GET", "/frames/rn-heavy"), "kept its slug").frame.slug, "rn-heavy");
    assert.equal((await e.api("GET", "/frames/rn-big")).status, 404, "no frame took the new slug");
    assert.equal(served(await e.visit(address), "after"), before, "the embedding page is its last good copy");
    // A rename within the budgets goes through, dry run first.
    const small = ok(await e.api("PATCH", "/frames/rn-heavy", { slug: "rn-small", dry_run: true }), "dry run");
    assert.equal(small.applied, false);
    assert.equal(ok(await e.api("GET", "/frames/rn-heavy"), "dry run wrote nothing").frame.slug, "rn-heavy");
  });

  it("assigning a frame that prints its page's content many times to a page with large content is refused with 422 render_too_large, and the page keeps its frame", async () => {
    await e.frame("as-plain", "<p>plain</p>");
    await e.frame("as-triple", `<div data-op-bind='{"html": "page.content"}'></div>`.repeat(3));
    const id = await e.page("as-page", "as-plain", { content: `<p>${"c".repeat(2_000_000)}</p>` });
    const refused = await e.api("POST", "/frames/as-triple/assign", { page: id });
    assert.equal(refused.status, 422, refused.text.slice(0, 300));
    assert.equal(refused.body.error, "render_too_large");
    assert.equal(refused.body.budget, "bytes");
    assert.deepEqual(refused.body.chain, ["as-triple"]);
    assert.equal(ok(await e.api("GET", `/pages/${id}`), "page").page.frame, "as-plain", "the page stays on its frame");
    assert.match(served(await e.visit("/as-page/"), "public page"), /<p>plain<\/p>/);
    // Taking a frame off, and a frame within the budgets, are not refused.
    const fine = ok(await e.api("POST", "/frames/as-plain/assign", { page: id, clear: true }), "clear");
    assert.equal(fine.cleared, true);
  });
});
