// A site's domains (docs/domains.md): GET/POST /api/sites/{id}/domains, DELETE
// /api/sites/{id}/domains/{domain}, the normalisation and refusals every domain of the API gets
// (POST and PATCH /api/sites too), and the public site answering an alias 301 to the primary.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { makeSite, makeUser, startTestApp, type TestApp } from "../support/app.ts";
import { rawHeader, rawRequest } from "../support/raw-http.ts";
import { assign, bind, frame, page, visit } from "../support/site.ts";

const domainsOf = (body: any) => body.domains.map((d: any) => [d.domain, d.primary]);

describe("domains: the API", () => {
  let t: TestApp;
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  it("a new site has its primary domain only; aliases are added (201) and listed after it, by name, and removed", async () => {
    const id = await makeSite(t, "Aliased", "aliased.localhost");
    const listed = await t.call("GET", `/api/sites/${id}/domains`);
    assert.equal(listed.status, 200);
    assert.deepEqual(
      { ...listed.body, domains: domainsOf(listed.body) },
      { success: true, site_id: id, domains: [["aliased.localhost", true]], warnings: [] },
    );

    const added = await t.call("POST", `/api/sites/${id}/domains`, {
      body: { domain: "WWW.Aliased.localhost", primary: true },
    });
    assert.equal(added.status, 201, added.text);
    assert.deepEqual(added.body.domain, {
      domain: "www.aliased.localhost",
      primary: false,
      https: null,
      scheme: "http",
    });
    assert.equal(added.body.site_id, id);
    assert.deepEqual(
      added.body.warnings.map((w: any) => [w.code, w.field]),
      [["unknown_field", "primary"]],
      "other keys are ignored with a warning",
    );
    assert.ok(
      (await t.call("POST", `/api/sites/${id}/domains`, { body: { domain: "aliased.example" } })).status === 201,
    );
    const both = await t.call("GET", `/api/sites/${id}/domains`);
    assert.deepEqual(domainsOf(both.body), [
      ["aliased.localhost", true],
      ["aliased.example", false],
      ["www.aliased.localhost", false],
    ]);

    const removed = await t.call("DELETE", `/api/sites/${id}/domains/WWW.aliased.localhost`);
    assert.equal(removed.status, 200, removed.text);
    assert.equal(removed.body.deleted, true);
    assert.deepEqual(removed.body.domain, {
      domain: "www.aliased.localhost",
      primary: false,
      https: null,
      scheme: "http",
    });
    assert.deepEqual(domainsOf(removed.body), [
      ["aliased.localhost", true],
      ["aliased.example", false],
    ]);
    assert.deepEqual(domainsOf((await t.call("GET", `/api/sites/${id}/domains`)).body), domainsOf(removed.body));
    // GET /api/sites/{id} still names the primary domain.
    assert.equal((await t.call("GET", `/api/sites/${id}`)).body.site.domain, "aliased.localhost");
  });

  it("the primary domain cannot be removed (409 domain_is_primary); a domain that is no alias of the site is 404 domain_not_found", async () => {
    const id = await makeSite(t, "Keeps", "keeps.localhost");
    const other = await makeSite(t, "Other", "other-keeps.localhost");
    await t.call("POST", `/api/sites/${other}/domains`, { body: { domain: "alias-of-other.localhost" } });
    const primary = await t.call("DELETE", `/api/sites/${id}/domains/Keeps.Localhost`);
    assert.equal(primary.status, 409);
    assert.equal(primary.body.error, "domain_is_primary");
    assert.equal(primary.body.domain, "keeps.localhost");
    for (const domain of ["never.localhost", "alias-of-other.localhost", "other-keeps.localhost"]) {
      const r = await t.call("DELETE", `/api/sites/${id}/domains/${domain}`);
      assert.equal(r.status, 404, domain);
      assert.equal(r.body.error, "domain_not_found", domain);
    }
    assert.deepEqual(domainsOf((await t.call("GET", `/api/sites/${other}/domains`)).body), [
      ["other-keeps.localhost", true],
      ["alias-of-other.localhost", false],
    ]);
  });

  it("super-administrators only: others get 403 insufficient_role, for an unknown site too; no token 401", async () => {
    const id = await makeSite(t, "Guarded", "guarded.localhost");
    const admin = await makeUser(t, "guarded-admin");
    await t.call("PUT", `/api/site/${id}/users/${admin.id}`, { body: { role: "administrator" } });
    const plain = await makeUser(t, "guarded-nobody");
    for (const token of [admin.token, plain.token]) {
      const calls: Array<[string, string, unknown]> = [
        ["GET", `/api/sites/${id}/domains`, undefined],
        ["POST", `/api/sites/${id}/domains`, { domain: "guarded.example" }],
        ["DELETE", `/api/sites/${id}/domains/guarded.localhost`, undefined],
      ];
      for (const [method, url, body] of calls) {
        const known = await t.call(method, url, { token, body });
        const unknown = await t.call(method, url.replace(`/sites/${id}/`, "/sites/99999/"), { token, body });
        assert.equal(known.status, 403, `${method} ${url}`);
        assert.equal(known.body.error, "insufficient_role");
        assert.deepEqual(unknown.body, known.body, "an unknown site answers the same");
        assert.equal((await t.call(method, url, { token: null, body })).status, 401);
      }
    }
    assert.deepEqual(
      domainsOf((await t.call("GET", `/api/sites/${id}/domains`)).body),
      [["guarded.localhost", true]],
      "nothing was added",
    );
    const missing = await t.call("GET", "/api/sites/99999/domains");
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error, "site_not_found");
    assert.equal(
      (await t.call("POST", "/api/sites/99999/domains", { body: { domain: "x.localhost" } })).body.error,
      "site_not_found",
    );
  });

  it("a domain belongs to one site whatever its case: 409 domain_taken, alias or primary, from every call", async () => {
    const a = await makeSite(t, "Example", "Example.COM");
    assert.equal((await t.call("GET", `/api/sites/${a}`)).body.site.domain, "example.com");
    const b = await makeSite(t, "Second", "second.example");
    assert.equal(
      (await t.call("POST", `/api/sites/${a}/domains`, { body: { domain: "www.example.com" } })).status,
      201,
    );

    const refusals: Array<[string, string, unknown]> = [
      ["POST", "/api/sites", { name: "Same", domain: "example.com" }],
      ["POST", "/api/sites", { name: "Upper", domain: "EXAMPLE.com" }],
      ["POST", "/api/sites", { name: "Alias", domain: "WWW.example.COM" }],
      ["PATCH", `/api/sites/${b}`, { domain: "Example.Com" }],
      ["PATCH", `/api/sites/${b}`, { domain: "www.EXAMPLE.com" }],
      ["POST", `/api/sites/${b}/domains`, { domain: "EXAMPLE.COM" }],
      ["POST", `/api/sites/${b}/domains`, { domain: "www.example.com" }],
      ["POST", `/api/sites/${a}/domains`, { domain: "example.com" }],
      ["POST", `/api/sites/${a}/domains`, { domain: "WWW.example.com" }],
      ["POST", `/api/sites/${a}/domains`, { domain: "second.example" }],
    ];
    for (const [method, url, body] of refusals) {
      const r = await t.call(method, url, { body });
      assert.equal(r.status, 409, `${method} ${url} ${JSON.stringify(body)}: ${r.text}`);
      assert.equal(r.body.error, "domain_taken");
    }
    const detail = await t.call("POST", `/api/sites/${b}/domains`, { body: { domain: "WWW.example.com" } });
    assert.deepEqual([detail.body.domain, detail.body.site_id, detail.body.primary], ["www.example.com", a, false]);
    assert.deepEqual(domainsOf((await t.call("GET", `/api/sites/${b}/domains`)).body), [["second.example", true]]);
    assert.deepEqual(domainsOf((await t.call("GET", `/api/sites/${a}/domains`)).body), [
      ["example.com", true],
      ["www.example.com", false],
    ]);

    // Removed, the alias is free for another site.
    assert.equal((await t.call("DELETE", `/api/sites/${a}/domains/www.example.com`)).status, 200);
    assert.equal(
      (await t.call("POST", `/api/sites/${b}/domains`, { body: { domain: "www.example.com" } })).status,
      201,
    );
  });

  it("PATCH /api/sites/{id} to one of the site's own aliases promotes it; the former primary is no domain of the site", async () => {
    const id = await makeSite(t, "Promoted", "old-primary.localhost");
    await t.call("POST", `/api/sites/${id}/domains`, { body: { domain: "new-primary.localhost" } });
    const r = await t.call("PATCH", `/api/sites/${id}`, { body: { domain: "New-Primary.localhost" } });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.site.domain, "new-primary.localhost");
    assert.equal(r.body.site.home_url, "http://new-primary.localhost:8080/");
    assert.deepEqual(domainsOf((await t.call("GET", `/api/sites/${id}/domains`)).body), [
      ["new-primary.localhost", true],
    ]);
    // The former primary is free again.
    assert.equal(
      (await t.call("POST", "/api/sites", { body: { name: "Taker", domain: "old-primary.localhost" } })).status,
      201,
    );
    // The same primary again changes nothing.
    assert.equal(
      (await t.call("PATCH", `/api/sites/${id}`, { body: { domain: "new-primary.localhost" } })).status,
      200,
    );
    assert.deepEqual(domainsOf((await t.call("GET", `/api/sites/${id}/domains`)).body), [
      ["new-primary.localhost", true],
    ]);
  });

  it("international names are stored as punycode, and found by either spelling", async () => {
    const created = await t.call("POST", "/api/sites", { body: { name: "Bücher", domain: "Bücher.example" } });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.site.domain, "xn--bcher-kva.example");
    assert.equal(created.body.site.home_url, "http://xn--bcher-kva.example:8080/");
    const other = await makeSite(t, "Elsewhere", "elsewhere.example");
    const taken = await t.call("POST", `/api/sites/${other}/domains`, { body: { domain: "xn--bcher-kva.example" } });
    assert.equal(taken.body.error, "domain_taken");
    const alias = await t.call("POST", `/api/sites/${other}/domains`, { body: { domain: "straße.example" } });
    assert.deepEqual(alias.body.domain, {
      domain: "xn--strae-oqa.example",
      primary: false,
      https: null,
      scheme: "http",
    });
    const removed = await t.call("DELETE", `/api/sites/${other}/domains/${encodeURIComponent("Straße.example")}`);
    assert.equal(removed.status, 200, removed.text);
  });

  it("malformed names are 400 invalid_domain with the reason, from every call; localhost and blog.localhost stay valid", async () => {
    const id = await makeSite(t, "Checked", "checked.localhost");
    const cases: Array<[string, string]> = [
      ["", "empty"],
      ["not a host", "space"],
      ["a..b", "empty_label"],
      ["-lead.example", "hyphen"],
      ["trail-.example", "hyphen"],
      ["example.com:8080", "port_or_path"],
      ["example.com/path", "port_or_path"],
      ["under_score.example", "characters"],
      [`${"x".repeat(64)}.example`, "label_too_long"],
      [Array.from({ length: 70 }, () => "abc").join("."), "too_long"],
    ];
    for (const [domain, reason] of cases) {
      for (const [method, url, body] of [
        ["POST", "/api/sites", { name: "Bad", domain }],
        ["PATCH", `/api/sites/${id}`, { domain }],
        ["POST", `/api/sites/${id}/domains`, { domain }],
      ] as Array<[string, string, unknown]>) {
        const r = await t.call(method, url, { body });
        assert.equal(r.status, 400, `${method} ${url} ${JSON.stringify(domain)}: ${r.text}`);
        assert.equal(r.body.error, "invalid_domain");
        assert.equal(r.body.reason, reason, JSON.stringify(domain));
      }
    }
    assert.equal((await t.call("POST", `/api/sites/${id}/domains`, { body: {} })).body.reason, "empty");
    assert.equal((await t.call("DELETE", `/api/sites/${id}/domains/a..b`)).body.error, "invalid_domain");
    assert.equal((await t.call("POST", "/api/sites", { body: { name: "Missing" } })).body.error, "invalid_domain");
    assert.equal((await t.call("GET", "/api/sites/1")).body.site.domain, "localhost");
    assert.equal(
      (await t.call("POST", `/api/sites/${id}/domains`, { body: { domain: "blog.localhost" } })).status,
      201,
    );
    assert.equal((await t.call("DELETE", `/api/sites/${id}/domains/blog.localhost`)).status, 200);
    assert.equal(
      (await t.call("POST", "/api/sites", { body: { name: "Blog", domain: "blog.localhost" } })).status,
      201,
    );
  });

  it("the legacy address selects a site by any of its domains, primary or alias, in any case", async () => {
    const id = await makeSite(t, "Selected", "selected.localhost");
    assert.equal(
      (await t.call("POST", `/api/sites/${id}/domains`, { body: { domain: "alias.selected.localhost" } })).status,
      201,
    );
    for (const domain of [
      "selected.localhost",
      "Selected.LOCALHOST",
      "alias.selected.localhost",
      "ALIAS.selected.localhost",
    ]) {
      const answer = await t.call("GET", `/api/settings?domain=${encodeURIComponent(domain)}`);
      assert.equal(answer.status, 200, domain);
      assert.equal(answer.body.site_id, id, domain);
      assert.equal(answer.headers["x-svc-blog-source"], "domain");
    }
    assert.equal((await t.call("GET", "/api/settings?domain=unknown.localhost")).body.code, "site_not_found");
  });

  it("the calls are in the OpenAPI description", async () => {
    const paths = (await t.call("GET", "/api/openapi.json", { token: null })).body.paths;
    assert.ok(paths["/api/sites/{id}/domains"].get.responses["200"]);
    assert.ok(paths["/api/sites/{id}/domains"].post.responses["201"]);
    assert.ok(paths["/api/sites/{id}/domains/{domain}"].delete.responses["200"]);
  });
});

describe("domains: an alias answers 301 to the primary domain", () => {
  let t: TestApp;
  let port = 0;
  let routed = 0;
  let site = 0;
  before(async () => {
    t = await startTestApp({ beforeReady: (app) => app.addHook("onRequest", async () => void routed++) });
    site = await makeSite(t, "Shop", "shop.localhost");
    const S = `/api/site/${site}`;
    await frame(
      t,
      "shop-frame",
      `<!DOCTYPE html><html><body><h1 ${bind("text", "page.title")}>x</h1></body></html>`,
      S,
    );
    await assign(t, "shop-frame", (await page(t, { title: "Goods", status: "publish" }, S)).id, S);
    await frame(t, "main-frame", `<!DOCTYPE html><html><body><p>main site</p></body></html>`);
    await assign(t, "main-frame", (await page(t, { title: "Goods", status: "publish" })).id);
    await t.app.listen({ host: "127.0.0.1", port: 0 });
    port = (t.app.server.address() as { port: number }).port;
  });
  after(() => t.close());

  it("through Fastify: 301 to the same path and query on the primary domain, at the public port", async () => {
    assert.equal(
      (await t.call("POST", `/api/sites/${site}/domains`, { body: { domain: "www.shop.localhost" } })).status,
      201,
    );
    const r = await t.app.inject({
      method: "GET",
      url: "/goods/?colour=red&size=2",
      headers: { host: "WWW.shop.localhost:8080" },
    });
    assert.equal(r.statusCode, 301);
    assert.equal(r.headers.location, "http://shop.localhost:8080/goods/?colour=red&size=2");
    assert.equal(r.headers["x-svc-printed"], "redirect");
    assert.equal(r.headers["cache-control"], "no-cache");
    // Any path, any spelling: the primary domain's site says what it is.
    const odd = await t.app.inject({ method: "GET", url: "/Goods?x=ü", headers: { host: "www.shop.localhost" } });
    assert.equal(odd.statusCode, 301);
    assert.equal(odd.headers.location, "http://shop.localhost:8080/Goods?x=%C3%BC");
    const head = await t.app.inject({ method: "HEAD", url: "/goods/", headers: { host: "www.shop.localhost" } });
    assert.equal(head.statusCode, 301);
    // The primary domain answers the page.
    const primary = await visit(t, "/goods/", "shop.localhost:8080");
    assert.equal(primary.status, 200);
    assert.match(primary.body, /<h1>Goods<\/h1>/);
  });

  it("from memory over a real socket: the same 301, without Fastify once the alias is known", async () => {
    await rawRequest(port, "/goods/", { host: "www.shop.localhost" });
    const before = routed;
    const r = await rawRequest(port, "/goods/?q=1", { host: "www.shop.localhost:8080" });
    assert.equal(routed, before, "answered before Fastify");
    assert.equal(r.status, 301);
    assert.equal(rawHeader(r, "location"), "http://shop.localhost:8080/goods/?q=1");
  });

  it("/media/… and /styles/… on an alias answer 301 too", async () => {
    for (const path of ["/media/2026/01/photo.jpg", "/styles/site.0123456789abcdef.css"]) {
      for (const method of ["GET", "HEAD"]) {
        const r = await t.app.inject({ method: method as "GET", url: path, headers: { host: "www.shop.localhost" } });
        assert.equal(r.statusCode, 301, `${method} ${path}`);
        assert.equal(r.headers.location, `http://shop.localhost:8080${path}`);
      }
      const raw = await rawRequest(port, path, { host: "www.shop.localhost" });
      assert.equal(raw.status, 301);
    }
  });

  it("a new primary domain: the alias redirects there at once; a removed alias answers as an unknown host (the main site)", async () => {
    await rawRequest(port, "/goods/", { host: "www.shop.localhost" });
    assert.equal((await t.call("PATCH", `/api/sites/${site}`, { body: { domain: "shop2.localhost" } })).status, 200);
    const moved = await rawRequest(port, "/goods/", { host: "www.shop.localhost" });
    assert.equal(rawHeader(moved, "location"), "http://shop2.localhost:8080/goods/");
    assert.equal((await t.call("DELETE", `/api/sites/${site}/domains/www.shop.localhost`)).status, 200);
    const gone = await rawRequest(port, "/goods/", { host: "www.shop.localhost" });
    assert.equal(gone.status, 200);
    assert.match(gone.body, /main site/);
    const unknown = await rawRequest(port, "/goods/", { host: "unknown.localhost" });
    assert.match(unknown.body, /main site/, "unknown hosts still get the main site");
    const media = await t.app.inject({
      method: "GET",
      url: "/media/2026/01/photo.jpg",
      headers: { host: "www.shop.localhost" },
    });
    assert.equal(media.statusCode, 404);
  });
});

describe("domains: the redirect at the default port", () => {
  let t: TestApp;
  before(async () => (t = await startTestApp({ env: { SVC_PUBLIC_PORT: "80" } })));
  after(() => t.close());

  it("names no port when the public port is 80, as home_url", async () => {
    const id = await makeSite(t, "Port", "port.localhost");
    assert.equal((await t.call("GET", `/api/sites/${id}`)).body.site.home_url, "http://port.localhost/");
    await t.call("POST", `/api/sites/${id}/domains`, { body: { domain: "alias.port.localhost" } });
    const r = await t.app.inject({ method: "GET", url: "/a/b/?c", headers: { host: "alias.port.localhost" } });
    assert.equal(r.statusCode, 301);
    assert.equal(r.headers.location, "http://port.localhost/a/b/?c");
  });
});
