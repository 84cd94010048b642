// Schemes at the front door (docs/domains.md "Schemes", docs/deploy.md "TLS in front"), over a real
// socket (the redirect and HSTS are answered before Fastify, public/secure-front.ts):
// - plain HTTP on the primary domain of an https site answers 301 to its https address (308 for
//   other methods), pages from memory too; the API and /healthz answer on either scheme;
// - X-Forwarded-Proto, -Host and -For are believed only from SVC_TRUST_PROXY's addresses;
// - SVC_HSTS_MAX_AGE adds Strict-Transport-Security to HTTPS answers only.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { call, type Reply } from "../cluster/helpers.ts";
import { makeSite, startTestApp, type TestApp } from "../support/app.ts";
import { assign, frame, page } from "../support/site.ts";

const HTTPS = { "x-forwarded-proto": "https" };
const HSTS = "strict-transport-security";

async function listening(env: Record<string, string>): Promise<{ t: TestApp; port: number }> {
  const t = await startTestApp({ env });
  await t.app.listen({ host: "127.0.0.1", port: 0 });
  return { t, port: (t.app.server.address() as { port: number }).port };
}

/** A site on `domain` with a published page at /hello/; with `https`, its domain's scheme set so. */
async function siteWithPage(t: TestApp, domain: string, https?: boolean): Promise<number> {
  const id = await makeSite(t, domain, domain);
  const S = `/api/site/${id}`;
  await frame(t, "hello", "<p>hello</p>", S);
  await assign(t, "hello", (await page(t, { title: "Hello", slug: "hello" }, S)).id, S);
  if (https !== undefined) {
    const set = await t.call("PATCH", `/api/sites/${id}/domains/${domain}`, { body: { https } });
    assert.equal(set.status, 200, set.text);
  }
  return id;
}

describe("security: plain HTTP on an https domain is redirected; HSTS on HTTPS answers (SVC_TRUST_PROXY=127.0.0.1)", () => {
  let t: TestApp;
  let port = 0;
  let site = 0;
  const get = (path: string, host: string, headers: Record<string, string> = {}): Promise<Reply> =>
    call(port, "GET", path, { host, headers });

  before(async () => {
    ({ t, port } = await listening({ SVC_TRUST_PROXY: "127.0.0.1", SVC_HSTS_MAX_AGE: "31536000" }));
    site = await siteWithPage(t, "tls.example.test", true);
    await siteWithPage(t, "plain.example.test");
    const alias = await t.call("POST", `/api/sites/${site}/domains`, { body: { domain: "www.tls.example.test" } });
    assert.equal(alias.status, 201);
  });
  after(() => t.close());

  it("a page over plain HTTP answers 301 to the same path and query on https, with no port (443), before and after it is held in memory", async () => {
    for (let i = 0; i < 2; i++) {
      assert.equal((await get("/hello/", "tls.example.test", HTTPS)).status, 200);
      const moved = await get("/hello/?x=1", "tls.example.test:8080");
      assert.equal(moved.status, 301, moved.text);
      assert.equal(moved.headers.location, "https://tls.example.test/hello/?x=1");
      assert.equal(moved.headers["cache-control"], "no-cache");
      assert.equal(moved.headers[HSTS], undefined, "no HSTS over plain HTTP");
    }
  });

  it("a form post over plain HTTP answers 308 (the method and body kept); an address of no page answers 301 too", async () => {
    const post = await call(port, "POST", "/forms/contact", { host: "tls.example.test", body: { a: 1 } });
    assert.equal(post.status, 308);
    assert.equal(post.headers.location, "https://tls.example.test/forms/contact");
    const none = await get("/nowhere/", "tls.example.test");
    assert.equal(none.status, 301);
  });

  it("an alias over plain HTTP answers one 301, straight to the https primary", async () => {
    const moved = await get("/hello/", "www.tls.example.test");
    assert.equal(moved.status, 301);
    assert.equal(moved.headers.location, "https://tls.example.test/hello/");
  });

  it("the API and /healthz answer on plain HTTP on an https domain (no redirect)", async () => {
    const api = await call(port, "GET", `/api/sites/${site}`, { host: "tls.example.test", token: t.adminToken });
    assert.equal(api.status, 200, api.text);
    assert.equal(api.body.site.home_url, "https://tls.example.test/");
    assert.equal((await get("/healthz", "tls.example.test")).status, 200);
  });

  it("HTTPS answers carry Strict-Transport-Security: pages through Fastify and from memory, 404s, the API", async () => {
    for (let i = 0; i < 2; i++) {
      const page = await get("/hello/", "tls.example.test", HTTPS);
      assert.equal(page.status, 200);
      assert.equal(page.headers[HSTS], "max-age=31536000", `page, answer ${i + 1}`);
    }
    assert.equal((await get("/nowhere/", "tls.example.test", HTTPS)).headers[HSTS], "max-age=31536000");
    const api = await call(port, "GET", "/api/profile", { token: t.adminToken, headers: HTTPS });
    assert.equal(api.headers[HSTS], "max-age=31536000");
  });

  it("a site whose scheme is http answers plain HTTP, without HSTS", async () => {
    const page = await get("/hello/", "plain.example.test");
    assert.equal(page.status, 200);
    assert.equal(page.headers[HSTS], undefined);
  });
});

describe("security: X-Forwarded-* from a peer SVC_TRUST_PROXY does not list are ignored", () => {
  let t: TestApp;
  let port = 0;

  before(async () => {
    ({ t, port } = await listening({
      SVC_TRUST_PROXY: "192.0.2.1, 10.0.0.0/8",
      SVC_HSTS_MAX_AGE: "600",
      SVC_PUBLIC_RATE_LIMIT_PER_MIN: "2",
    }));
    await siteWithPage(t, "tls.example.test", true);
  });
  after(() => t.close());

  it("X-Forwarded-Proto: https from 127.0.0.1 is not believed: 301 to https, no HSTS", async () => {
    const moved = await call(port, "GET", "/hello/", { host: "tls.example.test", headers: HTTPS });
    assert.equal(moved.status, 301);
    assert.equal(moved.headers[HSTS], undefined);
  });

  it("X-Forwarded-Host names no site, and X-Forwarded-For no client: the limit counts the peer", async () => {
    const forged = { "x-forwarded-host": "tls.example.test", "x-forwarded-for": "198.51.100.1" };
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++)
      statuses.push(
        (
          await call(port, "GET", "/nowhere/", {
            host: "localhost",
            headers: { ...forged, "x-forwarded-for": `198.51.100.${i}` },
          })
        ).status,
      );
    assert.deepEqual(statuses, [404, 404, 429], "one budget: every request is 127.0.0.1's");
  });
});

describe("security: SVC_PUBLIC_SCHEME=https prints https addresses without the port; a domain set to http is printed on port 80", () => {
  let t: TestApp;

  before(async () => {
    t = await startTestApp({ env: { SVC_PUBLIC_SCHEME: "https" } });
  });
  after(() => t.close());

  it("home_url, the domains' schemes, and a domain overridden to plain HTTP", async () => {
    const main = await t.call("GET", "/api/sites/1");
    assert.equal(main.body.site.home_url, "https://localhost/");
    const id = await makeSite(t, "Plain", "plain.example.test");
    assert.equal((await t.call("GET", `/api/sites/${id}`)).body.site.home_url, "https://plain.example.test/");
    const listed = await t.call("GET", `/api/sites/${id}/domains`);
    assert.deepEqual(listed.body.domains, [
      { domain: "plain.example.test", primary: true, https: null, scheme: "https" },
    ]);
    const set = await t.call("PATCH", `/api/sites/${id}/domains/plain.example.test`, { body: { https: false } });
    assert.equal(set.status, 200, set.text);
    assert.deepEqual(set.body.domain, { domain: "plain.example.test", primary: true, https: false, scheme: "http" });
    assert.equal((await t.call("GET", `/api/sites/${id}`)).body.site.home_url, "http://plain.example.test/");
    const back = await t.call("PATCH", `/api/sites/${id}/domains/plain.example.test`, { body: { https: null } });
    assert.equal(back.body.domain.scheme, "https");
    assert.equal((await t.call("GET", `/api/sites/${id}`)).body.site.home_url, "https://plain.example.test/");
  });

  it("PATCH …/domains/{domain}: 404 domain_not_found for another site's domain, 400 for an https that is no boolean, nothing_to_update without one", async () => {
    const id = await makeSite(t, "Other", "other.example.test");
    assert.equal(
      (await t.call("PATCH", `/api/sites/${id}/domains/localhost`, { body: { https: true } })).body.error,
      "domain_not_found",
    );
    assert.equal(
      (await t.call("PATCH", `/api/sites/${id}/domains/other.example.test`, { body: { https: "yes" } })).status,
      400,
    );
    const empty = await t.call("PATCH", `/api/sites/${id}/domains/other.example.test`, { body: {} });
    assert.equal(empty.status, 400);
    assert.equal(empty.body.error, "nothing_to_update");
    const editor = await t.call("PATCH", `/api/sites/${id}/domains/other.example.test`, {
      body: { https: true },
      token: null,
    });
    assert.equal(editor.status, 401);
  });
});
