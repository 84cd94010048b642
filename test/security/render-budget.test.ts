// Output blow-up (docs/security.md, "Bounded rendering"): a few hundred bytes of frames that embed
// each other several times baked to a 155 MB page, held the event loop for seconds, ended in a 500
// and grew the database by hundreds of megabytes. Every bake now runs within budgets (5 MB of
// output, 10,000 frames printed, a time budget); a write that would make a bake go past one is
// refused with 422 render_too_large and stores nothing, and a long render never holds other sites'
// requests.
// Real processes over sockets (two on PostgreSQL), so the render worker of the build runs too.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { call } from "../cluster/helpers.ts";
import { effects, ok, served, processes } from "../publish/effects-helpers.ts";

const embeds = (slug: string, times: number) => `<!-- svc/frame {"name": "${slug}"} /-->`.repeat(times);

describe(`render budgets (${processes === 2 ? "PostgreSQL, two processes" : "SQLite"})`, () => {
  const e = effects();

  it("nested frames that would bake past 5 MB are refused with 422 render_too_large (budget bytes, chain from the frame over budget inward), and nothing is stored", async () => {
    await e.frame("blow-leaf", `<p>${"x".repeat(300_000)}</p>`);
    await e.frame("blow-mid", `<div>${embeds("blow-leaf", 8)}</div>`);
    const refused = await e.api("POST", "/frames", { slug: "blow-top", html: `<main>${embeds("blow-mid", 8)}</main>` });
    assert.equal(refused.status, 422, refused.text.slice(0, 300));
    assert.equal(refused.body.error, "render_too_large");
    assert.equal(refused.body.budget, "bytes");
    assert.equal(refused.body.chain[0], "blow-top");
    for (const slug of refused.body.chain) assert.ok(["blow-top", "blow-mid", "blow-leaf"].includes(slug), slug);
    assert.equal((await e.api("GET", "/frames/blow-top")).status, 404, "the frame was not stored");
  });

  it("a write that would make a frame embedding it go past a budget is refused, and the public page keeps its last good copy", async () => {
    await e.frame("grow-leaf", "<p>small leaf</p>");
    const address = await e.shown(
      "grow-page",
      `<!DOCTYPE html><title>grow</title><body>${embeds("grow-leaf", 40)}</body>`,
    );
    const before = served(await e.visit(address), "before");
    assert.ok(before.includes("small leaf"));
    const refused = await e.api("PUT", "/frames/grow-leaf", { html: `<p>${"y".repeat(200_000)}</p>` });
    assert.equal(refused.status, 422, refused.text.slice(0, 300));
    assert.equal(refused.body.error, "render_too_large");
    assert.equal(refused.body.budget, "bytes");
    assert.deepEqual(refused.body.chain.slice(0, 1), ["grow-page"], "the embedding frame went over");
    assert.equal(
      ok(await e.api("GET", "/frames/grow-leaf"), "leaf").frame.html,
      "<p>small leaf</p>",
      "the leaf keeps its markup",
    );
    assert.equal(served(await e.visit(address), "after"), before, "the public page is its last good copy");
  });

  it("a frame printing more than 10,000 frames is refused with budget expansions", async () => {
    await e.frame("tiny", "<i>t</i>");
    const refused = await e.api("POST", "/frames", { slug: "many-tiny", html: `<div>${embeds("tiny", 10_001)}</div>` });
    assert.equal(refused.status, 422, refused.text.slice(0, 300));
    assert.equal(refused.body.error, "render_too_large");
    assert.equal(refused.body.budget, "expansions");
    assert.equal(refused.body.chain[0], "many-tiny");
    const fine = await e.api("POST", "/frames", { slug: "enough-tiny", html: `<div>${embeds("tiny", 10_000)}</div>` });
    assert.equal(fine.status, 201, "10,000 frames printed are within the budget");
  });

  it("a data-set write that would make a repeat print past 5 MB is refused, and the set keeps its items", async () => {
    ok(await e.api("PUT", "/data/rows", { items: [{ text: "short" }] }), "rows", 201);
    const list = `<ul><!-- svc/repeat {"source": "data.rows"} --><li data-op-bind='{"text": "item.text"}'></li><!-- /svc/repeat --></ul>`;
    const address = await e.shown("rows-page", list.repeat(3));
    // 2 MB of items (a set may hold 4 MB), printed three times.
    const refused = await e.api("PUT", "/data/rows", {
      items: Array.from({ length: 20 }, () => ({ text: "z".repeat(100_000) })),
    });
    assert.equal(refused.status, 422, refused.text.slice(0, 300));
    assert.equal(refused.body.error, "render_too_large");
    assert.equal(refused.body.chain[0], "rows-page");
    assert.equal(ok(await e.api("GET", "/data/rows"), "rows").items.length, 1);
    assert.ok(served(await e.visit(address), "page").includes("short"));
  });

  it("a menu write that would make the frames printing it go past 5 MB is refused, and the menu keeps its items", async () => {
    ok(
      await e.api("POST", "/menus", { name: "Wide", location: "footer_2", items: [{ url: "/w", title: "Wide link" }] }),
      "menu",
      201,
    );
    await e.frame("wide-menu", `<nav><!-- svc/menu {"location": "footer_2"} /--></nav>`);
    const address = await e.shown("wide-page", embeds("wide-menu", 60));
    const items = Array.from({ length: 100 }, (_, i) => ({ url: `/w${i}`, title: "w".repeat(1_000) }));
    const refused = await e.api("PUT", "/menus/wide/items", { items });
    assert.equal(refused.status, 422, refused.text.slice(0, 300));
    assert.equal(refused.body.error, "render_too_large");
    assert.equal(refused.body.budget, "bytes");
    assert.equal(refused.body.chain[0], "wide-page");
    assert.equal(ok(await e.api("GET", "/menus/wide"), "menu").items.length, 1);
    assert.ok(served(await e.visit(address), "page").includes("Wide link"));
  });

  it("a write rebaking more frames than its trial covers is published, and a frame past a budget beyond them keeps its last good copy and is reported failed", async () => {
    await e.frame("many-leaf", "<p>leaf</p>");
    for (let i = 0; i < 250; i++)
      await e.frame(`many-${String(i).padStart(3, "0")}`, `<div>${embeds("many-leaf", 1)}</div>`);
    // Sorted after the 250 others, so past the 250 frames a trial renders: only the publish sees it go over.
    const address = await e.shown("zz-many-page", `<main>${embeds("many-leaf", 200)}</main>`);
    const before = served(await e.visit(address), "before");
    const answer = ok(await e.api("PUT", "/frames/many-leaf", { html: `<p>${"w".repeat(30_000)}</p>` }), "leaf write");
    const failed = answer.rebaked.frames.find(
      (f: { slug: string }) => f.slug === "zz-many-page-page" || f.slug === "zz-many-page",
    );
    assert.equal(failed?.bake, "failed", JSON.stringify(failed));
    assert.equal(failed.detail.code, "render_too_large");
    assert.equal(failed.detail.budget, "bytes");
    assert.equal(answer.rebaked.frames.filter((f: { bake: string }) => f.bake === "baked").length, 250);
    assert.equal(served(await e.visit(address), "after"), before, "the page keeps its last good copy");
  });

  it("a render that runs past the time budget is refused within 5 s, and meanwhile another site's page is answered within 250 ms", async () => {
    const other = await e.site("Other", "other-budget.localhost");
    ok(await e.api("POST", "/frames", { slug: "plain", html: "<p>other site</p>" }, other), "other frame", 201);
    ok(
      await e.api("POST", "/pages", { title: "o", slug: "o", status: "publish", frame: "plain" }, other),
      "other page",
      201,
    );
    for (const port of e.cluster.processes.map((p) => p.port))
      for (let i = 0; i < 2; i++) await call(port, "GET", "/o/", { host: "other-budget.localhost" });
    ok(await e.api("PUT", "/data/loop", { items: Array.from({ length: 2_000 }, (_, i) => ({ n: i })) }), "loop", 201);
    // 2,000 × 2,000 × 2,000 iterations that print nothing: only the time budget stops it.
    const loop = `<!-- svc/repeat {"source": "data.loop", "match": {"n": "none"}} -->x<!-- /svc/repeat -->`;
    const nested = `<!-- svc/repeat {"source": "data.loop"} --><!-- svc/repeat {"source": "data.loop"} -->${loop}<!-- /svc/repeat --><!-- /svc/repeat -->`;
    const started = performance.now();
    const write = e.api("POST", "/frames", { slug: "slow", html: `<div>${nested}</div>` });
    const waits: number[] = [];
    for (let i = 0; i < 5; i++) {
      await new Promise((resolve) => setTimeout(resolve, 150));
      const asked = performance.now();
      // Through the process that renders (the writer's): its thread must stay free.
      served(await call(e.cluster.processes[0].port, "GET", "/o/", { host: "other-budget.localhost" }), "other site");
      waits.push(performance.now() - asked);
    }
    const refused = await write;
    const took = performance.now() - started;
    assert.equal(refused.status, 422, refused.text.slice(0, 300));
    assert.equal(refused.body.error, "render_too_large");
    assert.equal(refused.body.budget, "time");
    assert.deepEqual(refused.body.chain, ["slow"]);
    assert.ok(took < 5_000, `answered in ${Math.round(took)} ms`);
    // A thread held by the render would hold all five for the render's seconds; one slow answer
    // alone is the machine (CI runs test files side by side), so the median is what must be quick.
    const shown = `the other site answered in ${waits.map(Math.round).join(", ")} ms`;
    assert.ok([...waits].sort((a, b) => a - b)[2]! < 250, shown);
    assert.ok(Math.max(...waits) < 1_000, shown);
  });
});
