// What `svc/seo` prints in a page's <head> (docs/seo.md), read back from the public site
// with htmlparser2: one title (the template applied), the description (the page's, else the
// site's), one canonical (the page's own absolute address by default; `/` for the home page),
// hreflang alternates of published translations pointing at each other with x-default, Open
// Graph and Twitter tags, robots noindex, and JSON-LD; every value escaped.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import sharp from "sharp";
import { uploadRaw } from "../media/upload-helpers.ts";
import type { TestApp } from "../support/app.ts";
import { alternates, canonical, headOf, jsonLd, meta } from "./head-parse.ts";
import { ok, seoSite, startTestApp, type SeoSite } from "./helpers.ts";

const LAYOUT =
  '<!DOCTYPE html><html><head><!-- svc/seo /--></head><body><h1 data-op-bind=\'{"text": "page.title"}\'></h1></body></html>';

describe("SEO: svc/seo head tags on the public site", () => {
  let t: TestApp;
  let site: SeoSite;
  let about: number;
  let ueber: number;
  let team: number;
  let home: number;

  before(async () => {
    t = await startTestApp();
    site = await seoSite(t, { languages: true });
    await site.frame("layout", LAYOUT);
    home = await site.page("Home", "layout", { lang: "en", slug: "home" });
    ok(
      await site.api("POST", "/pages/language", { page: home, lang: "de", title: "Startseite", slug: "start" }),
      "home de",
      201,
    );
    ok(await site.api("PATCH", "/settings", { home_page: home }), "home_page");
    about = await site.page("About", "layout", { lang: "en", slug: "about", seo: { description: "Who we are" } });
    ueber = ok(
      await site.api("POST", "/pages/language", { page: about, lang: "de", title: "Über uns" }),
      "about de",
      201,
    ).page.id;
    team = await site.page("Team", "layout", { lang: "en", parent: about });
    ok(
      await site.api("PATCH", "/seo", {
        description: "Acme makes things.",
        twitter_site: "@acme",
        title_template: "%s | Acme",
      }),
      "site SEO",
    );
  });
  after(() => t.close());

  it("a page prints one title with the template applied, its own description, one canonical (its own absolute address), Open Graph and Twitter tags; it renders on request", async () => {
    const page = await site.visit("/about/");
    assert.equal(page.status, 200);
    assert.equal(page.headers["x-svc-printed"], "on_request");
    const head = headOf(page.text);
    assert.deepEqual(head.titles, ["About | Acme"]);
    assert.deepEqual(meta(head, "description"), ["Who we are"]);
    assert.deepEqual(canonical(head), [`${site.origin}/about/`]);
    assert.deepEqual(meta(head, "og:title"), ["About | Acme"]);
    assert.deepEqual(meta(head, "og:type"), ["article"]);
    assert.deepEqual(meta(head, "og:url"), [`${site.origin}/about/`]);
    assert.deepEqual(meta(head, "twitter:card"), ["summary"]);
    assert.deepEqual(meta(head, "twitter:site"), ["@acme"]);
    assert.deepEqual(meta(head, "robots"), [], "indexed");
  });

  it("a page and its translation name each other with hreflang (itself included) and x-default, the default language's version", async () => {
    const en = headOf((await site.visit("/about/")).text);
    const de = headOf((await site.visit("/de/ueber-uns/")).text);
    const expected = [
      ["en", `${site.origin}/about/`],
      ["de", `${site.origin}/de/ueber-uns/`],
      ["x-default", `${site.origin}/about/`],
    ];
    assert.deepEqual(alternates(en), expected);
    assert.deepEqual(alternates(de), expected);
    assert.deepEqual(canonical(de), [`${site.origin}/de/ueber-uns/`]);
    assert.deepEqual(meta(de, "description"), ["Acme makes things."], "no description of its own: the site's");
    assert.deepEqual(meta(de, "og:locale"), ["de"]);
  });

  it("an unpublished translation is no alternate, and comes back once published", async () => {
    ok(await site.api("PATCH", `/pages/${ueber}`, { status: "draft" }), "draft");
    assert.deepEqual(alternates(headOf((await site.visit("/about/")).text)), [
      ["en", `${site.origin}/about/`],
      ["x-default", `${site.origin}/about/`],
    ]);
    ok(await site.api("PATCH", `/pages/${ueber}`, { status: "publish" }), "publish");
    assert.equal(alternates(headOf((await site.visit("/about/")).text)).length, 3);
  });

  it("the home page: canonical and og:url at / (its translation at /de/), og:type website, JSON-LD WebSite; other pages a BreadcrumbList naming each ancestor and the page", async () => {
    const head = headOf((await site.visit("/")).text);
    assert.deepEqual(canonical(head), [`${site.origin}/`]);
    assert.deepEqual(meta(head, "og:type"), ["website"]);
    assert.deepEqual(alternates(head), [
      ["en", `${site.origin}/`],
      ["de", `${site.origin}/de/`],
      ["x-default", `${site.origin}/`],
    ]);
    assert.deepEqual(jsonLd(head), [
      {
        "@context": "https://schema.org",
        "@type": "WebSite",
        name: site.name,
        url: `${site.origin}/`,
        inLanguage: "en",
      },
    ]);
    assert.deepEqual(canonical(headOf((await site.visit("/de/")).text)), [`${site.origin}/de/`]);
    const crumbs = jsonLd(headOf((await site.visit("/about/team/")).text));
    assert.deepEqual(crumbs, [
      {
        "@context": "https://schema.org",
        "@type": "BreadcrumbList",
        itemListElement: [
          { "@type": "ListItem", position: 1, name: "About", item: `${site.origin}/about/` },
          { "@type": "ListItem", position: 2, name: "Team", item: `${site.origin}/about/team/` },
        ],
      },
    ]);
  });

  it("page fields win over the defaults: SEO title, canonical path printed absolute on the site's domain, an absolute canonical kept, noindex from the page or the whole site", async () => {
    ok(
      await site.api("PATCH", `/seo/pages/${team}`, { title: "Our people", canonical: "/about/", noindex: true }),
      "page SEO",
    );
    let head = headOf((await site.visit("/about/team/")).text);
    assert.deepEqual(head.titles, ["Our people | Acme"]);
    assert.deepEqual(canonical(head), [`${site.origin}/about/`]);
    assert.deepEqual(meta(head, "robots"), ["noindex"]);
    ok(
      await site.api("PATCH", `/seo/pages/${team}`, { canonical: "https://elsewhere.example/people", noindex: null }),
      "absolute canonical",
    );
    head = headOf((await site.visit("/about/team/")).text);
    assert.deepEqual(canonical(head), ["https://elsewhere.example/people"]);
    assert.deepEqual(meta(head, "robots"), []);
    ok(await site.api("PATCH", "/seo", { noindex: true }), "site noindex");
    assert.deepEqual(meta(headOf((await site.visit("/about/team/")).text), "robots"), ["noindex"]);
    ok(await site.api("PATCH", "/seo", { noindex: false }), "site indexed again");
  });

  it("a title holding </title><script> is text everywhere it appears: the title, og:title, the JSON-LD (whose text escapes <) and the page body; no script element but the JSON-LD", async () => {
    const evil = `Evil </title><script>window.__pwned=1</script> & "quotes"`;
    await site.page(evil, "layout", { lang: "en", slug: "evil", parent: about });
    const page = await site.visit("/about/evil/");
    const head = headOf(page.text);
    assert.deepEqual(head.titles, [`${evil} | Acme`]);
    assert.deepEqual(meta(head, "og:title"), [`${evil} | Acme`]);
    assert.deepEqual(
      head.scripts.map((s) => s.type),
      ["application/ld+json"],
      "the only script element is the JSON-LD",
    );
    assert.equal(jsonLd(head)[0].itemListElement[1].name, evil);
    assert.ok(!page.text.includes("<script>window.__pwned"), "the title never appears as markup");
    assert.ok(
      !/<\/script><script>/.test(page.text.slice(page.text.indexOf("application/ld+json"))),
      "the JSON-LD text holds no </script>",
    );
  });

  it("og:image is the page's image, else the site's, as an absolute address on the site's domain (twitter:card summary_large_image); a new file's bytes reach the next request", async () => {
    const png = (shade: string) =>
      sharp({ create: { width: 40, height: 20, channels: 3, background: shade } })
        .png()
        .toBuffer();
    const siteImage = ok(
      await uploadRaw(t, site.id, await png("#102030"), { filename: "share.png", type: "image/png" }),
      "site image",
      201,
    ).media;
    const pageImage = ok(
      await uploadRaw(t, site.id, await png("#405060"), { filename: "about-share.png", type: "image/png" }),
      "page image",
      201,
    ).media;
    ok(await site.api("PATCH", "/seo", { og_image: siteImage.slug }), "site og_image");
    let head = headOf((await site.visit("/de/ueber-uns/")).text);
    assert.deepEqual(meta(head, "og:image"), [`${site.origin}${siteImage.url}`]);
    assert.deepEqual(meta(head, "twitter:card"), ["summary_large_image"]);
    ok(await site.api("PATCH", `/seo/pages/${about}`, { og_image: pageImage.id }), "page og_image");
    assert.deepEqual(meta(headOf((await site.visit("/about/")).text), "og:image"), [`${site.origin}${pageImage.url}`]);
    const replaced = ok(
      await uploadRaw(t, site.id, await png("#708090"), {
        method: "PUT",
        path: `/api/site/${site.id}/media/${siteImage.id}`,
        filename: "share.png",
        type: "image/png",
      }),
      "new bytes",
    ).media;
    assert.notEqual(replaced.url, siteImage.url);
    head = headOf((await site.visit("/de/ueber-uns/")).text);
    assert.deepEqual(
      meta(head, "og:image"),
      [`${site.origin}${replaced.url}`],
      "the page printing the site's image shows its new address",
    );
  });

  it("a frame's own bake (no page shown) prints the markers only, and the frame reports source seo and the live reason", async () => {
    const body = ok(
      await site.api("POST", "/frames", { slug: "seo-only", html: "<head><!-- svc/seo /--></head>", dry_run: true }),
      "dry run",
    );
    assert.deepEqual(body.sources, ["page", "seo"]);
    assert.equal(body.renders_on_request, true);
    assert.deepEqual(body.live_reasons, ["insert svc/seo"]);
  });
});
