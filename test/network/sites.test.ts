import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { makeSite, makeUser, startTestApp, type TestApp } from "../support/app.ts";

describe("sites", () => {
  let t: TestApp;
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  it("first start created main site 1 named 'Main site' on the public host", async () => {
    const r = await t.call("GET", "/api/sites/1");
    assert.equal(r.status, 200);
    assert.deepEqual(
      { id: r.body.site.id, name: r.body.site.name, domain: r.body.site.domain, home_url: r.body.site.home_url },
      { id: 1, name: "Main site", domain: "localhost", home_url: "http://localhost:8080/" },
    );
    assert.match(r.body.site.created_at_gmt, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  });

  it("a super-administrator creates a site: 201 with the record, readable back", async () => {
    const r = await t.call("POST", "/api/sites", { body: { name: "Blog", domain: "Blog.Localhost" } });
    assert.equal(r.status, 201);
    assert.equal(r.body.success, true);
    assert.equal(r.body.site.domain, "blog.localhost");
    assert.deepEqual(r.body.warnings, []);
    const back = await t.call("GET", `/api/sites/${r.body.site.id}`);
    assert.deepEqual(back.body.site, r.body.site);
  });

  it("a taken domain is 409 domain_taken; a missing name is 400 site_name_required; a bad domain 400 invalid_domain", async () => {
    await makeSite(t, "Taken", "taken.localhost");
    const taken = await t.call("POST", "/api/sites", { body: { name: "Again", domain: "taken.localhost" } });
    assert.equal(taken.status, 409);
    assert.equal(taken.body.error, "domain_taken");
    assert.equal(taken.body.success, false);
    const noName = await t.call("POST", "/api/sites", { body: { name: "  ", domain: "x.localhost" } });
    assert.equal(noName.status, 400);
    assert.equal(noName.body.error, "site_name_required");
    const badDomain = await t.call("POST", "/api/sites", { body: { name: "X", domain: "not a host" } });
    assert.equal(badDomain.body.error, "invalid_domain");
  });

  it("creating a site needs a super-administrator: others get 403 insufficient_role", async () => {
    const user = await makeUser(t, "plain-site-creator");
    const r = await t.call("POST", "/api/sites", {
      token: user.token,
      body: { name: "Mine", domain: "mine.localhost" },
    });
    assert.equal(r.status, 403);
    assert.equal(r.body.error, "insufficient_role");
  });

  it("GET /api/sites lists all sites for a super-administrator and only administered ones for others", async () => {
    const siteId = await makeSite(t, "Listed", "listed.localhost");
    await makeSite(t, "Hidden", "hidden.localhost");
    const user = await makeUser(t, "lister");
    await t.call("PUT", `/api/site/${siteId}/users/${user.id}`, { body: { role: "administrator" } });
    const mine = await t.call("GET", "/api/sites", { token: user.token });
    assert.deepEqual(
      mine.body.sites.map((s: any) => s.id),
      [siteId],
    );
    assert.equal(mine.body.total, 1);
    const all = await t.call("GET", "/api/sites");
    assert.ok(all.body.total >= 3);
    assert.equal(all.body.total, all.body.sites.length);
  });

  it("PATCH renames a site; the domain only by a super-administrator; unknown keys are warned", async () => {
    const siteId = await makeSite(t, "Old", "old.localhost");
    const admin = await makeUser(t, "site-renamer");
    await t.call("PUT", `/api/site/${siteId}/users/${admin.id}`, { body: { role: "administrator" } });
    const renamed = await t.call("PATCH", `/api/sites/${siteId}`, {
      token: admin.token,
      body: { name: "New", colour: "red" },
    });
    assert.equal(renamed.status, 200);
    assert.equal(renamed.body.site.name, "New");
    assert.deepEqual(
      renamed.body.warnings.map((w: any) => [w.code, w.field]),
      [["unknown_field", "colour"]],
    );
    const domain = await t.call("PATCH", `/api/sites/${siteId}`, {
      token: admin.token,
      body: { domain: "new.localhost" },
    });
    assert.equal(domain.status, 403);
    const bySuper = await t.call("PATCH", `/api/sites/${siteId}`, { body: { domain: "new.localhost" } });
    assert.equal(bySuper.body.site.domain, "new.localhost");
    const nothing = await t.call("PATCH", `/api/sites/${siteId}`, { body: {} });
    assert.equal(nothing.body.error, "nothing_to_update");
  });

  it("a foreign site and an unknown site answer the same 404 site_not_found", async () => {
    const siteId = await makeSite(t, "Foreign", "foreign.localhost");
    const user = await makeUser(t, "outsider");
    const foreign = await t.call("GET", `/api/sites/${siteId}`, { token: user.token });
    const unknown = await t.call("GET", "/api/sites/99999", { token: user.token });
    assert.equal(foreign.status, 404);
    assert.deepEqual(foreign.body, unknown.body);
  });

  it("DELETE removes a site with its memberships; the main site is 409 main_site", async () => {
    const siteId = await makeSite(t, "Doomed", "doomed.localhost");
    const user = await makeUser(t, "doomed-admin");
    await t.call("PUT", `/api/site/${siteId}/users/${user.id}`, { body: { role: "administrator" } });
    const r = await t.call("DELETE", `/api/sites/${siteId}`);
    assert.equal(r.status, 200);
    assert.equal(r.body.site.id, siteId);
    assert.equal((await t.call("GET", `/api/sites/${siteId}`)).status, 404);
    const profile = await t.call("GET", "/api/profile", { token: user.token });
    assert.deepEqual(profile.body.sites, []);
    const main = await t.call("DELETE", "/api/sites/1");
    assert.equal(main.status, 409);
    assert.equal(main.body.error, "main_site");
  });
});
