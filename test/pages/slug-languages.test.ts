// Slugs in the page's language (docs/seo.md, docs/content-model.md): a slug made from a title is
// transliterated by the language the page will have, through the API (POST /pages, POST
// /pages/language).
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { makeSite, startTestApp, type TestApp } from "../support/app.ts";
import { addLanguage, publish, recordChanges } from "./helpers.ts";

describe("slugs from titles in the page's language", () => {
  let t: TestApp;
  let n = 0;
  /** A site with languages en (default), de and ru. */
  const site = async (codes = ["en", "de", "ru"]) => {
    const id = await makeSite(t, `Slug lang ${++n}`, `sluglang${n}.localhost`);
    for (const code of codes) await addLanguage(t, id, code);
    return id;
  };
  before(async () => {
    t = await startTestApp();
    recordChanges(t);
  });
  after(() => t.close());

  it("POST /pages: Über uns in de is ueber-uns, in en uber-uns; a Russian title in ru is Latin", async () => {
    const id = await site();
    const de = await publish(t, id, { title: "Über uns", lang: "de" });
    assert.equal(de.created, true);
    assert.equal(de.page.slug, "ueber-uns");
    assert.equal(de.page.url, `http://sluglang${n}.localhost:8080/de/ueber-uns/`);
    const en = await publish(t, id, { title: "Über uns", lang: "en" });
    assert.equal(en.page.slug, "uber-uns");
    assert.equal(en.page.url, `http://sluglang${n}.localhost:8080/uber-uns/`);
    const ru = await publish(t, id, { title: "О компании", lang: "ru" });
    assert.equal(ru.page.slug, "o-kompanii");
    assert.equal(ru.page.url, `http://sluglang${n}.localhost:8080/ru/o-kompanii/`);
    const byPath = await t.call("GET", `/api/site/${id}/pages/${encodeURIComponent("/ru/o-kompanii")}`);
    assert.equal(byPath.body.page?.id, ru.page.id, "the Latin path finds the page");
  });

  it("re-posting the same title in the same language updates that page (publishing without id looks up the slug made in that language)", async () => {
    const id = await site();
    const first = await publish(t, id, { title: "Größe Ärger", lang: "de", content: "<p>1</p>" });
    assert.equal(first.page.slug, "groesse-aerger");
    const again = await publish(t, id, { title: "Größe Ärger", lang: "de", content: "<p>2</p>" });
    assert.equal(again.created, false);
    assert.equal(again.page.id, first.page.id);
    assert.equal(again.page.content, "<p>2</p>");
  });

  it("without lang: the language of a parent given by id, else the site's default language", async () => {
    const id = await site();
    const parent = await publish(t, id, { title: "Straße", lang: "de" });
    assert.equal(parent.page.slug, "strasse");
    const child = await publish(t, id, { title: "Änderungen", parent: parent.page.id });
    assert.equal(child.page.lang, "de");
    assert.equal(child.page.slug, "aenderungen");
    const onDefault = await publish(t, id, { title: "Änderungen" });
    assert.equal(onDefault.page.lang, "en");
    assert.equal(onDefault.page.slug, "anderungen");

    const german = await site(["de", "en"]);
    const byDefault = await publish(t, german, { title: "Über uns" });
    assert.equal(byDefault.page.lang, "de");
    assert.equal(byDefault.page.slug, "ueber-uns");
  });

  it("a page without a language (site without languages) takes the general rule", async () => {
    const id = await site([]);
    const page = await publish(t, id, { title: "Über uns" });
    assert.equal(page.page.lang, null);
    assert.equal(page.page.slug, "uber-uns");
  });

  it("an explicit slug is not transliterated by language: it is made a slug by the general rule, as before", async () => {
    const id = await site();
    const r = await publish(t, id, { title: "Über uns", slug: "Über uns", lang: "de" });
    assert.equal(r.page.slug, "uber-uns");
    assert.deepEqual(
      r.warnings.map((w: any) => w.code),
      ["slug_normalized"],
    );
    const given = await publish(t, id, { title: "Ärger", slug: "aerger", lang: "de" });
    assert.equal(given.page.slug, "aerger");
  });

  it("a path segment in url or parent is read in the page's language: it finds the page its title made, and stubs are made alike", async () => {
    const id = await site();
    const parent = await publish(t, id, { title: "Über uns", lang: "de" });
    const byUrl = await publish(t, id, { title: "Team", lang: "de", url: "/de/Über uns/team" });
    assert.equal(byUrl.page.parent, parent.page.id);
    assert.equal(byUrl.page.path, "/ueber-uns/team");
    const stubbed = await publish(t, id, {
      title: "Karte",
      lang: "de",
      url: "/Anfahrt Straße/karte",
      create_missing_parents: true,
    });
    assert.deepEqual(
      stubbed.created_stubs.map((s: any) => s.path),
      ["/anfahrt-strasse"],
    );
    const asSlug = await publish(t, id, { title: "Leute", lang: "de", parent: "/ueber-uns" });
    assert.equal(asSlug.page.parent, parent.page.id, "a segment that is a slug is read as it is");
  });

  it("POST /pages/language: the slug of the given title is made in the translation's language", async () => {
    const id = await site();
    const origin = await publish(t, id, { title: "Contact" });
    const ru = await t.call("POST", `/api/site/${id}/pages/language`, {
      body: { page: origin.page.id, lang: "ru", title: "Контакты" },
    });
    assert.equal(ru.status, 201, ru.text);
    assert.equal(ru.body.page.slug, "kontakty");
    const de = await t.call("POST", `/api/site/${id}/pages/language`, {
      body: { page: origin.page.id, lang: "de", title: "Grüße" },
    });
    assert.equal(de.body.page.slug, "gruesse");
  });
});
