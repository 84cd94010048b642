import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { PageCache } from "../../src/publish/page-cache.ts";

const page = (siteId: number, address: string, pageId: number, text = "x") => ({
  siteId,
  address,
  pageId,
  body: Buffer.from(text),
  printed: "on_request" as const,
});

describe("page cache", () => {
  it("keeps pages per site and address, with an ETag of the bytes", () => {
    const cache = new PageCache();
    cache.put(page(1, "/a/", 10, "one"));
    cache.put(page(2, "/a/", 20, "two"));
    assert.equal(cache.get(1, "/a/")?.body.toString(), "one");
    assert.equal(cache.get(2, "/a/")?.body.toString(), "two");
    assert.match(cache.get(1, "/a/")!.etag, /^"[A-Za-z0-9_-]{27}"$/);
    assert.notEqual(cache.get(1, "/a/")!.etag, cache.get(2, "/a/")!.etag);
  });

  it("flushes exactly the named addresses or pages, in one site only", () => {
    const cache = new PageCache();
    cache.put(page(1, "/a/", 10));
    cache.put(page(1, "/en/a/", 10));
    cache.put(page(1, "/b/", 11));
    cache.put(page(2, "/a/", 10));
    assert.deepEqual(cache.flushPages(1, [10]).sort(), ["/a/", "/en/a/"]);
    assert.ok(cache.get(1, "/b/"));
    assert.ok(cache.get(2, "/a/"), "the same page id on another site stays");
    assert.deepEqual(cache.flushAddresses(1, ["/b/", "/nothing/"]), ["/b/"]);
    assert.deepEqual(cache.flushSite(2), ["/a/"]);
    assert.equal(cache.size, 0);
  });

  it("stays within its byte budget, dropping the least recently used first", () => {
    const cache = new PageCache(10);
    cache.put(page(1, "/a/", 1, "aaaa"));
    cache.put(page(1, "/b/", 2, "bbbb"));
    cache.get(1, "/a/");
    cache.put(page(1, "/c/", 3, "cccc"));
    assert.ok(cache.get(1, "/a/"), "recently read stays");
    assert.equal(cache.get(1, "/b/"), undefined, "least recently used went");
    assert.ok(cache.totalBytes <= 10);
    cache.put(page(1, "/huge/", 4, "x".repeat(11)));
    assert.equal(cache.get(1, "/huge/"), undefined, "an entry over the budget is not kept");
  });
});
