// A site exported from one instance and imported into a fresh one (docs/bundles.md): every public
// page answers the same status and bytes apart from the domain; drafts stay drafts.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { makeSite, startTestApp, type TestApp } from "../support/app.ts";
import { visit } from "../support/site.ts";
import { call, exportBytes, fillSite, importBytes } from "./support.ts";

describe("bundles: round trip between two instances", () => {
  let a: TestApp;
  let b: TestApp;
  let site: number;
  before(async () => {
    [a, b] = await Promise.all([startTestApp(), startTestApp()]);
    site = await makeSite(a, "Origin", "origin.localhost");
    await fillSite(a, site);
  });
  after(async () => {
    await a.close();
    await b.close();
  });

  it("exports, imports as a new site, and the new site answers every page as the old one", async () => {
    const bytes = await exportBytes(a, site);
    const made = await importBytes(b, "/api/sites/import?domain=copy.localhost", bytes);
    assert.equal(made.status, 201, JSON.stringify(made.body));
    assert.deepEqual(made.body.conflicts, []);
    await b.settled();
    const copy = made.body.site_id as number;
    const pages = (await call(a, "GET", `/api/site/${site}/pages?status=any&per_page=100`)).pages;
    const copied = (await call(b, "GET", `/api/site/${copy}/pages?status=any&per_page=100`)).pages;
    assert.deepEqual(
      copied.map((p: any) => [p.lang, p.path, p.status]).sort(),
      pages.map((p: any) => [p.lang, p.path, p.status]).sort(),
    );
    for (const address of ["/about/", "/about/team/", "/de/ueber/", "/draft/", "/old", "/nope/"]) {
      const old = await visit(a, address, "origin.localhost:8080");
      const now = await visit(b, address, "copy.localhost:8080");
      assert.equal(now.status, old.status, address);
      assert.equal(now.body.replaceAll("copy.localhost", "origin.localhost"), old.body, address);
    }
    // The same bundle again is no change at all.
    const again = await importBytes(b, `/api/sites/${copy}/import?dry_run=1`, bytes);
    assert.equal(again.status, 200);
    assert.deepEqual([again.body.creates, again.body.updates, again.body.conflicts], [[], [], []]);
  });
});
