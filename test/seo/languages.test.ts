// The site's SEO defaults in every language (docs/seo.md, "Site defaults in every language"):
// `PATCH /seo {"description": {"en": …, "de": …}}` writes each language's, a plain value the default
// language's; GET /seo answers the default language's at the top and each language's own under
// `languages`; `svc/seo` prints the page's language's, else the default language's.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import sharp from "sharp";
import { uploadRaw } from "../media/upload-helpers.ts";
import type { TestApp } from "../support/app.ts";
import { headOf, meta } from "./head-parse.ts";
import { ok, seoSite, startTestApp, type SeoSite } from "./helpers.ts";

const LAYOUT = "<!DOCTYPE html><html><head><!-- svc/seo /--></head><body><p>page</p></body></html>";

describe("SEO: site defaults in every language", () => {
  let t: TestApp;
  let site: SeoSite;
  before(async () => {
    t = await startTestApp();
    site = await seoSite(t, { languages: true });
    await site.frame("layout", LAYOUT);
    const about = await site.page("About", "layout", { lang: "en" });
    ok(
      await site.api("POST", "/pages/language", { page: about, lang: "de", title: "Über uns", slug: "ueber-uns" }),
      "translation",
      201,
    );
  });
  after(() => t.close());

  /** The description and title `svc/seo` prints on a public page. */
  async function printed(path: string): Promise<{ description: string[]; title: string[]; image: string[] }> {
    const head = headOf((await site.visit(path)).text);
    return { description: meta(head, "description"), title: head.titles, image: meta(head, "og:image") };
  }

  it("a map writes each language's value; the top level answers the default language's, `languages` each language's own; the pages print their language's", async () => {
    const answer = ok(
      await site.api("PATCH", "/seo", {
        description: { en: "We make things.", de: "Wir machen Dinge." },
        title_template: { de: "%s | Acme DE" },
      }),
      "PATCH per language",
    );
    assert.equal(answer.seo.description, "We make things.");
    assert.equal(answer.seo.title_template, `%s — ${site.name}`);
    assert.deepEqual(answer.seo.languages, {
      en: { title_template: `%s — ${site.name}`, description: "We make things.", og_image: null },
      de: { title_template: "%s | Acme DE", description: "Wir machen Dinge.", og_image: null },
    });
    assert.deepEqual(answer.changed, ["title_template", "description"]);
    assert.deepEqual(ok(await site.api("GET", "/seo"), "GET").seo, answer.seo);
    assert.deepEqual(await printed("/about/"), {
      description: ["We make things."],
      title: [`About — ${site.name}`],
      image: [],
    });
    assert.deepEqual(await printed("/de/ueber-uns/"), {
      description: ["Wir machen Dinge."],
      title: ["Über uns | Acme DE"],
      image: [],
    });
  });

  it("a plain value is the default language's: another language keeps its own; null (or an empty text) in a map makes a language follow the default language's again", async () => {
    ok(await site.api("PATCH", "/seo", { description: "Things, made." }), "plain value");
    assert.deepEqual((await printed("/about/")).description, ["Things, made."]);
    assert.deepEqual((await printed("/de/ueber-uns/")).description, ["Wir machen Dinge."]);
    const followed = ok(
      await site.api("PATCH", "/seo", { description: { de: null }, title_template: { de: "" } }),
      "de follows",
    );
    assert.deepEqual(followed.seo.languages.de, { title_template: null, description: null, og_image: null });
    assert.deepEqual(await printed("/de/ueber-uns/"), {
      description: ["Things, made."],
      title: [`Über uns — ${site.name}`],
      image: [],
    });
    const same = ok(await site.api("PATCH", "/seo", { description: { de: null } }), "nothing new");
    assert.deepEqual(same.changed, [], "nothing changed");
  });

  it("og_image per language: a media file of the site (404 media_not_found naming the language's field)", async () => {
    const png = await sharp({ create: { width: 60, height: 30, channels: 3, background: { r: 1, g: 2, b: 3 } } })
      .png()
      .toBuffer();
    const file = ok(
      await uploadRaw(t, site.id, png, { type: "image/png", filename: "karte.png" }),
      "upload",
      201,
    ).media;
    const missing = await site.api("PATCH", "/seo", { og_image: { de: "no-such-file" } });
    assert.equal(missing.status, 404);
    assert.deepEqual([missing.body.error, missing.body.field], ["media_not_found", "og_image.de"]);
    const written = ok(await site.api("PATCH", "/seo", { og_image: { de: file.id } }), "de image");
    assert.equal(written.seo.og_image, null, "the default language has none");
    assert.equal(written.seo.languages.de.og_image, String(file.id));
    assert.deepEqual((await printed("/de/ueber-uns/")).image, [`${site.origin}${file.url}`]);
    assert.deepEqual((await printed("/about/")).image, []);
    ok(await site.api("PATCH", "/seo", { og_image: { de: null } }), "de image removed");
  });

  it("refusals: a code that is no language code (400 invalid_language_code), one the site does not have (400 unknown_language), a wrong value in a map (400 invalid_field naming it), a map on a site without languages (409 multilang_inactive); nothing is written", async () => {
    const before = ok(await site.api("GET", "/seo"), "before").seo;
    for (const [body, status, code, field] of [
      [{ description: { "EN!": "x" } }, 400, "invalid_language_code", "description.EN!"],
      [{ description: { fr: "x", de: "y" } }, 400, "unknown_language", "description.fr"],
      [{ description: { de: "x".repeat(1001) } }, 400, "invalid_field", "description.de"],
      [{ title_template: { de: "ok", en: 5 } }, 400, "invalid_field", "title_template"],
    ] as const) {
      const refused = await site.api("PATCH", "/seo", body);
      assert.equal(refused.status, status, JSON.stringify(body));
      assert.equal(refused.body.error, code, JSON.stringify(body));
      assert.match(String(refused.body.field), new RegExp(`^${field.replace(/[.!]/g, "\\$&")}`), JSON.stringify(body));
    }
    assert.deepEqual(ok(await site.api("GET", "/seo"), "after").seo, before, "nothing was written");
    const plain = await seoSite(t);
    const inactive = await plain.api("PATCH", "/seo", { description: { en: "x" } });
    assert.equal(inactive.status, 409);
    assert.equal(inactive.body.error, "multilang_inactive");
    assert.deepEqual(ok(await plain.api("PATCH", "/seo", { description: "Only one" }), "plain").seo.languages, {});
  });

  it("a new default language: the pages of every language print what they printed; the new default's values are answered at the top", async () => {
    const other = await seoSite(t, { languages: true });
    await other.frame("layout", LAYOUT);
    await other.page("Home", "layout", { lang: "en", slug: "start" });
    await other.page("Heim", "layout", { lang: "de", slug: "heim" });
    ok(await other.api("PATCH", "/seo", { description: { en: "English words", de: "Deutsche Wörter" } }), "both");
    ok(await other.api("PATCH", "/settings", { default_lang: "de" }), "German default");
    const seo = ok(await other.api("GET", "/seo"), "GET").seo;
    assert.equal(seo.description, "Deutsche Wörter");
    assert.deepEqual(
      [seo.languages.de.description, seo.languages.en.description],
      ["Deutsche Wörter", null],
      "English follows the site's row, which holds the English words",
    );
    assert.deepEqual(meta(headOf((await other.visit("/heim/")).text), "description"), ["Deutsche Wörter"]);
    assert.deepEqual(meta(headOf((await other.visit("/en/start/")).text), "description"), ["English words"]);
  });
});
