// PATCH /strings (docs/markup.md, "Strings per language"): merges keys into one language's texts —
// a key given is set, a key set to null is removed, every other key and every other language
// stays — and the public page prints what the merge left; refusals write nothing.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { TestApp } from "../support/app.ts";
import { ok, seoSite, startTestApp } from "../seo/helpers.ts";

describe("PATCH /strings", () => {
  let t: TestApp;
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  it("merges keys into one language: given keys set, null keys removed, the rest and the other languages kept", async () => {
    const site = await seoSite(t, { languages: true });
    ok(await site.api("PUT", "/strings", { strings: { a: "A", b: "B", gone: "G" } }), "PUT en");
    ok(await site.api("PUT", "/strings", { lang: "de", strings: { a: "Ä" } }), "PUT de");
    const merged = ok(await site.api("PATCH", "/strings", { strings: { b: "B2", c: "C", gone: null } }), "PATCH");
    assert.deepEqual([merged.lang, merged.strings], ["en", { a: "A", b: "B2", c: "C" }]);
    const all = ok(await site.api("GET", "/strings"), "GET").strings;
    assert.deepEqual(all, { en: { a: "A", b: "B2", c: "C" }, de: { a: "Ä" } });
    const de = ok(await site.api("PATCH", "/strings", { lang: "de", strings: { b: "Bé" } }), "PATCH de");
    assert.deepEqual(de.strings, { a: "Ä", b: "Bé" });
    // A key not there, set to null: nothing to remove, nothing changes.
    const same = ok(await site.api("PATCH", "/strings", { strings: { never: null } }), "PATCH nothing");
    assert.deepEqual(same.strings, { a: "A", b: "B2", c: "C" });
    assert.equal(same.rebaked.total, 0);
  });

  it("the public page prints the merged text at once", async () => {
    const site = await seoSite(t);
    await site.frame(
      "strings-page",
      `<!DOCTYPE html><html><body><p data-op-bind='{"text": "t.greeting"}'></p><p data-op-bind='{"text": "t.other"}'></p></body></html>`,
    );
    await site.page("Greeted", "strings-page");
    ok(await site.api("PUT", "/strings", { strings: { greeting: "Hello", other: "Kept" } }), "PUT");
    ok(await site.api("PATCH", "/strings", { strings: { greeting: "Welcome" } }), "PATCH");
    const html = (await site.visit("/greeted/")).text;
    assert.match(html, />Welcome</);
    assert.match(html, />Kept</);
  });

  it("refusals: no strings, a bad key, a text neither a string nor null, an unknown language — 400 and nothing written", async () => {
    const site = await seoSite(t, { languages: true });
    ok(await site.api("PUT", "/strings", { strings: { a: "A" } }), "PUT");
    for (const body of [
      {},
      { strings: [] },
      { strings: { "bad key": "x" } },
      { strings: { a: 5 } },
      { strings: { a: {} } },
    ]) {
      const refused = await site.api("PATCH", "/strings", body);
      assert.equal(refused.status, 400, JSON.stringify(body));
      assert.equal(refused.body.error, "bad_strings", JSON.stringify(body));
    }
    assert.equal(
      (await site.api("PATCH", "/strings", { lang: "fr", strings: { a: "x" } })).body.error,
      "unknown_language",
    );
    // PUT replaces, so null has no meaning there.
    assert.equal((await site.api("PUT", "/strings", { strings: { a: null } })).body.error, "bad_strings");
    assert.deepEqual(ok(await site.api("GET", "/strings?lang=en"), "unchanged").strings.en, { a: "A" });
  });
});
