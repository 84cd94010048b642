import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { CompiledCache } from "../../src/publish/compiled-cache.ts";

/** Compiles `html` twice through the cache, so that it is kept (a frame is kept from its second compile on). */
function held(cache: CompiledCache, sha256: string, html: string) {
  cache.get(sha256, html);
  return cache.get(sha256, html);
}

describe("compiled programs cache", () => {
  it("markup compiled a second time is kept: a render never parses it a third time", () => {
    const cache = new CompiledCache();
    const html = '<p data-op-bind=\'{"text": "site.name"}\'></p>';
    const first = cache.get("sha-a", html);
    assert.equal(cache.size, 0, "compiled once: not kept");
    const a = cache.get("sha-a", html);
    assert.notEqual(a, first, "compiled again at its second render");
    assert.equal(cache.get("sha-a", html), a, "kept from then on");
    assert.equal(cache.peek("sha-a"), a);
    assert.notEqual(cache.get("sha-b", "<p></p>"), a);
    assert.equal(a.analysis.binds, 1);
  });

  it("markup compiled once is not kept: a site-wide rebake compiling thousands of frames once leaves the cache as it was", () => {
    const cache = new CompiledCache(100);
    const kept = held(cache, "kept", "<i>kept</i>");
    for (let i = 0; i < 500; i++) cache.get(`once-${i}`, `<i>${i}</i>`);
    assert.equal(cache.size, 1);
    assert.equal(cache.peek("kept"), kept, "nothing pushed out");
  });

  it("holds a bounded number of programs, dropping the least recently used", () => {
    const cache = new CompiledCache(2);
    const one = held(cache, "1", "<i>1</i>");
    const two = held(cache, "2", "<i>2</i>");
    cache.get("1", "<i>1</i>");
    held(cache, "3", "<i>3</i>");
    assert.equal(cache.get("1", "<i>1</i>"), one, "recently used stays");
    assert.equal(cache.peek("2"), undefined, "least recently used was dropped");
    assert.notEqual(held(cache, "2", "<i>2</i>"), two, "and is compiled anew");
  });

  it("holds a bounded number of bytes of markup: large frames push the oldest out, and one larger than the budget is not kept", () => {
    const cache = new CompiledCache(100, 30);
    const a = held(cache, "a", "<p>aaaaaaaaaa</p>"); // 17
    held(cache, "b", "<p>bbbbbbbbb</p>"); // 16: 33 > 30, "a" goes
    assert.equal(cache.size, 1);
    assert.ok(cache.heldBytes <= 30);
    assert.equal(cache.peek("a"), undefined);
    assert.notEqual(held(cache, "a", "<p>aaaaaaaaaa</p>"), a);
    const huge = `<p>${"x".repeat(40)}</p>`;
    assert.notEqual(held(cache, "h", huge), cache.get("h", huge), "compiled for each render, never kept");
    assert.ok(cache.heldBytes <= 30);
  });
});
