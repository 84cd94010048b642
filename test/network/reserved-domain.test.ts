// The admin's host (SVC_ADMIN_HOST; docs/admin.md) is no site's: creating a site on it, moving a
// site to it and adding it as an alias answer 409 domain_reserved, whatever case it is written in,
// and write nothing.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { makeSite, startTestApp, type TestApp } from "../support/app.ts";

const domainsOf = (body: any) => body.domains.map((d: any) => d.domain);

describe("the admin's host is reserved: no site takes it as its domain or an alias", () => {
  let t: TestApp;
  let site: number;
  before(async () => {
    t = await startTestApp({ env: { SVC_ADMIN_HOST: "admin.example.com" } });
    site = await makeSite(t, "Kept", "kept.example.com");
  });
  after(() => t.close());

  it("POST /api/sites, PATCH /api/sites/{id} and POST /api/sites/{id}/domains answer 409 domain_reserved naming it", async () => {
    const writes: Array<[string, string, Record<string, unknown>]> = [
      ["POST", "/api/sites", { name: "Admin", domain: "admin.example.com" }],
      ["POST", "/api/sites", { name: "Admin", domain: " Admin.Example.COM " }],
      ["PATCH", `/api/sites/${site}`, { domain: "ADMIN.example.com" }],
      ["POST", `/api/sites/${site}/domains`, { domain: "admin.example.com" }],
    ];
    for (const [method, url, body] of writes) {
      const r = await t.call(method, url, { body });
      assert.equal(r.status, 409, `${method} ${url} ${JSON.stringify(body)}: ${r.text}`);
      assert.equal(r.body.error, "domain_reserved");
      assert.equal(r.body.domain, "admin.example.com");
      assert.match(r.body.message, /admin/);
    }
  });

  it("a refused write writes nothing: the sites and the site's domains are as before", async () => {
    const sites = await t.call("GET", "/api/sites");
    assert.deepEqual(
      sites.body.sites.map((s: any) => s.domain),
      ["localhost", "kept.example.com"],
    );
    assert.deepEqual(domainsOf((await t.call("GET", `/api/sites/${site}/domains`)).body), ["kept.example.com"]);
  });

  it("only the configured admin host is reserved: the default one is an ordinary domain here", async () => {
    const r = await t.call("POST", `/api/sites/${site}/domains`, { body: { domain: "admin.localhost" } });
    assert.equal(r.status, 201, r.text);
  });
});
