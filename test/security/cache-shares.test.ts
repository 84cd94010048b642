// Fair cache shares (docs/security.md). One site could evict every other site's pages from the
// shared 64 MiB page cache; now any site may use free room, and once the cache is full the site
// holding the most bytes gives way (src/publish/page-cache.ts, docs/security.md).
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { makeSite, startTestApp, type TestApp } from "../support/app.ts";
import { bind, frame, page, visit } from "../support/site.ts";
import { PageCache } from "../../src/publish/page-cache.ts";
import { countRenders } from "./cache-helpers.ts";

describe("fair cache shares: the page cache's rule", () => {
  const entry = (siteId: number, address: string, bytes: number) => ({
    siteId,
    address,
    pageId: 1,
    body: Buffer.alloc(bytes, 120),
    printed: "on_request" as const,
  });

  it("finding: one site filling the cache no longer evicts another site's pages", () => {
    const cache = new PageCache(100_000);
    for (let i = 0; i < 3; i++) cache.put(entry(2, `/victim-${i}/`, 1_000));
    for (let i = 0; i < 500; i++) cache.put(entry(1, `/flood-${i}/`, 1_000));
    for (let i = 0; i < 3; i++) assert.ok(cache.has(2, `/victim-${i}/`), `the other site's page ${i} stays`);
    assert.ok(cache.totalBytes <= 100_000);
    assert.equal(cache.usageOf(1).bytes, 100_000 - 3_000, "the flooding site used the free room, and only that");
  });

  it("a site may use free room; once the cache is full, the site holding the most gives way, so a newcomer gets its fair share", () => {
    const cache = new PageCache(100_000);
    for (let i = 0; i < 100; i++) cache.put(entry(1, `/a-${i}/`, 1_000));
    assert.equal(cache.usageOf(1).bytes, 100_000, "alone, a site may fill the cache");
    for (let i = 0; i < 80; i++) cache.put(entry(2, `/b-${i}/`, 1_000));
    assert.deepEqual(
      [cache.usageOf(1).bytes, cache.usageOf(2).bytes],
      [50_000, 50_000],
      "each holds its share: budget / 2",
    );
    assert.ok(cache.has(1, "/a-99/") && !cache.has(1, "/a-49/"), "the first site lost its least recently used pages");
    assert.ok(cache.has(2, "/b-79/") && !cache.has(2, "/b-29/"), "past its share, the newcomer replaces its own");
    // A third site: the two large ones give way in turn until all three hold a third.
    for (let i = 0; i < 40; i++) cache.put(entry(3, `/c-${i}/`, 1_000));
    const usage = [1, 2, 3].map((site) => cache.usageOf(site).bytes);
    assert.ok(
      usage.every((bytes) => Math.abs(bytes - 100_000 / 3) <= 1_000),
      `${usage}`,
    );
    assert.ok(cache.totalBytes <= 100_000);
    // A site within its share keeps its pages whatever another requests.
    const kept = [...Array(30).keys()].filter((i) => cache.has(3, `/c-${i + 10}/`)).length;
    for (let i = 200; i < 400; i++) cache.put(entry(1, `/a-${i}/`, 1_000));
    assert.equal([...Array(30).keys()].filter((i) => cache.has(3, `/c-${i + 10}/`)).length, kept);
  });

  it("with many sites, the site holding the most gives way; one holding less than budget / sites never loses a page to the others", () => {
    const cache = new PageCache(60_000);
    for (let site = 1; site <= 5; site++) cache.put(entry(site, "/home/", 2_000));
    for (let i = 0; i < 200; i++) cache.put(entry(6, `/x-${i}/`, 1_000));
    for (let i = 0; i < 200; i++) cache.put(entry(7, `/y-${i}/`, 1_000));
    for (let site = 1; site <= 5; site++) assert.ok(cache.has(site, "/home/"), `site ${site} keeps its page`);
    assert.ok(cache.totalBytes <= 60_000);
    assert.ok(
      Math.abs(cache.usageOf(6).bytes - cache.usageOf(7).bytes) <= 1_000,
      "the two large sites share what is left",
    );
  });

  it("a page larger than what its site may hold in a full cache is answered but not kept", () => {
    const cache = new PageCache(10_000);
    for (let site = 1; site <= 4; site++) cache.put(entry(site, "/p/", 2_500));
    const big = cache.put(entry(5, "/big/", 6_000));
    assert.equal(big.body.length, 6_000);
    assert.equal(cache.has(5, "/big/"), false);
    for (let site = 1; site <= 4; site++) assert.ok(cache.has(site, "/p/"));
  });

  it("within a site, the least recently read page goes first, as before", () => {
    const cache = new PageCache(10);
    const small = (address: string, text: string) => ({
      siteId: 1,
      address,
      pageId: 1,
      body: Buffer.from(text),
      printed: "on_request" as const,
    });
    cache.put(small("/a/", "aaaa"));
    cache.put(small("/b/", "bbbb"));
    cache.get(1, "/a/");
    cache.put(small("/c/", "cccc"));
    assert.ok(cache.has(1, "/a/") && !cache.has(1, "/b/") && cache.has(1, "/c/"));
  });
});

describe("fair cache shares through the public site", () => {
  let t: TestApp;
  let renders: { readonly count: number };
  let attacker = 0;
  before(async () => {
    // A 64 KiB cache stands for the 64 MiB one: the rule is the same at any size.
    t = await startTestApp({ publishing: { cacheBytes: 64 * 1024 } });
    renders = countRenders(t);
    const big = `<!DOCTYPE html><html><body><h1 ${bind("text", "page.title")}>x</h1><div ${bind("html", "page.content")}></div></body></html>`;
    await frame(t, "big", big);
    for (const title of ["One", "Two", "Three"]) await page(t, { title, frame: "big", content: "v".repeat(4_000) });
    attacker = await makeSite(t, "Flood", "flood.localhost");
    await frame(t, "big", big, `/api/site/${attacker}`);
    for (let i = 0; i < 40; i++)
      await page(t, { title: `Flood ${i}`, frame: "big", content: "f".repeat(4_000) }, `/api/site/${attacker}`);
  });
  after(() => t.close());

  it("a site requesting all its large pages (160 KB into a 64 KiB cache) leaves another site's cached pages in memory", async () => {
    for (const path of ["/one/", "/two/", "/three/"]) assert.equal((await visit(t, path)).printed, "on_request");
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 40; i++) assert.equal((await visit(t, `/flood-${i}/`, "flood.localhost")).status, 200);
    }
    const before = renders.count;
    for (const path of ["/one/", "/two/", "/three/"]) assert.equal((await visit(t, path)).printed, "cache", path);
    assert.equal(renders.count, before, "the other site's pages were not rendered again");
    assert.ok(t.deps.publicSite.cache.totalBytes <= 64 * 1024);
  });
});
