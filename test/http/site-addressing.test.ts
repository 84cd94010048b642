import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { makeSite, makeUser, startTestApp, type TestApp } from "../support/app.ts";

describe("site addressing", () => {
  let t: TestApp;
  let blog: number;
  let blogAdmin: { id: number; token: string };
  before(async () => {
    t = await startTestApp();
    blog = await makeSite(t, "Blog", "blog.localhost");
    blogAdmin = await makeUser(t, "blog-admin");
    await t.call("PUT", `/api/site/${blog}/users/${blogAdmin.id}`, { body: { role: "administrator" } });
  });
  after(() => t.close());

  it("/api/site/{id}/… acts on that site and says so in site_id", async () => {
    const r = await t.call("GET", `/api/site/${blog}/settings`, { token: blogAdmin.token });
    assert.equal(r.status, 200);
    assert.equal(r.body.site_id, blog);
    assert.equal(r.body.settings.name, "Blog");
  });

  it("the legacy address picks the site by blog_id, then X-Svc-Blog-Id, then domain, and names the source", async () => {
    const byQuery = await t.call("GET", `/api/settings?blog_id=${blog}`);
    assert.equal(byQuery.body.site_id, blog);
    assert.equal(byQuery.headers["x-svc-blog-source"], "blog_id");
    const byHeader = await t.call("GET", "/api/settings", { headers: { "x-svc-blog-id": String(blog) } });
    assert.equal(byHeader.body.site_id, blog);
    assert.equal(byHeader.headers["x-svc-blog-source"], "header");
    const byDomain = await t.call("GET", "/api/settings?domain=blog.localhost");
    assert.equal(byDomain.body.site_id, blog);
    assert.equal(byDomain.headers["x-svc-blog-source"], "domain");
    const order = await t.call("GET", `/api/settings?blog_id=1&domain=blog.localhost`, {
      headers: { "x-svc-blog-id": String(blog) },
    });
    assert.equal(order.body.site_id, 1, "blog_id is read first");
  });

  it("with no selector the legacy address goes to the main site with X-Svc-Blog-Source: default", async () => {
    const r = await t.call("GET", "/api/settings");
    assert.equal(r.status, 200);
    assert.equal(r.body.site_id, 1);
    assert.equal(r.headers["x-svc-blog-source"], "default");
  });

  it("a legacy selector that names no site is 404 site_not_found before the handler", async () => {
    for (const query of ["blog_id=9999", "blog_id=abc", "domain=nowhere.localhost"]) {
      const r = await t.call("GET", `/api/settings?${query}`);
      assert.equal(r.status, 404, query);
      assert.deepEqual(r.body, { code: "site_not_found", message: r.body.message, data: { status: 404 } });
    }
  });

  it("on the legacy address a caller who is not an administrator gets 403 insufficient_role", async () => {
    const editor = await makeUser(t, "blog-editor");
    await t.call("PUT", `/api/site/${blog}/users/${editor.id}`, { body: { role: "editor" } });
    const asEditor = await t.call("GET", `/api/settings?blog_id=${blog}`, { token: editor.token });
    assert.equal(asEditor.status, 403);
    assert.equal(asEditor.body.code, "insufficient_role");
    const mainAsBlogAdmin = await t.call("GET", "/api/settings", { token: blogAdmin.token });
    assert.equal(mainAsBlogAdmin.status, 403, "the main site is not theirs");
    const ownByDomain = await t.call("GET", "/api/settings?domain=blog.localhost", { token: blogAdmin.token });
    assert.equal(ownByDomain.status, 200);
  });

  it("on /api/site/{id}/ unknown, foreign and not-administered sites answer one identical 404", async () => {
    const other = await makeSite(t, "Other", "other.localhost");
    const answers = await Promise.all(
      [other, 1, 987654, "0", "x"].map((id) => t.call("GET", `/api/site/${id}/settings`, { token: blogAdmin.token })),
    );
    for (const a of answers) {
      assert.equal(a.status, 404);
      assert.deepEqual(a.body, answers[0].body);
    }
  });

  it("the token is checked before the site: no token on an unknown site is 401", async () => {
    const r = await t.call("GET", "/api/site/987654/settings", { token: null });
    assert.equal(r.status, 401);
    assert.equal(r.body.code, "missing_token");
  });

  it("a super-administrator reaches every site on both addresses", async () => {
    assert.equal((await t.call("GET", `/api/site/${blog}/settings`)).status, 200);
    assert.equal((await t.call("GET", `/api/settings?blog_id=${blog}`)).status, 200);
  });
});
