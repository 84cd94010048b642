// One address, one cache entry (docs/security.md; the public rate limit has tests of its own): each
// finding reproduced and shown fixed.
// - Public cache bypass: `/About/`, `/%61bout/`, `//about/` each rendered again and added a cache
//   entry of their own. Now a variant is 301 to the canonical address (or its 404), never a render
//   nor an entry; malformed percent-encoding is 400. A property test (fast-check) over real HTTP.
// - Cache reset: creating any site made every site's next request miss the memory cache and
//   render again. Now other sites' pages stay (PostgreSQL, several processes:
//   public-cache-pg.test.ts). Eviction by another site: cache-shares.test.ts.
// Renders are counted on the engine (the public site's renderer); `X-Svc-Printed` says where an
// answer came from (`cache`: memory; `on_request`: rendered for this request).
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { makeSite, startTestApp, type TestApp } from "../support/app.ts";
import { assign, bind, frame, page, S, visit } from "../support/site.ts";
import { canonicalPath, canonicalPathEnd } from "../../src/site/addresses.ts";
import { countRenders, get, live } from "./cache-helpers.ts";

describe("one address, one cache entry", () => {
  let t: TestApp;
  let port = 0;
  let renders: { readonly count: number };
  /** Requests that reached Fastify (not answered from memory by the server's listener). */
  let routed = 0;

  before(async () => {
    t = await startTestApp({ beforeReady: (app) => app.addHook("onRequest", async () => void routed++) });
    renders = countRenders(t);
    await frame(t, "live", live);
    await frame(t, "plain", `<!DOCTYPE html><html><body><p ${bind("text", "site.name")}>x</p></body></html>`);
    const about = await page(t, { title: "About", frame: "live" });
    await page(t, { title: "Team", parent: about.id, frame: "plain" });
    await page(t, { title: "News", frame: "live" });
    await page(t, { title: "Contact us", frame: "live" });
    await page(t, { title: "Hidden", frame: "live", status: "draft" });
    const a = await page(t, { title: "A", frame: "live" });
    await page(t, { title: "B", parent: a.id, frame: "live" });
    await page(t, { title: "A/B lookalike", slug: "ab", frame: "live" });
    const home = await t.call("PATCH", `${S}/settings`, { body: { home_page: "news" } });
    assert.equal(home.status, 200, home.text);
    await t.app.listen({ host: "127.0.0.1", port: 0 });
    port = (t.app.server.address() as { port: number }).port;
  });
  after(() => t.close());

  it("finding: /About/, /%61bout/, //about/ and /about no longer render again nor add entries: 301 to /about/, query kept", async () => {
    t.deps.publicSite.cache.flushSite();
    const first = await get(port, "/about/");
    assert.equal(first.status, 200);
    assert.equal(first.headers["x-svc-printed"], "on_request");
    const rendersBefore = renders.count;
    const variants: Array<[string, string]> = [
      ["/About/", "/about/"],
      ["/ABOUT/", "/about/"],
      ["/%61bout/", "/about/"],
      ["/%41BOUT/", "/about/"],
      ["/%61%62%6f%75%74/", "/about/"],
      ["//about/", "/about/"],
      ["///about//", "/about/"],
      ["/about", "/about/"],
      ["/About?utm_source=x&b=%20c", "/about/?utm_source=x&b=%20c"],
      ["//About/?", "/about/?"],
    ];
    for (const [variant, location] of variants) {
      const answer = await get(port, variant);
      assert.equal(answer.status, 301, `${variant}: ${answer.status}`);
      assert.equal(answer.headers.location, location, variant);
      assert.equal(answer.headers["x-svc-printed"], "redirect");
    }
    assert.equal(renders.count, rendersBefore, "no variant rendered the page again");
    assert.equal(t.deps.publicSite.cache.size, 1, "one entry: the canonical address's");
    const again = await get(port, "/about/?utm_source=x");
    assert.equal(
      again.headers["x-svc-printed"],
      "cache",
      "the query string is no part of the address: the same entry answers",
    );
    assert.equal(t.deps.publicSite.cache.size, 1);
  });

  it("a variant requested before its address is in memory is redirected after one lookup, without rendering or caching", async () => {
    t.deps.publicSite.cache.flushSite();
    const rendersBefore = renders.count;
    for (const variant of ["/News/", "/contact-US", "/About/Team/", "/about//team", "/%61/%62/", "//"]) {
      const answer = await get(port, variant);
      assert.equal(answer.status, 301, variant);
      // The home page's own path, asked another way, goes where the home page answers in one hop.
      assert.equal(answer.headers.location, variant === "/News/" ? "/" : canonicalPath(variant), variant);
    }
    assert.equal(renders.count, rendersBefore);
    assert.equal(t.deps.publicSite.cache.size, 0, "nothing cached for a variant");
  });

  it("a variant of an address with no page is that address's 404, never a redirect (a draft, a missing page, an encoded slash)", async () => {
    for (const [variant, canonical] of [
      ["/Hidden/", "/hidden/"],
      ["/hidden", "/hidden/"],
      ["/No-Such-Page/", "/no-such-page/"],
      ["//evil.example/", "/evil.example/"],
    ]) {
      const answer = await get(port, variant);
      const direct = await get(port, canonical);
      assert.equal(answer.status, 404, variant);
      assert.equal(answer.headers.location, undefined);
      assert.equal(answer.body, direct.body, `${variant} answers what ${canonical} answers`);
    }
    // `%2F` is a reserved character: `/a%2Fb/` is not a spelling of `/a/b/` (nor of `/ab/`).
    assert.equal((await get(port, "/a/b/")).status, 200);
    for (const other of ["/a%2Fb/", "/a%2fb/", "/A%2FB/", "/a/./b/", "/a/../a/b/"]) {
      const answer = await get(port, other);
      assert.equal(answer.status, 404, other);
    }
  });

  it("malformed percent-encoding is 400, never a 500, and the next request is answered", async () => {
    for (const bad of ["/%", "/%zz/", "/about%/", "/%4/", "/%E0%A4%A/", "/About/%g1", "/%%61bout/"]) {
      const answer = await get(port, bad);
      assert.ok(answer.status >= 400 && answer.status < 500, `${bad}: ${answer.status}`);
      const injected = await t.app.inject({ method: "GET", url: bad, headers: { host: "localhost" } });
      assert.ok(injected.statusCode >= 400 && injected.statusCode < 500, `${bad} (inject): ${injected.statusCode}`);
    }
    assert.equal((await get(port, "/about/")).status, 200);
    // Should one reach the public site, it is refused there too.
    const answer = await t.deps.publicSite.answer("localhost", "/ab%zz/", undefined);
    assert.equal(answer.status, 400);
  });

  it("the canonical address is answered from memory by the server's listener, a variant never is", async () => {
    // Not /news/: it is the home page, whose own path answers 301 to / (docs/seo.md).
    await get(port, "/about/");
    let before = routed;
    assert.equal((await get(port, "/about/")).headers["x-svc-printed"], "cache");
    assert.equal(routed, before, "answered before Fastify");
    before = routed;
    assert.equal((await get(port, "/About/")).status, 301);
    assert.equal(routed, before + 1, "a variant goes to the route");
  });

  it("property: a page's address spelled with random case, encoded unreserved characters, doubled slashes and a dropped trailing slash is 301 to it (or its 404); entries never outnumber the canonical addresses requested", async () => {
    t.deps.publicSite.cache.flushSite();
    const pages = ["/", "/about/", "/about/team/", "/news/", "/contact-us/", "/a/", "/a/b/", "/ab/"];
    const missing = ["/hidden/", "/nothing-here/", "/about/nobody/"];
    const hex = (code: number, upper: boolean) => {
      const digits = code.toString(16).padStart(2, "0");
      return `%${upper ? digits.toUpperCase() : digits}`;
    };
    /** One character of an address, written one of several ways. */
    const spell = (c: string, how: number): string => {
      if (c === "/") return how % 4 === 1 ? "//" : how % 4 === 2 ? "///" : "/";
      switch (how % 6) {
        case 1:
          return c.toUpperCase();
        case 2:
          return hex(c.charCodeAt(0), false);
        case 3:
          return hex(c.charCodeAt(0), true);
        case 4:
          return hex(c.toUpperCase().charCodeAt(0), true);
        default:
          return c;
      }
    };
    const spelled = fc
      .constantFrom(...pages, ...missing)
      .chain((canonical) =>
        fc.record({
          canonical: fc.constant(canonical),
          hows: fc.array(fc.nat(11), { minLength: canonical.length, maxLength: canonical.length }),
          dropSlash: fc.boolean(),
          query: fc.constantFrom("", "?", "?q=1", "?a=b&c=%2F"),
        }),
      )
      .map(({ canonical, hows, dropSlash, query }) => {
        let path = [...canonical].map((c, i) => spell(c, hows[i])).join("");
        if (dropSlash && canonical !== "/") path = path.replace(/\/+$/, "");
        return { canonical, path, query };
      });
    const requested = new Set<string>();
    const rendersBefore = renders.count;
    await fc.assert(
      fc.asyncProperty(spelled, async ({ canonical, path, query }) => {
        const answer = await get(port, path + query);
        if (missing.includes(canonical)) {
          assert.equal(answer.status, 404, `${path}${query}`);
        } else if (canonical === "/news/") {
          // The home page's own path, however written, answers 301 to `/` at once (kept only as written the one way).
          assert.equal(answer.status, 301, `${path}${query}`);
          assert.equal(answer.headers.location, query === "?" ? "/" : `/${query}`, `${path}${query}`);
          if (path === canonical) requested.add(canonical);
        } else if (path === canonical) {
          assert.equal(answer.status, 200, `${path}${query}`);
          requested.add(canonical);
        } else {
          assert.equal(answer.status, 301, `${path}${query}`);
          assert.equal(answer.headers.location, canonical + query, `${path}${query}`);
        }
        assert.ok(
          t.deps.publicSite.cache.size <= requested.size,
          `${t.deps.publicSite.cache.size} entries for ${requested.size} addresses`,
        );
      }),
      { numRuns: 300 },
    );
    assert.ok(renders.count - rendersBefore <= requested.size, "at most one render per canonical address");
  });

  it("the fast path's check agrees with the canonical form: a path it takes is canonical", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\/[A-Za-z0-9\-._~%/]{0,20}(\?[a-z=&]{0,5})?$/), (url) => {
        const end = canonicalPathEnd(url);
        if (end >= 0) assert.equal(canonicalPath(url.slice(0, end)), url.slice(0, end), url);
      }),
      { numRuns: 2000 },
    );
  });

  it("POST /cache/flush names addresses in any spelling: /About flushes /about/", async () => {
    await get(port, "/about/");
    assert.equal((await get(port, "/about/")).headers["x-svc-printed"], "cache");
    const flushed = await t.call("POST", `${S}/cache/flush`, { body: { urls: ["/About", "/%zz"] } });
    assert.equal(flushed.status, 200, flushed.text);
    assert.deepEqual(flushed.body.flushed.urls, ["/about/"]);
    assert.deepEqual(flushed.body.flushed.skipped, ["/%zz"]);
    assert.equal((await get(port, "/about/")).headers["x-svc-printed"], "on_request");
  });
});

describe("one address, one cache entry: language prefixes", () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
    for (const [code, name] of [
      ["en", "English"],
      ["de", "Deutsch"],
    ])
      assert.equal((await t.call("POST", `${S}/languages`, { body: { code, name } })).status, 201);
    await frame(t, "live", live);
    const en = await page(t, { title: "About", lang: "en", frame: "live" });
    const de = await t.call("POST", `${S}/pages/language`, {
      body: { page: en.id, lang: "de", title: "Über uns", slug: "ueber-uns" },
    });
    assert.equal(de.status, 201, de.text);
    await assign(t, "live", de.body.page.id);
  });
  after(() => t.close());

  it("/DE/Ueber-Uns/ is 301 to /de/ueber-uns/; /de/ueber-uns/ is one entry", async () => {
    const canonical = await visit(t, "/de/ueber-uns/");
    assert.equal(canonical.status, 200);
    for (const variant of ["/DE/Ueber-Uns/", "/de//ueber-uns", "/%64e/ueber-uns/"]) {
      const answer = await t.app.inject({ method: "GET", url: variant, headers: { host: "localhost" } });
      assert.equal(answer.statusCode, 301, variant);
      assert.equal(answer.headers.location, "/de/ueber-uns/");
    }
    assert.equal(t.deps.publicSite.cache.size, 1);
  });
});

describe("no cache reset: creating or changing one site leaves the others' pages in memory", () => {
  let t: TestApp;
  let renders: { readonly count: number };
  let port = 0;
  let routed = 0;
  let blog = 0;
  before(async () => {
    t = await startTestApp({ beforeReady: (app) => app.addHook("onRequest", async () => void routed++) });
    renders = countRenders(t);
    await frame(t, "live", live);
    await page(t, { title: "Kept", frame: "live" });
    blog = await makeSite(t, "Blog", "blog.localhost");
    await frame(t, "live", live, `/api/site/${blog}`);
    await page(t, { title: "Post", frame: "live" }, `/api/site/${blog}`);
    await t.app.listen({ host: "127.0.0.1", port: 0 });
    port = (t.app.server.address() as { port: number }).port;
  });
  after(() => t.close());

  const warm = async () => {
    await get(port, "/kept/");
    await get(port, "/post/", "blog.localhost");
    assert.equal((await get(port, "/kept/")).headers["x-svc-printed"], "cache");
    assert.equal((await get(port, "/post/", "blog.localhost")).headers["x-svc-printed"], "cache");
  };

  for (const [label, write] of [
    [
      "creating a site",
      (t: TestApp) => t.call("POST", "/api/sites", { body: { name: "Shop", domain: "shop.localhost" } }),
    ],
    [
      "re-domaining another site",
      async (t: TestApp) => {
        const created = await t.call("POST", "/api/sites", { body: { name: "Wiki", domain: "wiki.localhost" } });
        return t.call("PATCH", `/api/sites/${created.body.site.id}`, { body: { domain: "docs.localhost" } });
      },
    ],
    ["renaming another site", (t: TestApp) => t.call("PATCH", `/api/sites/${blog}`, { body: { name: "Journal" } })],
  ] as const) {
    it(`finding: ${label} no longer makes the other sites' next request render again`, async () => {
      await warm();
      const before = renders.count;
      const answer = await write(t);
      assert.ok(answer.status === 200 || answer.status === 201, answer.text);
      const kept = await get(port, "/kept/");
      assert.equal(kept.headers["x-svc-printed"], "cache", "the main site's page is still in memory");
      if (!label.startsWith("renaming"))
        assert.equal((await get(port, "/post/", "blog.localhost")).headers["x-svc-printed"], "cache");
      assert.equal(renders.count, before, "no page of another site rendered again");
    });
  }

  it("a new site answers on its domain at once (a host that fell back to the main site is looked up again), a deleted one stops", async () => {
    assert.equal(
      (await get(port, "/", "fresh.localhost")).status,
      404,
      "unknown: the main site, which has no home page",
    );
    const created = await t.call("POST", "/api/sites", { body: { name: "Fresh", domain: "fresh.localhost" } });
    const id = created.body.site.id;
    await frame(t, "live", live, `/api/site/${id}`);
    await page(t, { title: "Landing", frame: "live" }, `/api/site/${id}`);
    assert.equal((await get(port, "/landing/", "fresh.localhost")).status, 200);
    assert.equal((await get(port, "/landing/", "fresh.localhost")).headers["x-svc-printed"], "cache");
    assert.equal((await t.call("DELETE", `/api/sites/${id}`)).status, 200);
    assert.equal((await get(port, "/landing/", "fresh.localhost")).status, 404, "the host falls back to the main site");
  });

  it("the host directory forgets only what a site change makes stale: that site's hosts and hosts that matched no domain", async () => {
    const directory = t.deps.publicSite.directory;
    await directory.resolve("localhost");
    await directory.resolve("blog.localhost");
    await directory.resolve("unknown.localhost");
    const told: Array<number | null> = [];
    directory.onClear((site) => told.push(site));
    try {
      directory.forgetSite(blog);
      assert.equal(directory.peek("blog.localhost"), undefined, "the changed site's host is looked up again");
      assert.equal(
        directory.peek("unknown.localhost"),
        undefined,
        "so is a host that matched no domain (it may be the new one)",
      );
      assert.equal(directory.peek("localhost")?.id, 1, "another site's host stays");
      await directory.resolve("blog.localhost");
      directory.clear(blog);
      assert.equal(directory.peek("localhost")?.id, 1, "clear(siteId) is forgetSite(siteId)");
      assert.deepEqual(told, [blog, blog], "each is reported with its site");
    } finally {
      directory.onClear(null);
    }
  });

  it("creating a site keeps the other sites' hosts known, so their next request is answered from memory before Fastify", async () => {
    await warm();
    const created = await t.call("POST", "/api/sites", { body: { name: "Later", domain: "later.localhost" } });
    assert.equal(created.status, 201);
    assert.ok(t.deps.publicSite.directory.peek("localhost"), "the main site's host is still known");
    const before = routed;
    assert.equal((await get(port, "/kept/")).headers["x-svc-printed"], "cache");
    assert.equal(routed, before, "answered by the server's listener, without a lookup");
  });
});
