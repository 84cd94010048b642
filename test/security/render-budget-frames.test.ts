// Bounded rendering (docs/security.md): every write that can make a bake print more is tried before
// it is stored, the frame writes that do not carry markup included. A rename makes the frames that
// named the new slug print the renamed frame; an assign puts a page (its content, its fields) on a
// frame.
// Both are refused with 422 render_too_large past a budget, and store nothing.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { call } from "../cluster/helpers.ts";
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

  it("while a write's trial renders up to the time budget, another site's page not held in memory and an API read of that site are answered within 250 ms", async () => {
    const other = await e.site("Cold", "cold-budget.localhost");
    ok(await e.api("POST", "/frames", { slug: "cold", html: "<p>cold site</p>" }, other), "other frame", 201);
    for (let i = 0; i < 5; i++)
      ok(
        await e.api("POST", "/pages", { title: `c${i}`, slug: `c${i}`, status: "publish", frame: "cold" }, other),
        "other page",
        201,
      );
    ok(await e.api("PUT", "/data/spin", { items: Array.from({ length: 2_000 }, (_, i) => ({ n: i })) }), "spin", 201);
    const loop = `<!-- svc/repeat {"source": "data.spin", "match": {"n": "none"}} -->x<!-- /svc/repeat -->`;
    const nested = `<!-- svc/repeat {"source": "data.spin"} --><!-- svc/repeat {"source": "data.spin"} -->${loop}<!-- /svc/repeat --><!-- /svc/repeat -->`;
    const write = e.api("POST", "/frames", { slug: "spin", html: `<div>${nested}</div>` });
    const port = e.cluster.processes[0].port;
    const waits: number[] = [];
    for (let i = 0; i < 5; i++) {
      await new Promise((resolve) => setTimeout(resolve, 150));
      let asked = performance.now();
      // Never asked before: not in memory, so it is read from the database.
      served(await call(port, "GET", `/c${i}/`, { host: "cold-budget.localhost" }), "cold page");
      waits.push(performance.now() - asked);
      asked = performance.now();
      ok(await e.api("GET", `/pages/c${i}`, undefined, other), "API read");
      waits.push(performance.now() - asked);
    }
    const refused = await write;
    assert.equal(refused.status, 422, refused.text.slice(0, 300));
    assert.equal(refused.body.budget, "time");
    assert.ok(Math.max(...waits) < 250, `answered in ${waits.map(Math.round).join(", ")} ms`);
  });
});
