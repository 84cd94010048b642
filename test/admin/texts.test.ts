// The admin's texts (admin/texts.ts): English and German from one dictionary, German when the
// browser's first language the admin has is German.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { chooseLanguage, textsFor } from "../../admin/texts.ts";

/** What a text's function is given in the check: a moment for `moment`, else a word. */
const argumentOf = (key: string) => (key === "moment" ? new Date(0) : "pages");

describe("the admin's languages", () => {
  it("German when the first of the browser's languages the admin speaks is German, else English", () => {
    assert.equal(chooseLanguage(["de-DE", "en"]), "de");
    assert.equal(chooseLanguage(["fr-FR", "DE-at", "en"]), "de");
    assert.equal(chooseLanguage(["en-GB", "de"]), "en");
    assert.equal(chooseLanguage(["fr", "it"]), "en");
    assert.equal(chooseLanguage([]), "en");
  });

  it("the English names are the ones the admin is driven by; every German text is its own", () => {
    const en = textsFor("en");
    const de = textsFor("de");
    assert.deepEqual([en.login, en.password, en.signIn, en.pages], ["Login", "Password", "Sign in", "Pages"]);
    // The same word in both languages.
    const shared = new Set(["status", "html", "format", "formatMarkdown"]);
    for (const key of Object.keys(en) as Array<keyof typeof en>) {
      const [english, german] = [en[key], de[key]].map((text) =>
        typeof text === "function" ? (text as (value: never) => string)(argumentOf(key) as never) : text,
      );
      assert.ok(german && (german !== english || shared.has(key)), `${key}: "${german}"`);
    }
  });
});
