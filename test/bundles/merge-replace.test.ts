// Importing into an existing site (docs/bundles.md, "Merge and replace"): a dry run answers the
// plan and writes nothing; merge creates and updates (the bundle wins) and never deletes; replace
// also deletes what the bundle lacks; an unresolved reference is a conflict, skipped.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { makeSite, startTestApp, type TestApp } from "../support/app.ts";
import { call, exportBytes, handBundle, importBytes } from "./support.ts";

const html = (text: string) => `<!doctype html><html><body>${text}</body></html>`;

describe("bundles: merge, replace and dry runs", () => {
  let t: TestApp;
  let source: number;
  let target: number;
  let bundle: Buffer;
  before(async () => {
    t = await startTestApp();
    source = await makeSite(t, "Source", "source.localhost");
    target = await makeSite(t, "Target", "target.localhost");
    for (const [slug, text] of [
      ["a", "A from the bundle"],
      ["b", "B from the bundle"],
    ])
      await call(t, "POST", `/api/site/${source}/frames`, { slug, html: html(text) });
    await call(t, "POST", `/api/site/${source}/pages`, { title: "Home", slug: "home", frame: "a" });
    bundle = await exportBytes(t, source);
    await call(t, "POST", `/api/site/${target}/frames`, { slug: "a", html: html("A of the target") });
    await call(t, "POST", `/api/site/${target}/frames`, { slug: "mine", html: html("only the target's") });
  });
  after(() => t.close());

  const frames = async () =>
    Object.fromEntries(
      (await call(t, "GET", `/api/site/${target}/frames?include_html=1`)).frames.map((f: any) => [f.slug, f.html]),
    );

  it("a dry run names what it would create, update and leave, and writes nothing", async () => {
    const before = await frames();
    const plan = await importBytes(t, `/api/sites/${target}/import?dry_run=1`, bundle);
    assert.equal(plan.status, 200, JSON.stringify(plan.body));
    assert.equal(plan.body.dry_run, true);
    const names = (list: any[]) => list.map((o) => `${o.kind}:${o.name}`);
    assert.ok(names(plan.body.creates).includes("frames:b"));
    assert.ok(names(plan.body.creates).includes("pages:_:/home"));
    assert.deepEqual(
      names(plan.body.updates).filter((n) => n.startsWith("frames")),
      ["frames:a"],
    );
    assert.deepEqual(plan.body.deletes, []);
    const replacing = await importBytes(t, `/api/sites/${target}/import?dry_run=1&mode=replace`, bundle);
    assert.ok(names(replacing.body.deletes).includes("frames:mine"));
    assert.deepEqual(await frames(), before);
  });

  it("merge creates and updates, the bundle winning, and deletes nothing", async () => {
    const done = await importBytes(t, `/api/sites/${target}/import`, bundle);
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.deepEqual(done.body.conflicts, []);
    const now = await frames();
    assert.equal(now.a, html("A from the bundle"));
    assert.equal(now.b, html("B from the bundle"));
    assert.equal(now.mine, html("only the target's"));
    const again = await importBytes(t, `/api/sites/${target}/import?dry_run=1`, bundle);
    assert.deepEqual([again.body.creates, again.body.updates], [[], []]);
  });

  it("replace also deletes what the bundle lacks", async () => {
    const done = await importBytes(t, `/api/sites/${target}/import?mode=replace`, bundle);
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.ok(done.body.deletes.some((o: any) => o.kind === "frames" && o.name === "mine"));
    assert.deepEqual(Object.keys(await frames()).sort(), ["a", "b"]);
  });

  it("a page on a frame that is nowhere, and its child, are conflicts, skipped; the rest is written", async () => {
    const page = (frame: string) =>
      JSON.stringify({ title: "P", status: "publish", frame, content: "", tags: [], fields: {}, seo: {} });
    const bytes = await handBundle({
      "frames/c.html": html("C"),
      "pages/_/lost.json": page("nowhere"),
      "pages/_/lost/child.json": page("c"),
    });
    const done = await importBytes(t, `/api/sites/${target}/import`, bytes);
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.deepEqual(
      done.body.conflicts.map((c: any) => [c.name, c.reason, c.details.ref]),
      [
        ["_:/lost", "unresolved_reference", "nowhere"],
        ["_:/lost/child", "unresolved_reference", "_:/lost"],
      ],
    );
    assert.equal((await frames()).c, html("C"));
  });
});
