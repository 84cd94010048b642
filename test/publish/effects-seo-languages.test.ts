// Effect table, SEO in every language (docs/publishing.md, pattern in effects-helpers.ts): the
// site's defaults per language reach the pages of that language, and the site's 404 page carries
// noindex and names no address of its own (no canonical, hreflang nor breadcrumbs), over real sockets.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { alternates, canonical, headOf, jsonLd, meta } from "../seo/head-parse.ts";
import { bind, effects, gone, ok, served, suite } from "./effects-helpers.ts";

const crumbs = `<ol class="crumbs"><!-- svc/repeat {"source": "breadcrumbs"} --><li ${bind("text", "item.title")}></li><!-- /svc/repeat --></ol>`;
const HEAD = `<!DOCTYPE html><html><head><meta charset="utf-8"><!-- svc/seo /--></head><body><h1 ${bind("text", "page.title")}></h1>${crumbs}</body></html>`;

/** The titles the breadcrumbs list printed. */
const crumbTitles = (html: string) =>
  [...(/<ol class="crumbs">(.*?)<\/ol>/s.exec(html)?.[1] ?? "").matchAll(/<li>([^<]*)<\/li>/g)].map((m) => m[1]);

describe(suite("seo in every language"), () => {
  const fx = effects();

  /** A bilingual site of its own (en default, de) with the frame `head`; answers its id, host and origin. */
  async function bilingual(name: string): Promise<{ site: number; host: string; origin: string }> {
    const host = `${name}.localhost`;
    const site = await fx.site(`Site ${name}`, host);
    for (const code of ["en", "de"]) ok(await fx.api("POST", "/languages", { code }, site), `language ${code}`, 201);
    await fx.frame("head", HEAD, site);
    const home = ok(await fx.api("GET", `/api/sites/${site}`), "site").site.home_url as string;
    return { site, host, origin: home.replace(/\/$/, "") };
  }

  it("PATCH /seo per language: the German pages print the German description and title template, the English ones keep theirs; a plain value reaches the pages without their own", async () => {
    const { site, host } = await bilingual("lx-defaults");
    const en = await fx.page("lx-about", "head", { lang: "en", title: "About" }, site);
    ok(
      await fx.api("POST", "/pages/language", { page: en, lang: "de", title: "Über uns", slug: "lx-ueber" }, site),
      "translation",
      201,
    );
    ok(await fx.api("PATCH", "/seo", { description: "Things, made." }, site), "English description");
    const description = async (path: string) => meta(headOf((await fx.primed(path, host)).text), "description");
    assert.deepEqual(await description("/lx-about/"), ["Things, made."]);
    assert.deepEqual(await description("/de/lx-ueber/"), ["Things, made."], "no German one yet: the default's");

    ok(
      await fx.api(
        "PATCH",
        "/seo",
        { description: { de: "Dinge, gemacht." }, title_template: { de: "%s | Firma" } },
        site,
      ),
      "German defaults",
    );
    const german = headOf(served(await fx.visit("/de/lx-ueber/", host), "German page", "on_request"));
    assert.deepEqual([meta(german, "description"), german.titles], [["Dinge, gemacht."], ["Über uns | Firma"]]);
    const english = headOf(served(await fx.visit("/lx-about/", host), "English page"));
    assert.deepEqual([meta(english, "description"), english.titles], [["Things, made."], ["About — Site lx-defaults"]]);

    for (const path of ["/lx-about/", "/de/lx-ueber/"]) await fx.primed(path, host);
    ok(await fx.api("PATCH", "/seo", { description: "Made things." }, site), "a plain value");
    assert.deepEqual(
      meta(headOf(served(await fx.visit("/lx-about/", host), "English page", "on_request")), "description"),
      ["Made things."],
    );
    assert.deepEqual(
      meta(headOf(served(await fx.visit("/de/lx-ueber/", host), "German page")), "description"),
      ["Dinge, gemacht."],
      "German keeps its own",
    );
  });

  it("the site's 404 page: noindex (meta and X-Robots-Tag), no canonical, no og:url, no hreflang, no JSON-LD, no breadcrumbs, in each language; its own address keeps them; a German default reaches the German 404", async () => {
    const { site, host, origin } = await bilingual("lx-missing");
    const section = await fx.page("lx-help", "head", { lang: "en", title: "Help" }, site);
    const lost = await fx.page("lx-lost", "head", { lang: "en", title: "Lost", parent: section }, site);
    ok(
      await fx.api("POST", "/pages/language", { page: lost, lang: "de", title: "Verloren", slug: "lx-verloren" }, site),
      "translation",
      201,
    );
    ok(await fx.api("PATCH", "/settings", { not_found_page: lost }, site), "not_found_page");

    for (const [path, title] of [
      ["/lx-nowhere/", "Lost — Site lx-missing"],
      ["/de/lx-nirgends/", "Verloren — Site lx-missing"],
    ] as const) {
      const reply = await fx.visit(path, host);
      gone(reply, path, "no_page");
      assert.equal(reply.headers["x-robots-tag"], "noindex", path);
      const head = headOf(reply.text);
      assert.deepEqual(head.titles, [title], path);
      assert.deepEqual(meta(head, "robots"), ["noindex"], path);
      assert.deepEqual(
        [canonical(head), meta(head, "og:url"), alternates(head), jsonLd(head)],
        [[], [], [], []],
        `${path}: no address of its own`,
      );
      assert.deepEqual(crumbTitles(reply.text), [], `${path}: no breadcrumbs`);
    }
    // At its own address, the page is a page like any other.
    const own = (await fx.primed("/lx-help/lx-lost/", host)).text;
    assert.deepEqual(canonical(headOf(own)), [`${origin}/lx-help/lx-lost/`]);
    assert.deepEqual(crumbTitles(own), ["Help", "Lost"]);

    await fx.visit("/de/lx-nirgends/", host);
    ok(await fx.api("PATCH", "/seo", { description: { de: "Nicht gefunden." } }, site), "German description");
    const after = await fx.visit("/de/lx-nirgends/", host);
    gone(after, "German 404 after the write", "no_page");
    assert.deepEqual(meta(headOf(after.text), "description"), ["Nicht gefunden."]);
  });
});
