// Query parameters a route does not know (docs/foundation.md): refused on writes with
// 400 unknown_parameter before anything is written, warned on reads; what a route declares (and
// the legacy selectors on legacy addresses) always passes.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { startTestApp, type Answer, type TestApp } from "../support/app.ts";
import { frame, S } from "../support/site.ts";
import { answersEndlessly } from "../support/sse-client.ts";

const refused = (r: Answer, parameter: string) => {
  assert.equal(r.status, 400, r.text);
  assert.equal(r.body.success, false);
  assert.equal(r.body.error, "unknown_parameter");
  assert.equal(r.body.parameter, parameter);
  assert.equal(typeof r.body.message, "string");
};

const unknownWarned = (r: Answer): string[] =>
  ((r.body?.warnings ?? []) as Array<{ code: string; parameter?: string }>)
    .filter((w) => w.code === "unknown_parameter")
    .map((w) => w.parameter!);

describe("unknown query parameters", () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
    await frame(t, "footer", "<footer>F</footer>");
  });
  after(() => t.close());

  describe("writes refuse them, nothing written", () => {
    it("POST", async () => {
      refused(await t.call("POST", `${S}/pages?titel=Oops`, { body: { title: "Never" } }), "titel");
      const pages = await t.call("GET", `${S}/pages`);
      assert.equal(
        pages.body.pages.some((p: { title: string }) => p.title === "Never"),
        false,
      );
    });

    it("PUT", async () => {
      refused(await t.call("PUT", `${S}/frames/header?bake=false`, { body: { html: "<header>H</header>" } }), "bake");
      assert.equal((await t.call("GET", `${S}/frames/header`)).status, 404);
    });

    it("PATCH", async () => {
      refused(await t.call("PATCH", `${S}/settings?force=1`, { body: { name: "Renamed" } }), "force");
      assert.notEqual((await t.call("GET", `${S}/settings`)).body.settings.name, "Renamed");
    });

    it("DELETE: a typo of dry_run deletes nothing", async () => {
      refused(await t.call("DELETE", `${S}/frames/footer?dryrun=1`), "dryrun");
      assert.equal((await t.call("GET", `${S}/frames/footer`)).status, 200);
    });

    it("names the first and lists every one", async () => {
      const r = await t.call("DELETE", `${S}/frames/footer?b=1&a=2&dry_run=1`);
      refused(r, "b");
      assert.deepEqual(r.body.parameters, ["b", "a"]);
    });

    it("an empty value and a repeated parameter are parameters too", async () => {
      refused(await t.call("DELETE", `${S}/frames/footer?confirm`), "confirm");
      refused(await t.call("DELETE", `${S}/frames/footer?x=1&x=2`), "x");
    });

    it("before the body is read: an unknown parameter with malformed JSON is unknown_parameter", async () => {
      refused(await t.call("POST", `${S}/pages?oops=1`, { payload: "{not json" }), "oops");
    });

    it("before an upload is read", async () => {
      const boundary = "----svc";
      const payload = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n--${boundary}--\r\n`;
      refused(
        await t.call("POST", `${S}/media?alt=x`, {
          payload,
          headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
        }),
        "alt",
      );
      assert.equal((await t.call("GET", `${S}/media`)).body.total, 0);
    });

    it("after the token and the site: no token is 401, a foreign site 404", async () => {
      assert.equal((await t.call("DELETE", `${S}/frames/footer?x=1`, { token: null })).status, 401);
      assert.equal((await t.call("DELETE", "/api/site/999/frames/footer?x=1")).status, 404);
    });

    it("network calls too", async () => {
      refused(await t.call("POST", "/api/sites?notify=1", { body: { name: "N", domain: "n.localhost" } }), "notify");
      assert.equal(
        (await t.call("GET", "/api/sites")).body.sites.some((s: { name: string }) => s.name === "N"),
        false,
      );
    });
  });

  describe("reads warn", () => {
    it("GET answers as usual, with a warning naming each", async () => {
      const plain = await t.call("GET", `${S}/frames`);
      const r = await t.call("GET", `${S}/frames?sort=slug&limit=5`);
      assert.equal(r.status, 200);
      assert.deepEqual(r.body.frames, plain.body.frames);
      assert.deepEqual(unknownWarned(r), ["sort", "limit"]);
      const w = r.body.warnings.find((x: { parameter: string }) => x.parameter === "sort");
      assert.equal(typeof w.message, "string");
    });

    it("after the route's own warnings", async () => {
      const r = await t.call("GET", `${S}/frames?type=x&zzz=1`);
      assert.deepEqual(
        r.body.warnings.map((w: { code: string }) => w.code),
        ["type_ignored", "unknown_parameter"],
      );
    });

    it("on a kept answer (one frame) too, and the next call without it has none", async () => {
      const r = await t.call("GET", `${S}/frames/footer?include_html=1`);
      assert.equal(r.status, 200);
      assert.deepEqual(unknownWarned(r), ["include_html"]);
      assert.deepEqual((await t.call("GET", `${S}/frames/footer`)).body.warnings, []);
    });

    it("HEAD answers 200 with the length of GET's body", async () => {
      const get = await t.call("GET", `${S}/pages?x=1`);
      const head = await t.call("HEAD", `${S}/pages?x=1`);
      assert.equal(head.status, 200);
      assert.equal(head.text, "");
      assert.equal(Number(head.headers["content-length"]), Buffer.byteLength(get.text));
    });

    it("a 304 stays a 304, an error stays the error", async () => {
      const first = await t.call("GET", `${S}/frames/footer`);
      const again = await t.call("GET", `${S}/frames/footer?x=1`, {
        headers: { "if-none-match": String(first.headers.etag) },
      });
      assert.equal(again.status, 304);
      const missing = await t.call("GET", `${S}/frames/nope?x=1`);
      assert.equal(missing.status, 404);
      assert.equal(missing.body.error, "frame_not_found");
    });

    it("network reads too", async () => {
      assert.deepEqual(unknownWarned(await t.call("GET", "/api/profile?expand=sites")), ["expand"]);
    });
  });

  describe("known parameters pass", () => {
    it("declared ones: no warning, no refusal", async () => {
      const r = await t.call("GET", `${S}/frames?q=foot&include_html=1&per_page=5&page=1&block=footer`);
      assert.equal(r.status, 200);
      assert.deepEqual(unknownWarned(r), []);
      const dry = await t.call("DELETE", `${S}/frames/footer?dry_run=1`);
      assert.equal(dry.status, 200, dry.text);
      assert.equal((await t.call("GET", `${S}/frames/footer`)).status, 200);
    });

    it("legacy addresses know blog_id and domain, on reads and writes", async () => {
      const read = await t.call("GET", "/api/frames?blog_id=1");
      assert.equal(read.status, 200);
      assert.deepEqual(unknownWarned(read), []);
      assert.deepEqual(unknownWarned(await t.call("GET", "/api/frames?domain=localhost")), []);
      const write = await t.call("PATCH", "/api/settings?blog_id=1&dry_run=1", { body: { name: "Legacy" } });
      assert.equal(write.status, 200, write.text);
      assert.equal((await t.call("DELETE", "/api/frames/footer?domain=localhost&dry_run=true")).status, 200);
      refused(await t.call("PATCH", "/api/settings?blog_id=1&site=1", { body: { name: "Legacy" } }), "site");
    });

    it("the /api/site/{site_id} addresses name the site in the path: blog_id there is unknown", async () => {
      refused(await t.call("PATCH", `${S}/settings?blog_id=1`, { body: { name: "Path" } }), "blog_id");
      assert.deepEqual(unknownWarned(await t.call("GET", `${S}/frames?blog_id=1`)), ["blog_id"]);
    });

    it("public pages, media and stylesheets are not affected", async () => {
      for (const path of ["/?utm_source=x", "/no-such-page?fbclid=1", "/healthz?x=1"]) {
        const r = await t.app.inject({ method: "GET", url: path, headers: { host: "localhost:8080" } });
        assert.notEqual(r.statusCode, 400, path);
        assert.doesNotMatch(r.body, /unknown_parameter/, path);
      }
    });
  });

  describe("every route of the routes index", () => {
    const apiRoutes = () =>
      t.app.routesIndex
        .list()
        .flatMap(([url, methods]) =>
          methods.map((method) => ({ method, url, known: t.app.routesIndex.queryParameters(method, url) })),
        )
        .filter(
          (route): route is { method: string; url: string; known: Set<string> } =>
            route.known !== null && route.method !== "OPTIONS" && !answersEndlessly(route.method, route.url),
        );

    // Path parameters that name nothing, so a write finds nothing to change.
    const address = (url: string) =>
      url
        .replace(":site_id", "1")
        .replace(/:[a-z_]+/g, "zz-none-404")
        .replace(/\*$/, "x");
    // Plausible values, so the call reaches its handler (a legacy selector that picks no site would stop it sooner).
    const plausible: Record<string, string> = {
      blog_id: "1",
      domain: "localhost",
      per_page: "5",
      page: "1",
      dry_run: "1",
      force: "0",
      allow_invalid: "false",
    };

    async function answerOf(method: string, url: string, query: Record<string, string>) {
      const search = new URLSearchParams(query).toString();
      return t.call(
        method,
        `${address(url)}${search ? `?${search}` : ""}`,
        method === "GET" || method === "HEAD" ? {} : { body: {} },
      );
    }

    it("covers the API: every method, site and network calls, legacy twins", () => {
      const routes = apiRoutes();
      assert.ok(routes.length > 150, `${routes.length} routes`);
      for (const method of ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"])
        assert.ok(
          routes.some((r) => r.method === method),
          method,
        );
      const byKey = new Map(routes.map((r) => [`${r.method} ${r.url}`, r]));
      let twins = 0;
      for (const route of routes.filter((r) => r.url.startsWith("/api/site/:site_id/"))) {
        assert.ok(
          !route.known.has("blog_id") && !route.known.has("domain"),
          `${route.method} ${route.url}: the path names the site`,
        );
        const legacy = byKey.get(`${route.method} /api${route.url.slice("/api/site/:site_id".length)}`);
        // The site's members are served at the path only (site-routes.ts, pathOnly): GET /api/users is the network's.
        if (!legacy || legacy.url === "/api/users") continue;
        twins++;
        assert.ok(
          legacy.known.has("blog_id") && legacy.known.has("domain"),
          `${legacy.method} ${legacy.url} knows the legacy selectors`,
        );
        assert.deepEqual(
          [...legacy.known].filter((n) => n !== "blog_id" && n !== "domain").sort(),
          [...route.known].sort(),
          `${route.method} ${route.url}: the twins know the same`,
        );
      }
      assert.ok(twins > 50, `${twins} legacy twins`);
      assert.ok(!byKey.get("GET /api/sites")!.known.has("blog_id"), "network calls have no legacy selectors");
    });

    it("every DELETE declares dry_run (docs/foundation.md, Dry runs of deletes)", () => {
      const deletes = apiRoutes().filter((r) => r.method === "DELETE");
      assert.ok(deletes.length >= 25, `${deletes.length} deletes`);
      assert.deepEqual(
        deletes.filter((r) => !r.known.has("dry_run")).map((r) => r.url),
        [],
      );
    });

    it("every declared parameter, all at once, is never refused nor warned", async () => {
      for (const { method, url, known } of apiRoutes()) {
        if (known.size === 0) continue;
        const query = Object.fromEntries([...known].map((name) => [name, plausible[name] ?? "1"]));
        const r = await answerOf(method, url, query);
        assert.notEqual(r.body?.error, "unknown_parameter", `${method} ${url}: ${r.text}`);
        assert.deepEqual(unknownWarned(r), [], `${method} ${url}`);
      }
    });

    it("property: any declared parameters with any values are never refused as unknown; one more undeclared one always is (writes) or is warned (reads, on success)", async () => {
      const routes = apiRoutes().filter((r) => r.known.size > 0);
      const name = fc.stringMatching(/^[a-z][a-z_]{0,11}$/);
      await fc.assert(
        fc.asyncProperty(
          fc.nat({ max: routes.length - 1 }),
          fc.array(fc.tuple(fc.nat(), fc.string({ maxLength: 8 })), { maxLength: 4 }),
          fc.option(name, { nil: undefined }),
          async (index, picks, extra) => {
            const { method, url, known } = routes[index];
            const names = [...known];
            const query: Record<string, string> = {};
            for (const [i, value] of picks) query[names[i % names.length]] = value;
            for (const selector of ["blog_id", "domain"]) if (selector in query) query[selector] = plausible[selector];
            const unknown = extra !== undefined && !known.has(extra) ? extra : undefined;
            if (unknown !== undefined) query[unknown] = "1";
            const r = await answerOf(method, url, query);
            if (unknown === undefined) {
              assert.notEqual(
                r.body?.error,
                "unknown_parameter",
                `${method} ${url} ${JSON.stringify(query)}: ${r.text}`,
              );
              assert.deepEqual(unknownWarned(r), []);
            } else if (method !== "GET" && method !== "HEAD") {
              // The token and the site are checked first; past them, the unknown parameter refuses the call.
              if (r.status !== 401 && r.status !== 403 && r.body?.code !== "site_not_found") refused(r, unknown);
            } else if (method === "GET" && r.body?.success === true) {
              assert.deepEqual(unknownWarned(r), [unknown]);
            }
            assert.ok(r.status < 500, `${method} ${url} ${JSON.stringify(query)}: ${r.status} ${r.text}`);
          },
        ),
        { numRuns: 300 },
      );
    });
  });
});
