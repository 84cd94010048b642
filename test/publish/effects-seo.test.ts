// Effect table, SEO (docs/publishing.md, pattern in effects-helpers.ts): the site's SEO
// defaults, a page's own fields, redirects by hand and left by a page's move, the 404 page, the
// home page's own paths, sitemap.xml and robots.txt, and a media file that is the og:image. Each
// group works on a site of its own, so one's sitemap or defaults never meet another's. Frames
// printing `svc/seo` render on request: their answers sit in memory until a write flushes them.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import sharp from "sharp";
import { call } from "../cluster/helpers.ts";
import { bind, effects, gone, ok, processes, redirected, served, suite, type Reply } from "./effects-helpers.ts";

/** The head tags `svc/seo` printed, read back from the HTML. */
function head(html: string) {
  const one = (re: RegExp) => re.exec(html)?.[1];
  const meta = (attr: "name" | "property", key: string) => one(new RegExp(`<meta ${attr}="${key}" content="([^"]*)">`));
  const ld = one(/<script type="application\/ld\+json">(.*?)<\/script>/s);
  return {
    title: one(/<title>(.*?)<\/title>/s),
    description: meta("name", "description"),
    robots: meta("name", "robots"),
    canonical: one(/<link rel="canonical" href="([^"]*)">/),
    alternates: Object.fromEntries(
      [...html.matchAll(/<link rel="alternate" hreflang="([^"]*)" href="([^"]*)">/g)].map((m) => [m[1], m[2]]),
    ),
    ogImage: meta("property", "og:image"),
    ogType: meta("property", "og:type"),
    jsonLd: ld === undefined ? undefined : JSON.parse(ld),
  };
}

/** The <loc>s of a sitemap, in order. */
const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]);

/** The hreflang alternates a sitemap gives one address. */
function sitemapAlternates(xml: string, loc: string): Record<string, string> {
  const entry = [...xml.matchAll(/<url>(.*?)<\/url>/gs)].find((m) => m[1]!.includes(`<loc>${loc}</loc>`))?.[1] ?? "";
  return Object.fromEntries(
    [...entry.matchAll(/<xhtml:link rel="alternate" hreflang="([^"]*)" href="([^"]*)"\/>/g)].map((m) => [m[1], m[2]]),
  );
}

function png(width: number, height: number, colour: { r: number; g: number; b: number }): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: colour } })
    .png()
    .toBuffer();
}

const HEAD = `<!DOCTYPE html><html><head><meta charset="utf-8"><!-- svc/seo /--></head><body><h1 ${bind("text", "page.title")}></h1></body></html>`;

describe(suite("seo"), () => {
  const fx = effects();

  /** Fetched twice through the reading process, whatever it answers (a 301 or a 404 sits in memory too); answers the second. */
  async function twice(path: string, host: string): Promise<Reply> {
    await fx.visit(path, host);
    return fx.visit(path, host);
  }

  /** A site of its own on `<name>.localhost` with the frame `head` (printing svc/seo); answers its id, host and origin. */
  async function seoSite(name: string, languages = false): Promise<{ site: number; host: string; origin: string }> {
    const host = `${name}.localhost`;
    const site = await fx.site(`Site ${name}`, host);
    if (languages)
      for (const code of ["en", "de"]) ok(await fx.api("POST", "/languages", { code }, site), `language ${code}`, 201);
    await fx.frame("head", HEAD, site);
    const home = ok(await fx.api("GET", `/api/sites/${site}`), "site").site.home_url as string;
    return { site, host, origin: home.replace(/\/$/, "") };
  }

  it("PATCH /seo: pages printing svc/seo print the new title, description and robots noindex; robots.txt and sitemap.xml follow; robots_extra alone leaves the pages in memory", async () => {
    const { site, host, origin } = await seoSite("ex-defaults");
    await fx.page("ex-d-page", "head", { title: "Widgets" }, site);
    const before = head((await fx.primed("/ex-d-page/", host)).text);
    assert.equal(before.title, "Widgets — Site ex-defaults");
    assert.equal(before.description, undefined);
    assert.equal(before.robots, undefined);
    assert.match((await fx.primed("/robots.txt", host)).text, /^Disallow:$/m);
    assert.deepEqual(locs((await fx.primed("/sitemap.xml", host)).text), [`${origin}/ex-d-page/`]);

    ok(
      await fx.api(
        "PATCH",
        "/seo",
        {
          title_template: "%s | Shop",
          description: "Everything for widgets",
          noindex: true,
          robots_extra: "Disallow: /cart/",
        },
        site,
      ),
      "PATCH /seo",
    );
    const after = head(served(await fx.visit("/ex-d-page/", host), "page", "on_request"));
    assert.deepEqual(
      [after.title, after.description, after.robots],
      ["Widgets | Shop", "Everything for widgets", "noindex"],
    );
    const robots = served(await fx.visit("/robots.txt", host), "robots.txt");
    assert.match(robots, /^User-agent: \*\nDisallow: \/$/m);
    assert.match(robots, /^Disallow: \/cart\/$/m);
    gone(await fx.visit("/sitemap.xml", host), "a noindex site has no sitemap (nothing to list)", "no_page");

    for (const path of ["/ex-d-page/", "/robots.txt"]) await fx.primed(path, host);
    await twice("/sitemap.xml", host);
    ok(await fx.api("PATCH", "/seo", { noindex: false }, site), "PATCH /seo noindex false");
    assert.equal(head(served(await fx.visit("/ex-d-page/", host), "page", "on_request")).robots, undefined);
    assert.match(served(await fx.visit("/robots.txt", host), "robots.txt"), /^User-agent: \*\nDisallow:$/m);
    assert.deepEqual(locs(served(await fx.visit("/sitemap.xml", host), "sitemap")), [`${origin}/ex-d-page/`]);

    // robots_extra prints in robots.txt only: the page is not rebaked, and stays in memory (with two processes
    // the reader may drop the whole site's memory when it hears of a flush late: invalidation-marks.ts).
    for (const path of ["/ex-d-page/", "/robots.txt"]) await fx.primed(path, host);
    const extraOnly = ok(
      await fx.api("PATCH", "/seo", { robots_extra: "Disallow: /basket/" }, site),
      "PATCH /seo robots_extra",
    );
    assert.deepEqual([extraOnly.rebaked.frames, extraOnly.rebaked.pages], [[], []], "nothing rebaked");
    const extra = served(await fx.visit("/robots.txt", host), "robots.txt");
    assert.match(extra, /^Disallow: \/basket\/$/m);
    assert.doesNotMatch(extra, /\/cart\//);
    served(await fx.visit("/ex-d-page/", host), "page", processes === 1 ? "cache" : undefined);
  });

  it("PATCH /seo/pages/{ref} and seo in PATCH /pages: the page prints its own title, description, canonical and noindex; the sitemap drops and takes it back; a new page title reaches the breadcrumbs of its descendants", async () => {
    const { site, host, origin } = await seoSite("ex-page-fields");
    const id = await fx.page("ex-f-page", "head", { title: "Gadgets" }, site);
    const kid = await fx.page("ex-f-kid", "head", { title: "Small gadgets", parent: id }, site);
    await fx.page("ex-f-grandkid", "head", { title: "Tiny gadgets", parent: kid }, site);
    assert.equal(head((await fx.primed("/ex-f-page/", host)).text).title, "Gadgets — Site ex-page-fields");
    assert.ok(locs((await fx.primed("/sitemap.xml", host)).text).includes(`${origin}/ex-f-page/`));

    ok(
      await fx.api(
        "PATCH",
        "/seo/pages/ex-f-page",
        { title: "Buy gadgets", description: "Gadgets of every size", noindex: true },
        site,
      ),
      "PATCH /seo/pages",
    );
    const own = head(served(await fx.visit("/ex-f-page/", host), "page", "on_request"));
    assert.deepEqual(
      [own.title, own.description, own.robots, own.canonical],
      ["Buy gadgets — Site ex-page-fields", "Gadgets of every size", "noindex", `${origin}/ex-f-page/`],
    );
    assert.ok(
      !locs(served(await fx.visit("/sitemap.xml", host), "sitemap")).includes(`${origin}/ex-f-page/`),
      "a noindex page is not listed",
    );

    for (const path of ["/ex-f-page/", "/sitemap.xml"]) await fx.primed(path, host);
    ok(
      await fx.api(
        "PATCH",
        `/pages/${id}`,
        { seo: { noindex: null, description: "Gadgets, said through /pages", canonical: "/ex-f-page/?utm=x" } },
        site,
      ),
      "seo in PATCH /pages",
    );
    const through = head(served(await fx.visit("/ex-f-page/", host), "page", "on_request"));
    assert.deepEqual(
      [through.title, through.description, through.robots, through.canonical],
      ["Buy gadgets — Site ex-page-fields", "Gadgets, said through /pages", undefined, `${origin}/ex-f-page/?utm=x`],
    );
    await fx.primed("/ex-f-page/", host);
    ok(await fx.api("PATCH", `/pages/${id}`, { seo: { canonical: null } }, site), "seo canonical restored");
    assert.equal(
      head(served(await fx.visit("/ex-f-page/", host), "page", "on_request")).canonical,
      `${origin}/ex-f-page/`,
    );
    assert.ok(
      locs(served(await fx.visit("/sitemap.xml", host), "sitemap")).includes(`${origin}/ex-f-page/`),
      "listed again",
    );

    // The page's title is a crumb of every descendant's BreadcrumbList (the grandchild reads no `page.parent_title`).
    for (const path of ["/ex-f-page/ex-f-kid/", "/ex-f-page/ex-f-kid/ex-f-grandkid/"]) await fx.primed(path, host);
    ok(await fx.api("PATCH", `/pages/${id}`, { title: "Gizmos" }, site), "PATCH title");
    const crumbs = (html: string) => head(html).jsonLd.itemListElement.map((item: { name: string }) => item.name);
    assert.deepEqual(crumbs(served(await fx.visit("/ex-f-page/ex-f-kid/", host), "child", "on_request")), [
      "Gizmos",
      "Small gadgets",
    ]);
    assert.deepEqual(
      crumbs(served(await fx.visit("/ex-f-page/ex-f-kid/ex-f-grandkid/", host), "grandchild", "on_request")),
      ["Gizmos", "Small gadgets", "Tiny gadgets"],
    );
  });

  it("POST and DELETE /seo/redirects: the address answers the redirect at once, a replaced one its new target and status, a deleted one 404, one pointing at a new redirect's address goes on to its target; a page created at its address takes it", async () => {
    const { site, host, origin } = await seoSite("ex-redirects");
    await fx.page("ex-r-target", "head", {}, site);
    gone(await twice("/ex-r-promo/", host), "before any redirect");
    const first = ok(
      await fx.api("POST", "/seo/redirects", { from: "/ex-r-promo/", to: "/ex-r-target/" }, site),
      "POST redirect",
      201,
    ).redirect;
    redirected(await fx.visit("/ex-r-promo/", host), "new redirect", "/ex-r-target/");
    redirected(await fx.visit("/ex-r-promo/?ref=mail", host), "query carried", "/ex-r-target/?ref=mail");

    await twice("/ex-r-promo/", host);
    const replaced = ok(
      await fx.api(
        "POST",
        "/seo/redirects",
        { from: "/ex-r-promo/", to: "https://elsewhere.example/sale", status: 302 },
        site,
      ),
      "POST replacing",
      200,
    ).redirect;
    assert.equal(replaced.id, first.id);
    redirected(await fx.visit("/ex-r-promo/", host), "replaced redirect", "https://elsewhere.example/sale", 302);

    await twice("/ex-r-promo/", host);
    ok(await fx.api("DELETE", `/seo/redirects/${first.id}`, undefined, site), "DELETE redirect");
    gone(await fx.visit("/ex-r-promo/", host), "deleted redirect", "no_page");

    // A redirect from the address another one points to: that one goes straight to the new target (no chain).
    ok(
      await fx.api("POST", "/seo/redirects", { from: "/ex-r-oldest/", to: "/ex-r-old/" }, site),
      "POST first link",
      201,
    );
    redirected(await twice("/ex-r-oldest/", host), "first link", "/ex-r-old/");
    ok(
      await fx.api("POST", "/seo/redirects", { from: "/ex-r-old/", to: "/ex-r-target/" }, site),
      "POST second link",
      201,
    );
    redirected(await fx.visit("/ex-r-oldest/", host), "collapsed", "/ex-r-target/");
    redirected(await fx.visit("/ex-r-old/", host), "second link", "/ex-r-target/");
    for (const redirect of ok(await fx.api("GET", "/seo/redirects", undefined, site), "GET redirects").redirects)
      ok(await fx.api("DELETE", `/seo/redirects/${redirect.id}`, undefined, site), "DELETE");

    // A page created where a redirect stands is served there (a redirect never shadows a live page).
    ok(
      await fx.api("POST", "/seo/redirects", { from: "/ex-r-later/", to: "/ex-r-target/" }, site),
      "POST redirect",
      201,
    );
    redirected(await twice("/ex-r-later/", host), "redirect before the page", "/ex-r-target/");
    await fx.page("ex-r-later", "head", { title: "Later" }, site);
    assert.equal(
      head(served(await fx.visit("/ex-r-later/", host), "page at the redirect's address", "on_request")).canonical,
      `${origin}/ex-r-later/`,
    );
    assert.deepEqual(ok(await fx.api("GET", "/seo/redirects", undefined, site), "GET redirects").redirects, []);
  });

  it("PATCH /pages slug or parent: the old addresses answer 301 to the newest (no chain), a move back serves the page again; translations' hreflang and the sitemap follow", async () => {
    const { site, host, origin } = await seoSite("ex-moves", true);
    const en = await fx.page("ex-m-offer", "head", { lang: "en", title: "Offer" }, site);
    ok(
      await fx.api("POST", "/pages/language", { page: en, lang: "de", title: "Angebot", slug: "ex-m-angebot" }, site),
      "translation",
      201,
    );
    assert.equal(head((await fx.primed("/de/ex-m-angebot/", host)).text).alternates.en, `${origin}/ex-m-offer/`);
    for (const path of ["/ex-m-offer/", "/sitemap.xml"]) await fx.primed(path, host);

    ok(await fx.api("PATCH", `/pages/${en}`, { slug: "ex-m-deal" }, site), "PATCH slug");
    redirected(await fx.visit("/ex-m-offer/", host), "old address", "/ex-m-deal/");
    assert.equal(
      head(served(await fx.visit("/ex-m-deal/", host), "new address", "on_request")).canonical,
      `${origin}/ex-m-deal/`,
    );
    assert.deepEqual(head(served(await fx.visit("/de/ex-m-angebot/", host), "translation", "on_request")).alternates, {
      en: `${origin}/ex-m-deal/`,
      de: `${origin}/de/ex-m-angebot/`,
      "x-default": `${origin}/ex-m-deal/`,
    });
    const sitemap = served(await fx.visit("/sitemap.xml", host), "sitemap");
    assert.ok(
      locs(sitemap).includes(`${origin}/ex-m-deal/`) && !locs(sitemap).includes(`${origin}/ex-m-offer/`),
      locs(sitemap).join(" "),
    );
    assert.deepEqual(sitemapAlternates(sitemap, `${origin}/de/ex-m-angebot/`), {
      en: `${origin}/ex-m-deal/`,
      de: `${origin}/de/ex-m-angebot/`,
    });

    // A second move: both former addresses go straight to the newest.
    for (const path of ["/ex-m-offer/", "/ex-m-deal/"]) await twice(path, host);
    ok(await fx.api("PATCH", `/pages/${en}`, { slug: "ex-m-bargain" }, site), "PATCH slug again");
    redirected(await fx.visit("/ex-m-offer/", host), "first address", "/ex-m-bargain/");
    redirected(await fx.visit("/ex-m-deal/", host), "second address", "/ex-m-bargain/");

    // Moved back: the first address serves the page, the others send there.
    for (const path of ["/ex-m-offer/", "/ex-m-deal/", "/ex-m-bargain/"]) await twice(path, host);
    ok(await fx.api("PATCH", `/pages/${en}`, { slug: "ex-m-offer" }, site), "PATCH slug back");
    served(await fx.visit("/ex-m-offer/", host), "back at the first address", "on_request");
    redirected(await fx.visit("/ex-m-deal/", host), "second address", "/ex-m-offer/");
    redirected(await fx.visit("/ex-m-bargain/", host), "third address", "/ex-m-offer/");

    // A new parent: the page and its descendants answer 301 from their old addresses; the crumbs name the new parent.
    const from = await fx.page("ex-m-from", "head", { lang: "en" }, site);
    const to = await fx.page("ex-m-to", "head", { lang: "en", title: "Destination" }, site);
    const mover = await fx.page("ex-m-mover", "head", { lang: "en", parent: from }, site);
    await fx.page("ex-m-kid", "head", { lang: "en", parent: mover }, site);
    for (const path of ["/ex-m-from/ex-m-mover/", "/ex-m-from/ex-m-mover/ex-m-kid/"]) await fx.primed(path, host);
    ok(await fx.api("PATCH", `/pages/${mover}`, { parent: to }, site), "PATCH parent");
    redirected(await fx.visit("/ex-m-from/ex-m-mover/", host), "old address", "/ex-m-to/ex-m-mover/");
    redirected(
      await fx.visit("/ex-m-from/ex-m-mover/ex-m-kid/", host),
      "old descendant address",
      "/ex-m-to/ex-m-mover/ex-m-kid/",
    );
    const kid = head(served(await fx.visit("/ex-m-to/ex-m-mover/ex-m-kid/", host), "descendant", "on_request"));
    assert.deepEqual(
      kid.jsonLd.itemListElement.map((item: { item: string }) => item.item),
      [`${origin}/ex-m-to/`, `${origin}/ex-m-to/ex-m-mover/`, `${origin}/ex-m-to/ex-m-mover/ex-m-kid/`],
    );
  });

  it("PATCH /settings not_found_page: an unknown address answers that page with status 404, in its language; moved, edited, cleared, the next 404 follows", async () => {
    const { site, host } = await seoSite("ex-missing", true);
    const lost = await fx.page("ex-n-lost", "head", { lang: "en", title: "Lost" }, site);
    ok(
      await fx.api(
        "POST",
        "/pages/language",
        { page: lost, lang: "de", title: "Verloren", slug: "ex-n-verloren" },
        site,
      ),
      "translation",
      201,
    );
    const missing = await fx.page("ex-n-missing", "head", { lang: "en", title: "Missing" }, site);
    const title = (reply: Reply, what: string) => {
      gone(reply, what, "no_page");
      return head(reply.text).title;
    };
    assert.equal(title(await twice("/ex-n-nowhere/", host), "plain 404"), "Not found");
    ok(await fx.api("PATCH", "/settings", { not_found_page: lost }, site), "not_found_page set");
    assert.equal(title(await fx.visit("/ex-n-nowhere/", host), "404 page"), "Lost — Site ex-missing");
    assert.equal(title(await fx.visit("/de/ex-n-nirgends/", host), "German 404 page"), "Verloren — Site ex-missing");

    for (const path of ["/ex-n-nowhere/", "/de/ex-n-nirgends/"]) await twice(path, host);
    ok(await fx.api("PATCH", "/settings", { not_found_page: missing }, site), "not_found_page moved");
    assert.equal(title(await fx.visit("/ex-n-nowhere/", host), "moved 404 page"), "Missing — Site ex-missing");
    assert.equal(
      title(await fx.visit("/de/ex-n-nirgends/", host), "moved 404 page in German"),
      "Missing — Site ex-missing",
      "no German translation: the page itself",
    );

    await twice("/ex-n-nowhere/", host);
    ok(await fx.api("PATCH", `/pages/${missing}`, { title: "Still missing" }, site), "404 page retitled");
    assert.equal(title(await fx.visit("/ex-n-nowhere/", host), "edited 404 page"), "Still missing — Site ex-missing");

    await twice("/ex-n-nowhere/", host);
    ok(await fx.api("PATCH", "/settings", { not_found_page: null }, site), "not_found_page cleared");
    assert.equal(title(await fx.visit("/ex-n-nowhere/", host), "plain 404 again"), "Not found");
  });

  it("PATCH /settings home_page: / and /<lang>/ answer the new home page, whose own paths answer 301 there; the former one answers at its own paths again", async () => {
    const { site, host, origin } = await seoSite("ex-homes", true);
    const a = await fx.page("ex-h-alpha", "head", { lang: "en", title: "Alpha" }, site);
    const b = await fx.page("ex-h-beta", "head", { lang: "en", title: "Beta" }, site);
    ok(
      await fx.api("POST", "/pages/language", { page: a, lang: "de", title: "Alfa", slug: "ex-h-alfa" }, site),
      "translation of alpha",
      201,
    );
    ok(
      await fx.api("POST", "/pages/language", { page: b, lang: "de", title: "Bett", slug: "ex-h-bett" }, site),
      "translation of beta",
      201,
    );
    ok(await fx.api("PATCH", "/settings", { home_page: a }, site), "home_page alpha");
    assert.equal(head((await fx.primed("/", host)).text).canonical, `${origin}/`);
    assert.equal(head((await fx.primed("/de/", host)).text).canonical, `${origin}/de/`);
    redirected(await twice("/ex-h-alpha/", host), "alpha's own path", "/");
    redirected(await twice("/de/ex-h-alfa/", host), "alfa's own path", "/de/");
    assert.equal(head((await fx.primed("/ex-h-beta/", host)).text).canonical, `${origin}/ex-h-beta/`);
    await fx.primed("/de/ex-h-bett/", host);
    await fx.primed("/sitemap.xml", host);

    ok(await fx.api("PATCH", "/settings", { home_page: b }, site), "home_page beta");
    const home = head(served(await fx.visit("/", host), "/", "on_request"));
    assert.deepEqual(
      [home.title, home.canonical, home.ogType, home.jsonLd["@type"]],
      ["Beta — Site ex-homes", `${origin}/`, "website", "WebSite"],
    );
    assert.deepEqual(home.alternates, { en: `${origin}/`, de: `${origin}/de/`, "x-default": `${origin}/` });
    assert.equal(head(served(await fx.visit("/de/", host), "/de/", "on_request")).title, "Bett — Site ex-homes");
    redirected(await fx.visit("/ex-h-beta/", host), "beta's own path", "/");
    redirected(await fx.visit("/de/ex-h-bett/", host), "bett's own path", "/de/");
    const alpha = head(served(await fx.visit("/ex-h-alpha/", host), "alpha's own path", "on_request"));
    assert.deepEqual(
      [alpha.title, alpha.canonical, alpha.ogType],
      ["Alpha — Site ex-homes", `${origin}/ex-h-alpha/`, "article"],
    );
    assert.equal(
      head(served(await fx.visit("/de/ex-h-alfa/", host), "alfa's own path", "on_request")).canonical,
      `${origin}/de/ex-h-alfa/`,
    );
    const listed = locs(served(await fx.visit("/sitemap.xml", host), "sitemap"));
    assert.deepEqual(
      [...listed].sort(),
      [`${origin}/`, `${origin}/de/`, `${origin}/de/ex-h-alfa/`, `${origin}/ex-h-alpha/`].sort(),
    );
  });

  it("sitemap.xml and robots.txt after page, language and site writes: a new page, a draft, a translation, a trashed page, a new domain", async () => {
    const { site, host, origin } = await seoSite("ex-sitemap", true);
    const sitemap = async () => served(await fx.visit("/sitemap.xml", host), "sitemap");
    const a = await fx.page("ex-s-first", "head", { lang: "en" }, site);
    assert.deepEqual(locs((await fx.primed("/sitemap.xml", host)).text), [`${origin}/ex-s-first/`]);

    const b = await fx.page("ex-s-second", "head", { lang: "en" }, site);
    assert.deepEqual(locs(await sitemap()), [`${origin}/ex-s-first/`, `${origin}/ex-s-second/`], "a new page");

    await fx.primed("/sitemap.xml", host);
    ok(await fx.api("PATCH", `/pages/${b}`, { status: "draft" }, site), "draft");
    assert.deepEqual(locs(await sitemap()), [`${origin}/ex-s-first/`], "a draft");

    await fx.primed("/sitemap.xml", host);
    const de = ok(
      await fx.api("POST", "/pages/language", { page: a, lang: "de", slug: "ex-s-erste" }, site),
      "translation",
      201,
    ).page.id;
    const xml = await sitemap();
    assert.deepEqual(locs(xml), [`${origin}/ex-s-first/`, `${origin}/de/ex-s-erste/`], "a translation");
    assert.deepEqual(sitemapAlternates(xml, `${origin}/ex-s-first/`), {
      en: `${origin}/ex-s-first/`,
      de: `${origin}/de/ex-s-erste/`,
    });

    await fx.primed("/sitemap.xml", host);
    ok(await fx.api("DELETE", `/pages/${de}`, undefined, site), "trash");
    const trashed = await sitemap();
    assert.deepEqual(locs(trashed), [`${origin}/ex-s-first/`], "a trashed translation");
    assert.deepEqual(sitemapAlternates(trashed, `${origin}/ex-s-first/`), { en: `${origin}/ex-s-first/` });

    // A new primary domain: every absolute address moves, robots.txt names the new sitemap.
    for (const path of ["/sitemap.xml", "/robots.txt"]) await fx.primed(path, host);
    const newHost = "ex-sitemap-moved.localhost";
    ok(await fx.api("PATCH", `/api/sites/${site}`, { domain: newHost }), "PATCH domain");
    const newOrigin = origin.replace(host, newHost);
    assert.deepEqual(locs(served(await fx.visit("/sitemap.xml", newHost), "sitemap on the new domain")), [
      `${newOrigin}/ex-s-first/`,
    ]);
    assert.match(
      served(await fx.visit("/robots.txt", newHost), "robots.txt on the new domain"),
      new RegExp(`^Sitemap: ${newOrigin.replace(/\./g, "\\.")}/sitemap\\.xml$`, "m"),
    );
  });

  it("PUT /media/{ref} of the site's or a page's og:image: pages printing svc/seo print the new address; deleted, no og:image", async () => {
    const { site, host, origin } = await seoSite("ex-images");
    const upload = async (name: string, bytes: Buffer, method = "POST", path = `/media?filename=${name}.png`) => {
      const reply = await call(fx.cluster.processes[0].port, method, `/api/site/${site}${path}`, {
        token: fx.cluster.token,
        payload: bytes,
        headers: { "content-type": "image/png" },
      });
      return ok(reply, `${method} ${name}`, method === "POST" ? 201 : 200).media;
    };
    const shared = await upload("ex-i-shared", await png(1200, 630, { r: 10, g: 20, b: 30 }));
    const own = await upload("ex-i-own", await png(1200, 630, { r: 200, g: 20, b: 30 }));
    ok(await fx.api("PATCH", "/seo", { og_image: "ex-i-shared" }, site), "site og_image");
    await fx.page("ex-i-plain", "head", {}, site);
    await fx.page("ex-i-pictured", "head", { seo: { og_image: own.id } }, site);
    assert.equal(head((await fx.primed("/ex-i-plain/", host)).text).ogImage, `${origin}${shared.url}`);
    assert.equal(head((await fx.primed("/ex-i-pictured/", host)).text).ogImage, `${origin}${own.url}`);

    const sharedAnew = await upload(
      "ex-i-shared",
      await png(1200, 630, { r: 0, g: 120, b: 0 }),
      "PUT",
      "/media/ex-i-shared?filename=ex-i-shared.png",
    );
    assert.notEqual(sharedAnew.url, shared.url);
    assert.equal(
      head(served(await fx.visit("/ex-i-plain/", host), "site's image", "on_request")).ogImage,
      `${origin}${sharedAnew.url}`,
    );

    for (const path of ["/ex-i-plain/", "/ex-i-pictured/"]) await fx.primed(path, host);
    const ownAnew = await upload(
      "ex-i-own",
      await png(1200, 630, { r: 0, g: 0, b: 220 }),
      "PUT",
      `/media/${own.id}?filename=ex-i-own.png`,
    );
    assert.notEqual(ownAnew.url, own.url);
    assert.equal(
      head(served(await fx.visit("/ex-i-pictured/", host), "page's image", "on_request")).ogImage,
      `${origin}${ownAnew.url}`,
    );

    for (const path of ["/ex-i-plain/", "/ex-i-pictured/"]) await fx.primed(path, host);
    ok(await fx.api("DELETE", "/media/ex-i-shared?force=1", undefined, site), "DELETE the site's image");
    const plain = head(served(await fx.visit("/ex-i-plain/", host), "site's image deleted", "on_request"));
    assert.equal(plain.ogImage, undefined);
    assert.equal(
      head(served(await fx.visit("/ex-i-pictured/", host), "page's own image")).ogImage,
      `${origin}${ownAnew.url}`,
    );
  });
});
