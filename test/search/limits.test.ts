// Site search counts against the public limit (docs/search.md): past SVC_PUBLIC_RATE_LIMIT_PER_MIN
// a search answers 429 with Retry-After, as pages do; and `lang` searches one language's pages.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { ok, seoSite, startTestApp } from "../seo/helpers.ts";

describe("site search and the public limit", () => {
  it("past SVC_PUBLIC_RATE_LIMIT_PER_MIN a search answers 429 with Retry-After", async () => {
    const t = await startTestApp({ env: { SVC_PUBLIC_RATE_LIMIT_PER_MIN: "3" } });
    try {
      const statuses: number[] = [];
      let retry: unknown;
      for (let i = 0; i < 4; i++) {
        const answer = await t.call("GET", "/_search?q=anything", { token: null, ip: "203.0.113.9" });
        statuses.push(answer.status);
        retry = answer.headers["retry-after"];
      }
      assert.deepEqual(statuses, [200, 200, 200, 429]);
      assert.ok(Number(retry) >= 1);
    } finally {
      await t.close();
    }
  });
});

describe("site search by language", () => {
  it("searches the default language's pages, or those `lang` names; a language the site lacks finds nothing", async () => {
    const t = await startTestApp();
    try {
      const site = await seoSite(t, { languages: true });
      await site.frame("plain", "<p>x</p>");
      await site.page("Kangaroo", "plain", { lang: "en" });
      const german = await site.page("Känguru Kangaroo", "plain", { lang: "de" });
      const titles = async (query: string) =>
        ((await site.visit(`/_search?${query}`)).body.results as Array<{ title: string; url: string }>).map(
          (result) => `${result.title} ${result.url.replace(site.origin, "")}`,
        );
      assert.deepEqual(await titles("q=kangaroo"), ["Kangaroo /kangaroo/"]);
      assert.deepEqual(await titles("q=kanguru&lang=de"), [`Känguru Kangaroo /de/kaenguru-kangaroo/`]);
      assert.deepEqual(await titles("q=kangaroo&lang=fr"), []);
      ok(await site.api("DELETE", `/pages/${german}`), "trash");
      assert.deepEqual(await titles("q=kanguru&lang=de"), []);
    } finally {
      await t.close();
    }
  });
});

describe("site search and pages without a language", () => {
  it("a page made before the site had languages is found in the default language, where it is shown", async () => {
    const t = await startTestApp();
    try {
      const site = await seoSite(t);
      await site.frame("plain", "<p>x</p>");
      await site.page("Koala walks", "plain");
      for (const code of ["en", "de"]) ok(await site.api("POST", "/languages", { code }), code, 201);
      assert.equal((await site.visit("/koala-walks/")).status, 200);
      const titles = async (query: string) =>
        ((await site.visit(`/_search?${query}`)).body.results as Array<{ title: string }>).map((r) => r.title);
      assert.deepEqual(await titles("q=koala"), ["Koala walks"]);
      assert.deepEqual(await titles("q=koala&lang=en"), ["Koala walks"]);
      assert.deepEqual(await titles("q=koala&lang=de"), []);
      assert.deepEqual(await titles("q=koala%20walk"), ["Koala walks"], "read with the configuration it was made with");
    } finally {
      await t.close();
    }
  });
});
