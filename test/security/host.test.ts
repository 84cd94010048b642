// No answer is built from the request's Host, except the choice of site (docs/security.md).
// Before: the paging `Link` header of every list was `<scheme>://<Host>/…`, so a request with a
// forged Host (or X-Forwarded-Host behind a trusting proxy) got links to the attacker's host: a
// cache or a client that follows `next` sends its token there. Now API links come from the
// configured address (SVC_API_URL), public addresses from the site's domain and the public port.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { makeSite, makeUser, startTestApp, type Answer, type TestApp } from "../support/app.ts";

const EVIL = "evil.example";

/** Every header value and the body of an answer, as one text to search. */
const everything = (answer: Answer) => `${JSON.stringify(answer.headers)}\n${answer.text}`;

/** The prev and next links of a paged answer. */
function pageLinks(answer: Answer): string[] {
  return String(answer.headers.link ?? "")
    .split(", ")
    .filter((part) => /rel="(prev|next)"$/.test(part))
    .map((part) => /^<([^>]*)>/.exec(part)![1]);
}

for (const trustProxy of [false, true]) {
  describe(`security: answers are not built from Host (SVC_TRUST_PROXY=${trustProxy})`, () => {
    let t: TestApp;
    let blog = 0;
    const forged = { host: `${EVIL}:6666`, "x-forwarded-host": `${EVIL}:7777`, "x-forwarded-proto": "http" };

    before(async () => {
      t = await startTestApp({
        env: { SVC_API_URL: "https://api.example.test", SVC_PUBLIC_PORT: "8443", SVC_TRUST_PROXY: String(trustProxy) },
      });
      for (const login of ["host-a", "host-b", "host-c"]) await makeUser(t, login);
      blog = await makeSite(t, "Blog", "blog.example.test");
    });
    after(() => t.close());

    it("a paged list's Link names the configured API address (SVC_API_URL), whatever Host or X-Forwarded-Host the request carries", async () => {
      const answer = await t.call("GET", "/api/users?per_page=1&page=2", { headers: forged });
      assert.equal(answer.status, 200);
      assert.deepEqual(pageLinks(answer), [
        "https://api.example.test/api/users?per_page=1&page=1",
        "https://api.example.test/api/users?per_page=1&page=3",
      ]);
      assert.doesNotMatch(everything(answer), /evil\.example|6666|7777/);

      const legacy = await t.call("GET", `/api/pages?blog_id=${blog}&per_page=1`, { headers: forged });
      assert.equal(legacy.status, 200);
      assert.doesNotMatch(everything(legacy), /evil\.example|6666|7777/);
    });

    it("the site's addresses in API answers come from its domain and the public port", async () => {
      for (const [method, url, body] of [
        ["GET", `/api/sites/${blog}`, undefined],
        ["POST", `/api/site/${blog}/pages`, { title: "Hello", slug: "hello", status: "publish" }],
        ["GET", `/api/site/${blog}/pages`, undefined],
        ["GET", "/api/openapi.json", undefined],
      ] as const) {
        const answer = await t.call(method, url, { headers: forged, body });
        assert.ok(answer.status < 300, `${method} ${url}: ${answer.status} ${answer.text.slice(0, 200)}`);
        assert.doesNotMatch(everything(answer), /evil\.example|6666|7777/, `${method} ${url}`);
      }
      const site = await t.call("GET", `/api/sites/${blog}`, { headers: forged });
      assert.equal(site.body.site.home_url, "http://blog.example.test:8443/");
    });

    /**
     * The host a request names: Host, or behind a trusted proxy X-Forwarded-Host (the proxy says
     * which site was asked for; docs/deploy.md). Either way its port names nothing printed.
     */
    const naming = (domain: string) =>
      trustProxy
        ? { host: `${EVIL}:6666`, "x-forwarded-host": `${domain}:7777`, "x-forwarded-proto": "http" }
        : { host: `${domain}:6666`, "x-forwarded-host": `${EVIL}:7777`, "x-forwarded-proto": "http" };

    it("robots.txt names the site's sitemap at its domain and the public port, whatever port the Host names", async () => {
      const headers = naming("blog.example.test");
      const robots = await t.call("GET", "/robots.txt", { token: null, headers });
      assert.equal(robots.status, 200);
      assert.match(robots.text, /^Sitemap: http:\/\/blog\.example\.test:8443\/sitemap\.xml$/m);
      assert.doesNotMatch(everything(robots), /evil\.example|6666|7777/);
    });

    it("an alias's redirect names the primary domain at the public port, whatever port the Host names", async () => {
      assert.equal(
        (await t.call("POST", `/api/sites/${blog}/domains`, { body: { domain: "old.example.test" } })).status,
        201,
      );
      const moved = await t.call("GET", "/hello/?x=1", {
        token: null,
        headers: naming("old.example.test"),
      });
      assert.equal(moved.status, 301);
      assert.equal(moved.headers.location, "http://blog.example.test:8443/hello/?x=1");
      assert.doesNotMatch(everything(moved), /evil\.example|6666|7777/);
    });
  });
}
