import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { makeSite, startTestApp, type TestApp } from "../support/app.ts";
import { checkLang } from "../../src/site/languages.ts";
import { ServiceError } from "../../src/errors.ts";
import { statusOf } from "../../src/http/errors.ts";
import { addLanguage, publish, recordChanges, type Recorder } from "../pages/helpers.ts";

describe("languages", () => {
  let t: TestApp;
  let recorder: Recorder;
  let n = 0;
  const site = () => makeSite(t, `Langs ${++n}`, `langs${n}.localhost`);
  before(async () => {
    t = await startTestApp();
    recorder = recordChanges(t);
  });
  after(() => t.close());

  it("the multilingual mode is inactive until a language is added", async () => {
    const id = await site();
    const r = await t.call("GET", `/api/site/${id}/languages`);
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, {
      success: true,
      site_id: id,
      active: false,
      default_lang: null,
      languages: [],
      warnings: [],
    });
  });

  it("the first language added activates the mode and is the default, without an address prefix", async () => {
    const id = await site();
    recorder.reset();
    const r = await t.call("POST", `/api/site/${id}/languages`, { body: { code: "en" } });
    assert.equal(r.status, 201);
    assert.equal(r.body.created, true);
    assert.equal(r.body.active, true);
    assert.equal(r.body.default_lang, "en");
    assert.deepEqual(r.body.language, { code: "en", name: "English", default: true, prefix: "" });
    assert.ok(r.body.rebaked);
    assert.deepEqual(recorder.changes(), [{ kind: "languages" }, { kind: "settings" }]);
    const back = await t.call("GET", `/api/site/${id}/languages`);
    assert.deepEqual(back.body.languages, [{ code: "en", name: "English", default: true, prefix: "" }]);
  });

  it("a later language has the prefix /<code>/; default: true moves the default and the prefixes with it", async () => {
    const id = await site();
    await addLanguage(t, id, "en");
    const de = await t.call("POST", `/api/site/${id}/languages`, { body: { code: "de", name: "German" } });
    assert.deepEqual(de.body.language, { code: "de", name: "German", default: false, prefix: "/de/" });
    assert.equal(de.body.default_lang, "en");
    const moved = await t.call("POST", `/api/site/${id}/languages`, { body: { code: "pt-br", default: true } });
    assert.equal(moved.body.default_lang, "pt-br");
    assert.deepEqual(
      moved.body.languages.map((l: any) => [l.code, l.default, l.prefix]),
      [
        ["en", false, "/en/"],
        ["de", false, "/de/"],
        ["pt-br", true, ""],
      ],
    );
  });

  it("adding a code the site has renames it or makes it the default: 200 with created false", async () => {
    const id = await site();
    await addLanguage(t, id, "en");
    await addLanguage(t, id, "fr");
    const again = await t.call("POST", `/api/site/${id}/languages`, {
      body: { code: "fr", name: "Français (France)", default: true },
    });
    assert.equal(again.status, 200);
    assert.equal(again.body.created, false);
    assert.deepEqual(again.body.language, { code: "fr", name: "Français (France)", default: true, prefix: "" });
    assert.equal(again.body.languages.length, 2);
  });

  it("a malformed code is 400 invalid_language_code with the pattern; codes are read lower-cased", async () => {
    const id = await site();
    for (const code of ["english", "e", "en_US", "en-", "", 12, null]) {
      const r = await t.call("POST", `/api/site/${id}/languages`, { body: { code } });
      assert.equal(r.status, 400, JSON.stringify(code));
      assert.ok(["invalid_language_code", "invalid_field"].includes(r.body.error), JSON.stringify(r.body));
    }
    const bad = await t.call("POST", `/api/site/${id}/languages`, { body: { code: "english" } });
    assert.equal(bad.body.error, "invalid_language_code");
    assert.equal(bad.body.pattern, "^[a-z]{2}(-[a-z]{2})?$");
    const upper = await t.call("POST", `/api/site/${id}/languages`, { body: { code: "EN-GB" } });
    assert.equal(upper.body.language.code, "en-gb");
    assert.equal((await t.call("GET", `/api/site/${id}/languages`)).body.languages.length, 1);
  });

  it("DELETE removes a language: unknown code 400 unknown_language with languages; the default moves; the last one deactivates", async () => {
    const id = await site();
    const inactive = await t.call("DELETE", `/api/site/${id}/languages/en`);
    assert.equal(inactive.status, 409);
    assert.equal(inactive.body.error, "multilang_inactive");
    await addLanguage(t, id, "en");
    await addLanguage(t, id, "de");
    const unknown = await t.call("DELETE", `/api/site/${id}/languages/fr`);
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.error, "unknown_language");
    assert.deepEqual(unknown.body.languages, ["en", "de"]);
    recorder.reset();
    const gone = await t.call("DELETE", `/api/site/${id}/languages/en`);
    assert.equal(gone.status, 200);
    assert.deepEqual(gone.body.deleted, { code: "en", name: "English" });
    assert.equal(gone.body.default_lang, "de");
    assert.deepEqual(gone.body.languages, [{ code: "de", name: "Deutsch", default: true, prefix: "" }]);
    assert.deepEqual(recorder.changes(), [{ kind: "languages" }, { kind: "settings" }]);
    const last = await t.call("DELETE", `/api/site/${id}/languages/de`);
    assert.equal(last.body.active, false);
    assert.deepEqual(last.body.languages, []);
  });

  it("removing a language keeps its pages and says so", async () => {
    const id = await site();
    await addLanguage(t, id, "en");
    await addLanguage(t, id, "de");
    const page = await publish(t, id, { title: "Hallo", lang: "de" });
    const r = await t.call("DELETE", `/api/site/${id}/languages/de`);
    assert.deepEqual(
      r.body.warnings.map((w: any) => [w.code, w.pages]),
      [["language_has_pages", 1]],
    );
    const back = await t.call("GET", `/api/site/${id}/pages/${page.page.id}`);
    assert.equal(back.body.page.lang, "de");
  });

  it("one shared lang check: 409 multilang_inactive for any lang while inactive, 400 unknown_language with languages for an unknown code", async () => {
    const id = await site();
    const calls: Array<[string, string, Record<string, unknown>]> = [
      ["GET", `/api/site/${id}/pages`, { query: { lang: "en" } }],
      ["POST", `/api/site/${id}/pages`, { body: { title: "X", lang: "en" } }],
      ["PUT", `/api/site/${id}/data/team`, { body: { items: [], lang: "en" } }],
      ["GET", `/api/site/${id}/data/site`, { query: { lang: "en" } }],
    ];
    for (const [method, url, options] of calls) {
      const r = await t.call(method, url, options);
      assert.equal(r.status, 409, `${method} ${url}`);
      assert.equal(r.body.error, "multilang_inactive");
    }
    await addLanguage(t, id, "en");
    for (const [method, url, options] of calls) {
      const withFr = JSON.parse(JSON.stringify(options).replace('"en"', '"fr"'));
      const r = await t.call(method, url, withFr);
      assert.equal(r.status, 400, `${method} ${url}`);
      assert.equal(r.body.error, "unknown_language");
      assert.deepEqual(r.body.languages, ["en"]);
    }
  });

  it("checkLang answers null for no lang, the code for a known one, and the catalogued refusals otherwise", async () => {
    const id = await site();
    const db = t.store.db;
    assert.equal(await checkLang(db, id, undefined), null);
    assert.equal(await checkLang(db, id, ""), null);
    await assert.rejects(
      checkLang(db, id, "en"),
      (e: unknown) => e instanceof ServiceError && e.code === "multilang_inactive" && statusOf(e.code) === 409,
    );
    await addLanguage(t, id, "en");
    assert.equal(await checkLang(db, id, "EN"), "en");
    await assert.rejects(
      checkLang(db, id, "de"),
      (e: unknown) =>
        e instanceof ServiceError && e.code === "unknown_language" && (e.details.languages as string[])[0] === "en",
    );
    await assert.rejects(
      checkLang(db, id, "deutsch"),
      (e: unknown) => e instanceof ServiceError && e.code === "invalid_language_code",
    );
  });
});
