// Linking existing pages as translations (docs/content-model.md, "Translations"):
// `POST /pages/language {page, lang, translation}` puts the existing page in the origin's group —
// no new page, nothing else written — and the public pages' hreflang links follow; a language held
// on both sides is 409 translation_exists; refusals write nothing.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { TestApp } from "../support/app.ts";
import { ok, seoSite, startTestApp, type SeoSite } from "../seo/helpers.ts";

const SEO_FRAME = `<!DOCTYPE html><html><head><!-- svc/seo /--></head><body><h1 data-op-bind='{"text": "page.title"}'></h1></body></html>`;

describe("linking existing pages as translations", () => {
  let t: TestApp;
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  /** A bilingual site with an English and a German imprint, made separately (two groups of one). */
  async function imprints(): Promise<{ site: SeoSite; en: number; de: number }> {
    const site = await seoSite(t, { languages: true });
    await site.frame("seo", SEO_FRAME);
    const en = await site.page("Imprint", "seo", { lang: "en", slug: "impressum" });
    const de = await site.page("Impressum", "seo", { lang: "de", slug: "impressum" });
    return { site, en, de };
  }
  const pageCount = async (site: SeoSite) => ok(await site.api("GET", "/pages?per_page=100&status=any"), "pages").total;

  it("links the existing page: no new page, both list each other, the public pages print hreflang for both", async () => {
    const { site, en, de } = await imprints();
    const count = await pageCount(site);
    const linked = ok(await site.api("POST", "/pages/language", { page: en, lang: "de", translation: de }), "link");
    assert.equal(linked.created, false);
    assert.equal(linked.page.id, de);
    assert.deepEqual(linked.page.translations, { en, de });
    assert.deepEqual(linked.origin, { id: en, lang: "en" });
    assert.equal(await pageCount(site), count);
    assert.deepEqual(ok(await site.api("GET", `/pages/${en}`), "en").page.translations, { en, de });
    // Nothing else of either page changed.
    assert.equal(ok(await site.api("GET", `/pages/${de}`), "de").page.title, "Impressum");
    const english = ok(await site.api("GET", `/pages/${en}`), "en").page;
    const german = ok(await site.api("GET", `/pages/${de}`), "de").page;
    const html = (await site.visit(new URL(english.url).pathname)).text;
    assert.ok(html.includes(`hreflang="de" href="${german.url}"`), html);
    // Linked again: nothing to do, nothing written.
    const again = ok(await site.api("POST", "/pages/language", { page: en, lang: "de", translation: de }), "again");
    assert.equal(again.created, false);
    assert.equal(again.rebaked.total, 0);
  });

  it("a language held on both sides is 409 translation_exists, and nothing is written", async () => {
    const { site, en, de } = await imprints();
    ok(await site.api("POST", "/pages/language", { page: en, lang: "de", translation: de }), "link");
    const other = await site.page("Impressum alt", "seo", { lang: "de", slug: "impressum-alt" });
    const refused = await site.api("POST", "/pages/language", { page: en, lang: "de", translation: other });
    assert.equal(refused.status, 409);
    assert.equal(refused.body.error, "translation_exists");
    assert.equal(refused.body.lang, "de");
    // The other way round: the German page already has an English partner.
    const lone = await site.page("Imprint 2", "seo", { lang: "en", slug: "imprint-2" });
    const back = await site.api("POST", "/pages/language", { page: lone, lang: "de", translation: de });
    assert.equal(back.body.error, "translation_exists");
    assert.deepEqual(ok(await site.api("GET", `/pages/${other}`), "other").page.translations, { de: other });
    assert.deepEqual(ok(await site.api("GET", `/pages/${lone}`), "lone").page.translations, { en: lone });
  });

  it("refusals: a translation in another language, an unknown one; fields it does not write are warned and ignored", async () => {
    const { site, en, de } = await imprints();
    const english = await site.page("Other", "seo", { lang: "en", slug: "other" });
    const wrong = await site.api("POST", "/pages/language", { page: de, lang: "de", translation: english });
    assert.equal(wrong.body.error, "translation_link_failed");
    assert.equal(wrong.body.reason, "same_language");
    const mismatch = await site.api("POST", "/pages/language", { page: en, lang: "de", translation: english });
    assert.equal(mismatch.status, 422);
    assert.equal(mismatch.body.reason, "translation_language");
    const unknown = await site.api("POST", "/pages/language", { page: en, lang: "de", translation: 999999 });
    assert.equal(unknown.body.reason, "translation_not_found");
    const warned = ok(
      await site.api("POST", "/pages/language", { page: en, lang: "de", translation: de, title: "Ignored" }),
      "warned",
    );
    assert.deepEqual(
      warned.warnings.map((w: { code: string; field: string }) => [w.code, w.field]),
      [["field_ignored", "title"]],
    );
    assert.equal(warned.page.title, "Impressum");
  });
});
