// Fair between sites (docs/security.md): anonymous hits on one site's preview link (never
// cached) and on a page whose render fails rendered again on every request, filling the render
// workers every site shares. Now a public address whose render failed or passed a budget answers
// from a 10 s negative cache, and preview-link answers are kept a few seconds (dropped at the
// site's next publish); concurrent requests share one render.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { stalledExecutor } from "../../src/publish/executor.ts";
import { makeSite, startTestApp, type TestApp } from "../support/app.ts";
import { countRenders, live } from "./cache-helpers.ts";

describe("a public page whose render fails answers from a short negative cache", () => {
  let t: TestApp;
  let site: string;
  const host = "failing.localhost";
  const visit = () => t.app.inject({ method: "GET", url: "/slow/", headers: { host } });

  before(async () => {
    t = await startTestApp({ publishing: { executor: stalledExecutor, timeoutMs: 150 } });
    site = `/api/site/${await makeSite(t, "Failing", host)}`;
    await t.call("POST", `${site}/frames`, { body: { slug: "live", html: live } });
    await t.call("POST", `${site}/pages`, { body: { title: "Slow", slug: "slow", status: "publish", frame: "live" } });
  });
  after(() => t.close());

  it("after one failed render, the next requests are 503 with Retry-After from memory, not rendered again; a write to the page tries it again", async () => {
    const renders = countRenders(t);
    const first = await visit();
    assert.equal(first.statusCode, 503);
    assert.equal(first.headers["retry-after"], "10");
    assert.equal(renders.count, 1);
    const again = await Promise.all(Array.from({ length: 10 }, visit));
    assert.deepEqual(new Set(again.map((r) => r.statusCode)), new Set([503]));
    assert.equal(renders.count, 1, "answered from the negative cache");
    // A write that changes the page flushes it: the next request renders again.
    await t.call("PATCH", `${site}/pages/slow`, { body: { title: "Slow again" } });
    assert.equal((await visit()).statusCode, 503);
    assert.equal(renders.count, 2);
  });
});

describe("preview-link answers are kept a few seconds and shared", () => {
  let t: TestApp;
  let site: string;
  let url: string;
  const host = "previewed.localhost";
  const visit = () => t.app.inject({ method: "GET", url, headers: { host } });

  before(async () => {
    t = await startTestApp();
    site = `/api/site/${await makeSite(t, "Previewed", host)}`;
    await t.call("POST", `${site}/frames`, { body: { slug: "live", html: live } });
    await t.call("POST", `${site}/pages`, {
      body: { title: "Draft one", slug: "draft", status: "draft", frame: "live" },
    });
    const link = await t.call("POST", `${site}/preview/links`, { body: { page: "draft" } });
    assert.equal(link.status, 201, link.text);
    url = new URL(link.body.url).pathname;
  });
  after(() => t.close());

  it("twenty hits at once render the page once; the page's next write shows at once", async () => {
    const renders = countRenders(t);
    const answers = await Promise.all(Array.from({ length: 20 }, visit));
    for (const r of answers) {
      assert.equal(r.statusCode, 200);
      assert.match(r.body, /Draft one/);
      assert.equal(r.headers["cache-control"], "private, no-store");
    }
    assert.equal(renders.count, 1);
    assert.match((await visit()).body, /Draft one/);
    assert.equal(renders.count, 1, "kept");
    assert.equal((await t.call("PATCH", `${site}/pages/draft`, { body: { title: "Draft two" } })).status, 200);
    assert.match((await visit()).body, /Draft two/, "a write of the site drops what was kept");
    assert.equal(renders.count, 2);
  });
});
