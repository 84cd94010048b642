// Effect table, schemes (docs/publishing.md, docs/domains.md "Schemes"): a domain's scheme
// written through the API, and SVC_PUBLIC_SCHEME changed between two starts, reach the public site
// on the very next request: every absolute address the site prints carries the new scheme. On
// SQLite in the one process, under `npm run test:pg` in the other process than the one written
// through (pattern in effects-helpers.ts). Requests over "HTTPS" are plain HTTP from 127.0.0.1
// with X-Forwarded-Proto: https, which SVC_TRUST_PROXY=loopback believes, as behind nginx.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { call, type Reply } from "../cluster/helpers.ts";
import { serviceDatabase, startService, type Running } from "../support/process.ts";
import type { TestDatabase } from "../support/database.ts";
import { generateToken } from "../../src/tokens.ts";
import { bind, effects, ok, processes, served, suite } from "./effects-helpers.ts";

const OVER_HTTPS = { "x-forwarded-proto": "https" };

/** A frame printing the site's address and a menu's link to its page: kept as a static copy. */
const PRINTS_ADDRESSES = `<a class="home" ${bind("href", "site.url")}>home</a><nav><!-- svc/menu {"location": "header"} /--></nav>`;
/** A frame printing the head's canonical and og:url links (svc/seo renders on request, kept in memory). */
const PRINTS_HEAD = `<!DOCTYPE html><html><head><meta charset="utf-8"><!-- svc/seo /--></head><body>${PRINTS_ADDRESSES}</body></html>`;

/** The absolute addresses of the site `domain` a page prints. */
const addressesOf = (html: string, domain: string) =>
  [...html.matchAll(/(?:href|content)="(https?:\/\/[^"/]+)[^"]*"/g)]
    .map((m) => m[1])
    .filter((origin) => origin.replace(/^https?:\/\//, "").startsWith(domain));

describe(suite("schemes"), () => {
  const fx = effects({ SVC_TRUST_PROXY: "loopback" });
  /** A public GET through the reading process, over HTTPS as a trusted proxy says it. */
  const secure = (path: string, host: string): Promise<Reply> =>
    call(fx.cluster.processes[processes - 1].port, "GET", path, { host, token: fx.cluster.token, headers: OVER_HTTPS });

  /**
   * A site on `domain` with a page printing its addresses at /<slug>/ (a static copy) and one
   * printing its head at /<slug>-head/ (on request), each fetched twice; answers the site's id.
   */
  async function siteShowing(domain: string, slug: string): Promise<number> {
    const site = await fx.site(`Site of ${domain}`, domain);
    await fx.frame(slug, PRINTS_ADDRESSES, site);
    await fx.frame(`${slug}-head`, PRINTS_HEAD, site);
    const id = await fx.page(slug, slug, {}, site);
    await fx.page(`${slug}-head`, `${slug}-head`, {}, site);
    ok(
      await fx.api("POST", "/menus", { name: "Header", location: "header", items: [{ page: id }] }, site),
      "menu",
      201,
    );
    await fx.primed(`/${slug}/`, domain);
    await fx.primed(`/${slug}-head/`, domain);
    return site;
  }

  it("PATCH /api/sites/{id}/domains/{primary} https: true: every address the site prints is https at once; plain HTTP answers 301 to it", async () => {
    const site = await siteShowing("zh-secure.localhost", "zh-page");
    const before = served(await fx.visit("/zh-page/", "zh-secure.localhost"), "before", "static");
    assert.ok(addressesOf(before, "zh-secure.localhost").length >= 2, before);
    assert.ok(addressesOf(before, "zh-secure.localhost").every((origin) => origin.startsWith("http://")));
    const patched = ok(
      await fx.api("PATCH", `/api/sites/${site}/domains/zh-secure.localhost`, { https: true }),
      "PATCH https",
    );
    assert.deepEqual(patched.domain, { domain: "zh-secure.localhost", primary: true, https: true, scheme: "https" });
    for (const [path, printed] of [
      ["/zh-page/", "static"],
      ["/zh-page-head/", undefined],
    ] as const) {
      const after = served(await secure(path, "zh-secure.localhost"), `${path} after, over https`, printed);
      const origins = addressesOf(after, "zh-secure.localhost");
      assert.ok(origins.length >= 2, after);
      assert.deepEqual([...new Set(origins)], ["https://zh-secure.localhost"], `${path}: no port, 443 is https's own`);
    }
    assert.match(
      served(await secure("/zh-page-head/", "zh-secure.localhost"), "head"),
      /<link rel="canonical" href="https:\/\/zh-secure\.localhost\/zh-page-head\/"/,
    );
    const plain = await fx.visit("/zh-page/?a=1", "zh-secure.localhost");
    assert.equal(plain.status, 301, plain.text);
    assert.equal(plain.headers.location, "https://zh-secure.localhost/zh-page/?a=1");
    assert.equal(ok(await fx.api("GET", `/api/sites/${site}`), "site").site.home_url, "https://zh-secure.localhost/");
  });

  it("PATCH …/domains/{primary} https: false: the site prints http again and answers plain HTTP", async () => {
    const site = await siteShowing("zh-back.localhost", "zh-back-page");
    ok(await fx.api("PATCH", `/api/sites/${site}/domains/zh-back.localhost`, { https: true }), "https");
    served(await secure("/zh-back-page/", "zh-back.localhost"), "over https", "static");
    ok(await fx.api("PATCH", `/api/sites/${site}/domains/zh-back.localhost`, { https: false }), "http");
    const text = served(await fx.visit("/zh-back-page/", "zh-back.localhost"), "plain http", "static");
    const printed = addressesOf(text, "zh-back.localhost");
    assert.ok(printed.length >= 2 && printed.every((origin) => origin.startsWith("http://")), text);
    const head = served(await fx.visit("/zh-back-page-head/", "zh-back.localhost"), "head, plain http");
    assert.match(head, /<link rel="canonical" href="http:\/\/zh-back\.localhost\/zh-back-page-head\/"/);
  });

  it("PATCH …/domains/{alias} https: nothing the site prints changes; the alias redirects to the primary's address", async () => {
    const site = await siteShowing("zh-aliased.localhost", "zh-aliased-page");
    ok(await fx.api("POST", `/api/sites/${site}/domains`, { domain: "www.zh-aliased.localhost" }), "alias", 201);
    const before = served(await fx.visit("/zh-aliased-page/", "zh-aliased.localhost"), "before", "static");
    const patched = ok(
      await fx.api("PATCH", `/api/sites/${site}/domains/www.zh-aliased.localhost`, { https: true }),
      "PATCH alias",
    );
    assert.deepEqual(patched.domain.scheme, "https");
    const after = await fx.visit("/zh-aliased-page/", "zh-aliased.localhost");
    assert.equal(served(after, "after", "static"), before);
    const moved = await secure("/zh-aliased-page/", "www.zh-aliased.localhost");
    assert.equal(moved.status, 301);
    assert.equal(
      moved.headers.location?.toString().replace(/:\d+\//, "/"),
      "http://zh-aliased.localhost/zh-aliased-page/",
    );
  });
});

describe(`schemes: SVC_PUBLIC_SCHEME changed between two starts republishes the kept pages before the service answers (${processes === 2 ? "PostgreSQL" : "SQLite"})`, () => {
  let database: TestDatabase;
  let env: Record<string, string>;
  let dataDir: string;
  let service: Running | undefined;
  const token = generateToken();

  before(async () => {
    const made = await serviceDatabase();
    database = made.database;
    dataDir = mkdtempSync(join(tmpdir(), "svc-scheme-"));
    env = { ...made.env, SVC_ADMIN_TOKEN: token, SVC_DATA_DIR: dataDir, SVC_TRUST_PROXY: "127.0.0.1, ::1" };
  });
  after(async () => {
    await service?.stop();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("a page baked under http is served with https addresses, as a static copy, by the first request after a start with SVC_PUBLIC_SCHEME=https; and back", async () => {
    service = await startService(env);
    const api = (method: string, path: string, body?: unknown) => call(service!.port, method, path, { token, body });
    ok(await api("POST", "/api/site/1/frames", { slug: "zs-frame", html: PRINTS_ADDRESSES }), "frame", 201);
    const page = ok(
      await api("POST", "/api/site/1/pages", { title: "Kept", slug: "zs-kept", status: "publish", frame: "zs-frame" }),
      "page",
      201,
    ).page.id;
    ok(await api("POST", "/api/site/1/menus", { name: "H", location: "header", items: [{ page }] }), "menu", 201);
    const before = served(await call(service.port, "GET", "/zs-kept/"), "before", "static");
    assert.ok(
      addressesOf(before, "localhost").every((origin) => origin === "http://localhost"),
      before,
    );
    await service.stop();

    service = await startService({ ...env, SVC_PUBLIC_SCHEME: "https" });
    const first = await call(service.port, "GET", "/zs-kept/", { headers: OVER_HTTPS });
    const printed = addressesOf(served(first, "first request after the start", "static"), "localhost");
    assert.ok(printed.length >= 2, first.text);
    assert.deepEqual([...new Set(printed)], ["https://localhost"]);
    assert.match(service.stdout(), /republished the sites whose addresses moved/);
    const plain = await call(service.port, "GET", "/zs-kept/");
    assert.equal(plain.status, 301);
    assert.equal(plain.headers.location, "https://localhost/zs-kept/");
    await service.stop();

    service = await startService(env);
    const again = served(await call(service.port, "GET", "/zs-kept/"), "back to http", "static");
    assert.deepEqual([...new Set(addressesOf(again, "localhost"))], ["http://localhost"]);
    // A start with the same configuration republishes nothing.
    await service.stop();
    service = await startService(env);
    assert.doesNotMatch(service.stdout(), /republished the sites/);
  });
});
