import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { CompiledCache } from "../../src/publish/compiled-cache.ts";

describe("compiled programs cache", () => {
  it("markup with the same sha256 is compiled once: a render never parses it again", () => {
    const cache = new CompiledCache();
    const a = cache.get("sha-a", '<p data-op-bind=\'{"text": "site.name"}\'></p>');
    assert.equal(cache.get("sha-a", '<p data-op-bind=\'{"text": "site.name"}\'></p>'), a);
    assert.notEqual(cache.get("sha-b", "<p></p>"), a);
    assert.equal(a.analysis.binds, 1);
  });

  it("holds a bounded number of programs, dropping the least recently used", () => {
    const cache = new CompiledCache(2);
    const one = cache.get("1", "<i>1</i>");
    const two = cache.get("2", "<i>2</i>");
    cache.get("1", "<i>1</i>");
    cache.get("3", "<i>3</i>");
    assert.equal(cache.get("1", "<i>1</i>"), one, "recently used stays");
    assert.notEqual(cache.get("2", "<i>2</i>"), two, "least recently used was dropped and compiled anew");
  });

  it("holds a bounded number of bytes of markup: large frames push the oldest out, and one larger than the budget is not kept", () => {
    const cache = new CompiledCache(100, 30);
    const a = cache.get("a", "<p>aaaaaaaaaa</p>"); // 17
    cache.get("b", "<p>bbbbbbbbb</p>"); // 16: 33 > 30, "a" goes
    assert.equal(cache.size, 1);
    assert.ok(cache.heldBytes <= 30);
    assert.notEqual(cache.get("a", "<p>aaaaaaaaaa</p>"), a);
    const huge = `<p>${"x".repeat(40)}</p>`;
    assert.notEqual(cache.get("h", huge), cache.get("h", huge), "compiled for each render, never kept");
    assert.ok(cache.heldBytes <= 30);
  });
});
