// `/admin` on any host but the admin's (docs/admin.md): 302 to the admin's address where the site
// shows no page there, the site's own page where it has one; deeper addresses stay the site's.
// The admin's routes answer only on its host, as `hostOf` reads a Host header.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { makeSite, type TestApp } from "../support/app.ts";
import { startAdminApp } from "../support/admin.ts";
import { assign, bind, frame, page, visit } from "../support/site.ts";
import { adminHostPattern } from "../../src/admin/routes.ts";
import { hostOf } from "../../src/site/addresses.ts";

const ADMIN_URL = "http://admin.localhost:8080/admin/";

describe("/admin on a site's host", () => {
  let t: TestApp;
  let other: string;
  before(async () => {
    t = await startAdminApp();
    const id = await makeSite(t, "Other", "other.localhost");
    other = `/api/site/${id}`;
    const html = `<!DOCTYPE html><html><body><h1 ${bind("text", "page.title")}>x</h1></body></html>`;
    await frame(t, "plain", html, other);
    await assign(
      t,
      "plain",
      (await page(t, { title: "Our admin page", slug: "admin", status: "publish" }, other)).id,
      other,
    );
  });
  after(() => t.close());

  it("`/admin` and `/admin/` answer 302 to the admin's address where the site has no page there", async () => {
    assert.equal(t.config.adminUrl, ADMIN_URL);
    for (const host of ["localhost:8080", "localhost", "unknown.example"]) {
      for (const url of ["/admin", "/admin/", "/admin/?from=bookmark"]) {
        const r = await t.app.inject({ url, headers: { host } });
        assert.equal(r.statusCode, 302, `${host}${url}: ${r.statusCode}`);
        assert.equal(r.headers.location, ADMIN_URL);
        assert.equal(r.headers["cache-control"], "no-cache");
      }
    }
  });

  it("a page at /admin/ wins: the site's page answers, not the redirect", async () => {
    const shown = await visit(t, "/admin/", "other.localhost:8080");
    assert.equal(shown.status, 200);
    assert.match(shown.body, /Our admin page/);
    const variant = await visit(t, "/admin", "other.localhost:8080");
    assert.equal(variant.status, 301, "another spelling of the page's address goes to it");
  });

  it("deeper addresses under /admin/ on a site's host stay the site's: its 404, never the admin's page", async () => {
    for (const url of ["/admin/pages/", "/admin/assets/main-AAAAAAAA.js"]) {
      const r = await visit(t, url, "localhost:8080");
      assert.equal(r.status, 404, url);
      assert.doesNotMatch(r.body, /<script/, url);
    }
  });

  it("the admin's routes are bound to the Host headers that hostOf reads as the admin's host", () => {
    const pattern = adminHostPattern("admin.localhost");
    for (const header of [
      "admin.localhost",
      "admin.localhost:8080",
      "ADMIN.LOCALHOST:1",
      "admin.localhost.",
      "admin.localhostx",
      "xadmin.localhost",
      "admin-localhost",
      "admin.localhost:80:80",
      "",
    ]) {
      assert.equal(pattern.test(header), hostOf(header) === "admin.localhost", header);
    }
  });
});
