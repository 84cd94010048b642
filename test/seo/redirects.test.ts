// Addresses that move (docs/seo.md): a page whose address changes leaves a 301 behind
// (slug, parent with its descendants, language, default language); chains collapse; no record
// points at itself or stands where a live page answers; redirects made by hand answer with their
// status and target; the home page answers at `/` only; a site's own 404 page.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { Answer, TestApp } from "../support/app.ts";
import { ok, seoSite, startTestApp, type SeoSite } from "./helpers.ts";

function redirected(answer: Answer, what: string, location: string, status = 301): void {
  assert.equal(answer.status, status, `${what}: ${answer.status} ${answer.text.slice(0, 200)}`);
  assert.equal(answer.headers.location, location, `${what}: Location`);
}

const autos = async (site: SeoSite) =>
  (
    ok(await site.api("GET", "/seo/redirects"), "redirects").redirects as Array<{
      from: string;
      to: string;
      auto: boolean;
    }>
  ).map((r) => [r.from, r.to, r.auto]);

describe("SEO: addresses that move answer 301", () => {
  let t: TestApp;
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  it("a slug change leaves the old address answering 301 to the new one (query kept), listed as an automatic redirect; a second change leaves no chain", async () => {
    const site = await seoSite(t);
    await site.frame("plain", "<p>plain</p>");
    const id = await site.page("Pricing", "plain");
    assert.equal((await site.visit("/pricing/")).status, 200);
    ok(await site.api("PATCH", `/pages/${id}`, { slug: "plans" }), "first rename");
    redirected(await site.visit("/pricing/"), "old address", "/plans/");
    redirected(await site.visit("/pricing/?ref=ad&x=1"), "old address with a query", "/plans/?ref=ad&x=1");
    assert.equal((await site.visit("/plans/")).status, 200);
    ok(await site.api("PATCH", `/pages/${id}`, { slug: "offers" }), "second rename");
    redirected(await site.visit("/pricing/"), "first address, straight to the newest", "/offers/");
    redirected(await site.visit("/plans/"), "second address", "/offers/");
    assert.deepEqual(await autos(site), [
      ["/plans/", "/offers/", true],
      ["/pricing/", "/offers/", true],
    ]);
  });

  it("a page moved back to an old address answers there again, and no record points at itself", async () => {
    const site = await seoSite(t);
    await site.frame("plain", "<p>plain</p>");
    const id = await site.page("Team", "plain");
    ok(await site.api("PATCH", `/pages/${id}`, { slug: "people" }), "rename");
    ok(await site.api("PATCH", `/pages/${id}`, { slug: "team" }), "rename back");
    assert.equal((await site.visit("/team/")).status, 200);
    redirected(await site.visit("/people/"), "the interim address", "/team/");
    assert.deepEqual(await autos(site), [["/people/", "/team/", true]]);
  });

  it("a parent's new slug moves its descendants: each old address answers 301 to its new one", async () => {
    const site = await seoSite(t);
    await site.frame("plain", "<p>plain</p>");
    const docs = await site.page("Docs", "plain");
    const guide = await site.page("Guide", "plain", { parent: docs });
    await site.page("Install", "plain", { parent: guide });
    ok(await site.api("PATCH", `/pages/${docs}`, { slug: "manual" }), "rename the parent");
    redirected(await site.visit("/docs/guide/install/"), "grandchild", "/manual/guide/install/");
    redirected(await site.visit("/docs/guide/"), "child", "/manual/guide/");
    assert.equal((await site.visit("/manual/guide/install/")).status, 200);
  });

  it("a page created (or published) at an address a redirect stood at is served: the redirect goes", async () => {
    const site = await seoSite(t);
    await site.frame("plain", "<p>plain</p>");
    const id = await site.page("Blog", "plain");
    ok(await site.api("PATCH", `/pages/${id}`, { slug: "news" }), "rename");
    redirected(await site.visit("/blog/"), "redirect", "/news/");
    ok(await site.api("POST", "/seo/redirects", { from: "/events/", to: "/news/" }), "by hand", 201);
    redirected(await site.visit("/events/"), "by hand", "/news/");
    await site.page("Blog", "plain", { slug: "blog" });
    const draft = ok(
      await site.api("POST", "/pages", { title: "Events", slug: "events", status: "draft", frame: "plain" }),
      "draft",
      201,
    ).page.id;
    assert.equal((await site.visit("/blog/")).status, 200, "the new page answers where the redirect was");
    redirected(await site.visit("/events/"), "a draft does not take the address over", "/news/");
    ok(await site.api("PATCH", `/pages/${draft}`, { status: "publish" }), "publish");
    assert.equal((await site.visit("/events/")).status, 200, "published, it does");
    assert.deepEqual(await autos(site), []);
  });

  it("a redirect made by hand answers with its status and target, cached like a page; deleted, the address answers 404 on the next request", async () => {
    const site = await seoSite(t);
    const temporary = ok(
      await site.api("POST", "/seo/redirects", { from: "/sale/", to: "/offers/?season=winter", status: 307 }),
      "307",
      201,
    ).redirect;
    ok(
      await site.api("POST", "/seo/redirects", { from: "/shop/", to: "https://shop.example.com/", status: 302 }),
      "302",
      201,
    );
    redirected(await site.visit("/sale/"), "307", "/offers/?season=winter", 307);
    redirected(await site.visit("/sale/?x=1"), "a target with a query keeps its own", "/offers/?season=winter", 307);
    redirected(await site.visit("/shop/"), "302", "https://shop.example.com/", 302);
    redirected(
      await site.visit("/SALE?x=1"),
      "another spelling answers the redirect at once (one hop), query carried",
      "/offers/?season=winter",
      307,
    );
    assert.equal((await site.visit("/sale/")).headers["cache-control"], "no-cache");
    ok(await site.api("DELETE", `/seo/redirects/${temporary.id}`), "delete");
    assert.equal((await site.visit("/sale/")).status, 404);
  });

  it("a manual redirect to an address that itself redirects goes straight to its target; a page moved later takes every record pointing at it along", async () => {
    const site = await seoSite(t);
    await site.frame("plain", "<p>plain</p>");
    const id = await site.page("Contact", "plain");
    ok(await site.api("POST", "/seo/redirects", { from: "/kontakt/", to: "/contact/" }), "by hand", 201);
    ok(await site.api("PATCH", `/pages/${id}`, { slug: "reach-us" }), "rename");
    redirected(await site.visit("/kontakt/"), "hand-made record followed the page", "/reach-us/");
    ok(
      await site.api("POST", "/seo/redirects", { from: "/write-us/", to: "/contact/" }),
      "to a redirecting address",
      201,
    );
    redirected(await site.visit("/write-us/"), "no chain", "/reach-us/");
  });

  it("a new default language moves addresses: the old default's pages gain their prefix and the new default's lose it; each old address answers 301", async () => {
    const site = await seoSite(t, { languages: true });
    await site.frame("plain", "<p>plain</p>");
    const about = await site.page("About", "plain", { lang: "en", slug: "about" });
    ok(await site.api("POST", "/pages/language", { page: about, lang: "de", title: "Über uns" }), "de", 201);
    ok(await site.api("PATCH", "/settings", { default_lang: "de" }), "default de");
    redirected(await site.visit("/about/"), "English page gained /en/", "/en/about/");
    redirected(await site.visit("/de/ueber-uns/"), "German page lost /de/", "/ueber-uns/");
    assert.equal((await site.visit("/ueber-uns/")).status, 200);
    assert.equal((await site.visit("/en/about/")).status, 200);
  });

  it("a page given another language moves to that language's address", async () => {
    const site = await seoSite(t, { languages: true });
    await site.frame("plain", "<p>plain</p>");
    const id = await site.page("Impressum", "plain", { lang: "en" });
    ok(await site.api("PATCH", `/pages/${id}`, { lang: "de" }), "to German");
    redirected(await site.visit("/impressum/"), "old address", "/de/impressum/");
  });
});

describe("SEO: one address per page, and the site's own 404 page", () => {
  let t: TestApp;
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  it("the home page answers at / only: its own path answers 301 to /, its translation's to /<lang>/; a new home page moves that over on the next request", async () => {
    const site = await seoSite(t, { languages: true });
    await site.frame("plain", "<p>plain</p>");
    const home = await site.page("Home", "plain", { lang: "en", slug: "home" });
    ok(await site.api("POST", "/pages/language", { page: home, lang: "de", title: "Start", slug: "start" }), "de", 201);
    const other = await site.page("Welcome", "plain", { lang: "en" });
    assert.equal((await site.visit("/home/")).status, 200, "no home page yet: an ordinary page");
    ok(await site.api("PATCH", "/settings", { home_page: home }), "home_page");
    redirected(await site.visit("/home/"), "own path", "/");
    redirected(await site.visit("/home/?utm=x"), "own path with a query", "/?utm=x");
    redirected(await site.visit("/de/start/"), "translation's own path", "/de/");
    assert.equal((await site.visit("/")).status, 200);
    assert.equal((await site.visit("/de/")).status, 200);
    const page = ok(await site.api("GET", `/pages/${home}`), "record").page;
    assert.equal(page.url, `${site.origin}/home/`, "the record's url is still its path");
    ok(await site.api("PATCH", "/settings", { home_page: other }), "another home page");
    assert.equal((await site.visit("/home/")).status, 200, "the former home page answers at its path again");
    redirected(await site.visit("/welcome/"), "the new home page's path", "/");
  });

  it("setting not_found_page shows that page with status 404 for unknown addresses, in the language of the address's prefix; cleared, the plain 404; the reason is the same for every cause", async () => {
    const site = await seoSite(t, { languages: true });
    await site.frame("content", '<main data-op-bind=\'{"html": "page.content"}\'></main>');
    const missing = await site.page("Not found", "content", {
      lang: "en",
      slug: "not-found",
      content: "<p>Nothing here</p>",
    });
    ok(
      await site.api("POST", "/pages/language", {
        page: missing,
        lang: "de",
        title: "Nicht gefunden",
        content: "<p>Hier ist nichts</p>",
      }),
      "de",
      201,
    );
    ok(await site.api("POST", "/pages", { title: "Secret", status: "draft", frame: "content" }), "draft", 201);
    const plain = await site.visit("/no-such-page/");
    assert.equal(plain.status, 404);
    assert.match(plain.text, /<h1>Not found<\/h1>/);
    ok(await site.api("PATCH", "/settings", { not_found_page: missing }), "not_found_page");
    assert.equal(ok(await site.api("GET", "/settings"), "settings").settings.not_found_page, missing);
    const en = await site.visit("/no-such-page/");
    assert.equal(en.status, 404);
    assert.match(en.text, /<p>Nothing here<\/p>/);
    assert.equal(en.headers["x-svc-reason"], undefined, "no reason without an administrator's token");
    const draft = await site.visit("/secret/");
    assert.equal(draft.status, 404);
    assert.equal(draft.text, en.text, "a draft answers exactly as an unknown address");
    const de = await site.visit("/de/gibt-es-nicht/");
    assert.equal(de.status, 404);
    assert.match(de.text, /<p>Hier ist nichts<\/p>/);
    ok(await site.api("PATCH", `/pages/${missing}`, { content: "<p>Still nothing</p>" }), "edit the 404 page");
    assert.match(
      (await site.visit("/no-such-page/")).text,
      /<p>Still nothing<\/p>/,
      "an edit of the page reaches the next 404",
    );
    ok(await site.api("PATCH", "/settings", { not_found_page: null }), "cleared");
    assert.match((await site.visit("/no-such-page/")).text, /<h1>Not found<\/h1>/);
    const refused = await site.api("PATCH", "/settings", { not_found_page: "no-such-page" });
    assert.equal(refused.status, 404);
    assert.equal(refused.body.error, "page_not_found");
  });
});
