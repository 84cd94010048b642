import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { makeSite, startTestApp, type TestApp } from "../support/app.ts";
import { addLanguage, pageChanges, publish, recordChanges, type Recorder } from "./helpers.ts";

describe("translations (POST /pages/language)", () => {
  let t: TestApp;
  let recorder: Recorder;
  let n = 0;
  const site = () => makeSite(t, `Tr ${++n}`, `tr${n}.localhost`);
  const link = (id: number, body: Record<string, unknown>) =>
    t.call("POST", `/api/site/${id}/pages/language`, { body });
  const bilingual = async () => {
    const id = await site();
    await addLanguage(t, id, "en");
    await addLanguage(t, id, "de");
    return id;
  };
  before(async () => {
    t = await startTestApp();
    recorder = recordChanges(t);
  });
  after(() => t.close());

  it("creates a translation linked to its origin: {page, origin: {id, lang}}, and translations show both ways", async () => {
    const id = await bilingual();
    const origin = await publish(t, id, { title: "About", content: "<p>en</p>", fields: { team: 3 } });
    recorder.reset();
    const r = await link(id, { page: origin.page.id, lang: "de", title: "Über uns", content: "<p>de</p>" });
    assert.equal(r.status, 201);
    assert.equal(r.body.site_id, id);
    assert.deepEqual(r.body.origin, { id: origin.page.id, lang: "en" });
    const page = r.body.page;
    assert.equal(page.lang, "de");
    assert.equal(page.title, "Über uns");
    assert.equal(page.slug, "ueber-uns", "the slug of a title is made in the translation's language");
    assert.equal(page.url, `http://tr${n}.localhost:8080/de/ueber-uns/`);
    assert.equal(page.content, "<p>de</p>");
    assert.deepEqual(page.fields, { team: 3 }, "fields not given are copied from the origin");
    assert.deepEqual(page.translations, { de: page.id, en: origin.page.id });
    const back = await t.call("GET", `/api/site/${id}/pages/${origin.page.id}`);
    assert.deepEqual(back.body.page.translations, { de: page.id, en: origin.page.id });
    // both pages' records changed: both are announced
    assert.deepEqual(
      pageChanges(recorder).map((c) => c.pageId),
      [origin.page.id, page.id],
    );
  });

  it("the translation stands under the translation of the origin's parent, else at the top with a warning", async () => {
    const id = await bilingual();
    const parent = await publish(t, id, { title: "Products" });
    const child = await publish(t, id, { title: "Shoes", parent: parent.page.id });
    const lonely = await link(id, { page: child.page.id, lang: "de", title: "Schuhe" });
    assert.equal(lonely.body.page.parent, 0);
    assert.deepEqual(
      lonely.body.warnings.map((w: any) => w.code),
      ["parent_not_translated"],
    );
    const parentDe = await link(id, { page: parent.page.id, lang: "de", title: "Produkte" });
    const grandchild = await publish(t, id, { title: "Boots", parent: child.page.id });
    const childDe2 = await link(id, { page: grandchild.page.id, lang: "de", title: "Stiefel" });
    assert.equal(childDe2.body.page.parent, lonely.body.page.id);
    assert.equal(childDe2.body.page.path, "/schuhe/stiefel");
    assert.equal(parentDe.body.page.path, "/produkte");
  });

  it("the four refusals are 422 translation_link_failed with reason lang_required, same_language, origin_not_found, origin_has_no_language", async () => {
    const id = await site();
    const old = await publish(t, id, { title: "Before languages" });
    await addLanguage(t, id, "en");
    await addLanguage(t, id, "de");
    const en = await publish(t, id, { title: "Hello" });
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ page: en.page.id }, "lang_required"],
      [{ page: en.page.id, lang: "en" }, "same_language"],
      [{ page: 987654, lang: "de" }, "origin_not_found"],
      [{ page: "no-such-page", lang: "de" }, "origin_not_found"],
      [{ page: old.page.id, lang: "de" }, "origin_has_no_language"],
    ];
    for (const [body, reason] of cases) {
      const r = await link(id, body);
      assert.equal(r.status, 422, JSON.stringify(body));
      assert.equal(r.body.success, false);
      assert.equal(r.body.error, "translation_link_failed");
      assert.equal(r.body.reason, reason);
    }
    const unknownLang = await link(id, { page: en.page.id, lang: "fr" });
    assert.equal(unknownLang.status, 400);
    assert.equal(unknownLang.body.error, "unknown_language");
  });

  it("while the site has no languages, lang answers 409 multilang_inactive", async () => {
    const id = await site();
    const p = await publish(t, id, { title: "Mono" });
    const r = await link(id, { page: p.page.id, lang: "de" });
    assert.equal(r.status, 409);
    assert.equal(r.body.error, "multilang_inactive");
  });

  it("linking again in a language that has a translation updates it (created false); a taken slug gets -2", async () => {
    const id = await bilingual();
    const origin = await publish(t, id, { title: "Home" });
    const first = await link(id, { page: origin.page.id, lang: "de", title: "Start" });
    const again = await link(id, { page: origin.page.id, lang: "de", title: "Startseite" });
    assert.equal(again.status, 200);
    assert.equal(again.body.created, false);
    assert.equal(again.body.page.id, first.body.page.id);
    assert.equal(again.body.page.title, "Startseite");
    const other = await publish(t, id, { title: "Team" });
    await publish(t, id, { title: "Team", lang: "de" });
    const clash = await link(id, { page: other.page.id, lang: "de" });
    assert.equal(clash.body.page.slug, "team-2");
    assert.deepEqual(clash.body.slug_changed, { from: "team", to: "team-2" });
  });

  it("{missing: true} gives every page without a language the default language and answers {updated: [ids]}", async () => {
    const id = await site();
    const a = await publish(t, id, { title: "A" });
    const b = await publish(t, id, { title: "B", parent: a.page.id });
    const inactive = await link(id, { missing: true });
    assert.equal(inactive.status, 409);
    assert.equal(inactive.body.error, "multilang_inactive");
    await addLanguage(t, id, "en");
    const withLang = await publish(t, id, { title: "C" });
    const r = await link(id, { missing: true });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.updated, [a.page.id, b.page.id]);
    assert.equal(r.body.lang, "en");
    assert.equal((await t.call("GET", `/api/site/${id}/pages/${b.page.id}`)).body.page.lang, "en");
    assert.equal((await t.call("GET", `/api/site/${id}/pages/${withLang.page.id}`)).body.page.lang, "en");
    const none = await link(id, { missing: true });
    assert.deepEqual(none.body.updated, []);
  });

  it("{missing: true, lang} uses that language; a slug that language already holds there gets -2", async () => {
    const id = await site();
    const legacy = await publish(t, id, { title: "Contact" });
    await addLanguage(t, id, "en");
    await addLanguage(t, id, "de");
    await publish(t, id, { title: "Contact", lang: "de" });
    const r = await link(id, { missing: true, lang: "de" });
    assert.deepEqual(r.body.updated, [legacy.page.id]);
    const page = (await t.call("GET", `/api/site/${id}/pages/${legacy.page.id}`)).body.page;
    assert.equal(page.lang, "de");
    assert.equal(page.slug, "contact-2");
    assert.equal(page.url, `http://tr${n}.localhost:8080/de/contact-2/`);
    assert.ok(r.body.warnings.some((w: any) => w.code === "slug_changed"));
  });
});
