// The admin on its own host (SVC_ADMIN_HOST, default admin.localhost; docs/admin.md): its page and
// client routes, its hashed assets, the redirects to it, and no site's pages on that host.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestApp } from "../support/app.ts";
import { startTestApp } from "../support/app.ts";
import { startAdminApp } from "../support/admin.ts";
import { rawHeader, rawRequest } from "../support/raw-http.ts";
import { assign, bind, frame, page } from "../support/site.ts";
// @ts-expect-error a build script (plain JavaScript), typed here by its use
import { buildAdmin } from "../../scripts/admin-build.mjs";

const ADMIN = "admin.localhost:8080";
const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; " +
  "font-src 'self'; frame-src 'self' blob:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

async function get(t: TestApp, url: string, headers: Record<string, string> = {}, method: "GET" | "HEAD" = "GET") {
  return t.app.inject({ method, url, headers: { host: ADMIN, ...headers } });
}

/** The hashed names index.html loads: the entry script and its stylesheet. */
function assetsOf(html: string): { script: string; style: string } {
  const script = /<script type="module" src="\/admin\/assets\/([^"]+)"><\/script>/.exec(html)?.[1];
  const style = /<link rel="stylesheet" href="\/admin\/assets\/([^"]+)">/.exec(html)?.[1];
  assert.ok(script && style, html);
  return { script, style };
}

describe("the admin on its host", () => {
  let t: TestApp;
  before(async () => {
    t = await startAdminApp();
    await frame(t, "plain", `<!DOCTYPE html><html><body><h1 ${bind("text", "page.title")}>x</h1></body></html>`);
    await assign(t, "plain", (await page(t, { title: "About", status: "publish" })).id);
  });
  after(() => t.close());

  it("`/` and `/admin` on the admin's host answer 302 to /admin/, whatever the case of the host and with or without its port", async () => {
    for (const [host, url] of [
      [ADMIN, "/"],
      [ADMIN, "/admin"],
      ["admin.localhost", "/admin?x=1"],
      ["ADMIN.Localhost:8080", "/"],
    ]) {
      const r = await get(t, url, { host });
      assert.equal(r.statusCode, 302, `${host} ${url}`);
      assert.equal(r.headers.location, "/admin/");
    }
  });

  it("/admin/ answers the admin's index.html with no-cache, nosniff, a same-origin referrer and a CSP allowing only its own scripts", async () => {
    const r = await get(t, "/admin/");
    assert.equal(r.statusCode, 200);
    assert.equal(r.headers["content-type"], "text/html; charset=utf-8");
    assert.equal(r.headers["cache-control"], "no-cache");
    assert.equal(r.headers["content-security-policy"], CSP);
    assert.equal(r.headers["x-content-type-options"], "nosniff");
    assert.equal(r.headers["referrer-policy"], "same-origin");
    assert.match(r.body, /^<!DOCTYPE html>\n<html lang="en">/);
    const { script, style } = assetsOf(r.body);
    assert.match(script, /^main-[A-Z0-9]{8}\.js$/);
    assert.match(style, /^main-[A-Z0-9]{8}\.css$/);
    // Nothing inline, which the CSP would refuse: every script has a src, no style element or attribute.
    assert.doesNotMatch(r.body, /<script(?![^>]*\ssrc=)[^>]*>|<style|\sstyle=/);
  });

  it("a client route under /admin/ (no file extension) answers the same index.html; an address naming a file there is 404", async () => {
    const index = await get(t, "/admin/");
    for (const url of ["/admin/pages", "/admin/pages/3/", "/admin/sites/2/frames/home?tab=html"]) {
      const r = await get(t, url);
      assert.equal(r.statusCode, 200, url);
      assert.equal(r.body, index.body, url);
      assert.equal(r.headers["content-security-policy"], CSP, url);
    }
    for (const url of ["/admin/favicon.ico", "/admin/main.js", "/admin/assets"]) {
      assert.equal((await get(t, url)).statusCode, 404, url);
    }
  });

  it("the index answers 304 to its ETag, and HEAD with its headers and no body", async () => {
    const first = await get(t, "/admin/");
    const etag = first.headers.etag as string;
    assert.ok(etag);
    const again = await get(t, "/admin/", { "if-none-match": etag });
    assert.equal(again.statusCode, 304);
    assert.equal(again.body, "");
    const head = await get(t, "/admin/pages", {}, "HEAD");
    assert.equal(head.statusCode, 200);
    assert.equal(head.body, "");
    assert.equal(head.headers["content-security-policy"], CSP);
  });

  it("an asset answers by its hashed name in brotli or gzip as Accept-Encoding allows, with Vary, its type, and cached for a year as immutable", async () => {
    const { script, style } = assetsOf((await get(t, "/admin/")).body);
    const plain = await get(t, `/admin/assets/${script}`);
    assert.equal(plain.statusCode, 200);
    assert.equal(plain.headers["content-encoding"], undefined);
    const identity = plain.rawPayload;
    const cases: Array<[string, string | undefined, (b: Buffer) => Buffer]> = [
      ["br, gzip", "br", brotliDecompressSync],
      ["gzip, deflate", "gzip", gunzipSync],
      ["br;q=0, gzip", "gzip", gunzipSync],
      ["identity", undefined, (b) => b],
    ];
    for (const [accept, coding, decode] of cases) {
      const r = await get(t, `/admin/assets/${script}`, { "accept-encoding": accept });
      assert.equal(r.statusCode, 200, accept);
      assert.equal(r.headers["content-encoding"], coding, accept);
      assert.equal(r.headers.vary, "Accept-Encoding");
      assert.equal(r.headers["cache-control"], "public, max-age=31536000, immutable");
      assert.equal(r.headers["content-type"], "text/javascript; charset=utf-8");
      assert.equal(r.headers["x-content-type-options"], "nosniff");
      assert.ok(decode(r.rawPayload).equals(identity), accept);
    }
    const css = await get(t, `/admin/assets/${style}`, { "accept-encoding": "gzip" });
    assert.equal(css.headers["content-type"], "text/css; charset=utf-8");
    assert.equal(css.headers["content-encoding"], "gzip");
    assert.equal(css.headers.vary, "Accept-Encoding");
  });

  it("an unknown asset is 404, and no address reaches a file outside the build (no path traversal)", async () => {
    const { script } = assetsOf((await get(t, "/admin/")).body);
    for (const url of [
      "/admin/assets/main-AAAAAAAA.js",
      `/admin/assets/${script}.br`,
      "/admin/assets/",
      "/admin/assets/../index.html",
      "/admin/assets/%2e%2e/index.html",
      "/admin/assets/..%2findex.html",
      "/admin/assets/%2e%2e%2f%2e%2e%2f%2e%2e%2fpackage.json",
      "/admin/assets/..%5c..%5cpackage.json",
      "/admin/../package.json",
      "/admin/assets//etc/passwd",
    ]) {
      const r = await get(t, url);
      assert.equal(r.statusCode, 404, `${url}: ${r.statusCode}`);
      assert.doesNotMatch(r.body, /site-builder-service|root:|<script/, url);
    }
  });

  it("the admin's host answers the API and /healthz", async () => {
    assert.equal((await get(t, "/healthz")).statusCode, 200);
    const profile = await get(t, "/api/profile", { authorization: `Bearer ${t.adminToken}` });
    assert.equal(profile.statusCode, 200, profile.body);
    // An address the API has not: answered as on any host.
    const auth = { authorization: `Bearer ${t.adminToken}` };
    const unknown = await get(t, "/api/nothing-here", auth);
    const elsewhere = await get(t, "/api/nothing-here", { ...auth, host: "localhost:8080" });
    assert.equal(unknown.statusCode, 404);
    assert.deepEqual([unknown.statusCode, unknown.json()], [elsewhere.statusCode, elsewhere.json()]);
  });

  it("the admin's host shows no site's page: every other address is the plain 404, though the main site has a page there", async () => {
    const onSite = await t.app.inject({ url: "/about/", headers: { host: "localhost:8080" } });
    assert.equal(onSite.statusCode, 200);
    assert.match(onSite.body, /About/);
    for (const url of ["/about/", "/about", "/sitemap.xml", "/robots.txt", "/media/x.png", "/_preview/abc"]) {
      const r = await get(t, url);
      assert.equal(r.statusCode, 404, url);
      assert.doesNotMatch(r.body, /About/, url);
      assert.equal(r.headers["x-svc-printed"] ?? "none", "none", url);
    }
  });

  it("over a real socket, a page held in memory for the main site is never answered on the admin's host", async () => {
    await t.app.listen({ host: "127.0.0.1", port: 0 });
    const port = (t.app.server.address() as { port: number }).port;
    await rawRequest(port, "/about/");
    const fromMemory = await rawRequest(port, "/about/");
    assert.equal(fromMemory.status, 200);
    assert.match(rawHeader(fromMemory, "x-svc-printed") ?? "", /^(cache|static)$/);
    for (const host of [ADMIN, "admin.localhost", "Admin.Localhost"]) {
      const onAdmin = await rawRequest(port, "/about/", { host });
      assert.equal(onAdmin.status, 404, host);
      assert.doesNotMatch(onAdmin.body, /About/, host);
    }
    assert.equal((await rawRequest(port, "/admin/", { host: ADMIN })).status, 200);
  });
});

describe("the admin before it is built", () => {
  let t: TestApp;
  let dir: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "svc-admin-unbuilt-"));
    t = await startTestApp({ build: { adminDir: dir } });
  });
  after(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("answers 503 saying `npm run build` builds it, and serves the build made meanwhile without a restart", async () => {
    for (const url of ["/admin/", "/admin/pages", "/admin/assets/main-AAAAAAAA.js"]) {
      const r = await get(t, url);
      assert.equal(r.statusCode, 503, url);
      assert.match(r.body, /npm run build/);
      assert.equal(r.headers["cache-control"], "no-store");
    }
    assert.equal((await get(t, "/")).statusCode, 302, "the redirect needs no build");
    await buildAdmin(new URL("../../", import.meta.url).pathname, dir);
    assert.equal((await get(t, "/admin/")).statusCode, 200);
  });
});
