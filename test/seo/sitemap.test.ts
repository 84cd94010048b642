// /sitemap.xml and /robots.txt of each site (docs/seo.md): what the sitemap lists on a bilingual
// site, checked against the sitemaps.org schema with xmllint; that it follows every write on the
// next request; a noindex site; the sitemap index past maxUrls; one site's files on its own domain.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { makeSite, startTestApp, type TestApp } from "../support/app.ts";
import { sitemapXml } from "../../src/seo/sitemap.ts";
import { assertValid, INDEX_XSD, parse, URLSET_XSD, W3C_DATETIME, type Parsed } from "./sitemap-xml.ts";

interface Site {
  id: number;
  domain: string;
  /** `http://<domain>:<port>`, as the API prints the site's addresses. */
  origin: string;
  api(method: string, path: string, body?: unknown): Promise<any>;
  /** POST /pages, published on `frame` unless told otherwise; answers the page record. */
  page(body: Record<string, unknown>): Promise<any>;
  /** POST /pages/language; answers the translation's record. */
  translate(body: Record<string, unknown>): Promise<any>;
  /** A public GET on the site's domain. */
  get(path: string): Promise<{ status: number; type: string; printed: string | undefined; body: string }>;
  /** GET /sitemap.xml: checked 200 application/xml and valid; answers its entries. */
  sitemap(): Promise<Parsed & { xml: string; printed: string | undefined }>;
  /** The <loc>s of /sitemap.xml, sorted. */
  locs(): Promise<string[]>;
}

describe("sitemap.xml and robots.txt", () => {
  let t: TestApp;
  let n = 0;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t?.close());

  /** A new site on its own domain with a frame `layout`; `langs` added in order (the first is the default). */
  async function newSite(langs: string[] = []): Promise<Site> {
    const domain = `seo${++n}.localhost`;
    const id = await makeSite(t, `SEO ${n}`, domain);
    const api = async (method: string, path: string, body?: unknown) => {
      const r = await t.call(method, `/api/site/${id}${path}`, body === undefined ? {} : { body });
      assert.ok(
        r.status === 200 || r.status === 201,
        `${method} ${path} ${JSON.stringify(body)}: ${r.status} ${r.text}`,
      );
      return r.body;
    };
    for (const code of langs) await api("POST", "/languages", { code });
    await api("POST", "/frames", { slug: "layout", html: "<!DOCTYPE html><html><body><p>page</p></body></html>" });
    const get = async (path: string) => {
      const r = await t.app.inject({ method: "GET", url: path, headers: { host: domain } });
      return {
        status: r.statusCode,
        type: String(r.headers["content-type"] ?? ""),
        printed: r.headers["x-svc-printed"] as string | undefined,
        body: r.body,
      };
    };
    const site: Site = {
      id,
      domain,
      origin: `http://${domain}${t.config.port === 80 ? "" : `:${t.config.port}`}`,
      api,
      async page(body) {
        return (await api("POST", "/pages", { status: "publish", frame: "layout", ...body })).page;
      },
      async translate(body) {
        return (await api("POST", "/pages/language", body)).page;
      },
      get,
      async sitemap() {
        const r = await get("/sitemap.xml");
        // A site with nothing to list has no sitemap (the schema wants at least one <url>).
        if (r.status === 404)
          return { root: "none", urls: [], xml: "", printed: r.printed } as unknown as Parsed & {
            xml: string;
            printed: string | undefined;
          };
        assert.equal(r.status, 200, `/sitemap.xml on ${domain}: ${r.status} ${r.body.slice(0, 300)}`);
        assert.match(r.type, /^application\/xml(;|$)/, "/sitemap.xml is application/xml");
        const parsed = parse(r.body);
        assert.equal(parsed.root, "urlset");
        assert.ok(parsed.urls.length > 0, "a sitemap answered lists at least one address");
        assertValid(r.body, URLSET_XSD, `/sitemap.xml of ${domain}`);
        return { ...parsed, xml: r.body, printed: r.printed };
      },
      async locs() {
        return (await site.sitemap()).urls.map((url) => url.loc).sort();
      },
    };
    return site;
  }

  describe("a bilingual site (en default, de) with a home page", () => {
    let site: Site;
    const pages: Record<string, any> = {};
    before(async () => {
      site = await newSite(["en", "de"]);
      pages.home = await site.page({ title: "Home", lang: "en" });
      pages.homeDe = await site.translate({ page: pages.home.id, lang: "de", title: "Startseite" });
      await site.api("PATCH", "/settings", { home_page: pages.home.id });
      pages.about = await site.page({ title: "About", lang: "en" });
      pages.aboutDe = await site.translate({ page: pages.about.id, lang: "de", title: "Über uns" });
      pages.team = await site.page({ title: "Team", lang: "en" });
      pages.contact = await site.page({ title: "Contact", lang: "en" });
      pages.contactDe = await site.translate({ page: pages.contact.id, lang: "de", title: "Kontakt", status: "draft" });
      pages.products = await site.page({ title: "Products", lang: "en" });
      pages.shoes = await site.page({ title: "Shoes", lang: "en", parent: pages.products.id });
      pages.shoesDe = await site.translate({ page: pages.shoes.id, lang: "de", title: "Schuhe" });
      pages.draft = await site.page({ title: "Draft", lang: "en", status: "draft" });
      pages.trashed = await site.page({ title: "Trashed", lang: "en" });
      await site.api("PATCH", `/pages/${pages.trashed.id}`, { status: "trash" });
      pages.frameless = await site.page({ title: "Frameless", lang: "en", frame: null });
      pages.hidden = await site.page({ title: "Hidden", lang: "en", status: "draft" });
      pages.hiddenChild = await site.page({ title: "Hidden child", lang: "en", parent: pages.hidden.id });
      pages.noindex = await site.page({ title: "Noindex", lang: "en", seo: { noindex: true } });
      pages.elsewhere = await site.page({ title: "Elsewhere", lang: "en", seo: { canonical: "/about/" } });
      pages.offsite = await site.page({
        title: "Offsite",
        lang: "en",
        seo: { canonical: "https://example.org/original/" },
      });
      pages.self = await site.page({ title: "Self", lang: "en", seo: { canonical: "/self/" } });
    });

    const listed = () => ({
      [`${site.origin}/`]: ["en", "de"],
      [`${site.origin}/de/`]: ["en", "de"],
      [`${site.origin}/about/`]: ["en", "de"],
      [`${site.origin}/de/ueber-uns/`]: ["en", "de"],
      [`${site.origin}/team/`]: ["en"],
      [`${site.origin}/contact/`]: ["en"],
      [`${site.origin}/products/`]: ["en"],
      [`${site.origin}/products/shoes/`]: ["en", "de"],
      [`${site.origin}/de/schuhe/`]: ["en", "de"],
      [`${site.origin}/self/`]: ["en"],
    });

    it("/sitemap.xml answers 200 application/xml and is valid against the sitemaps.org schema with xhtml:link", async () => {
      const sitemap = await site.sitemap(); // checks the status, the type and the schema
      assert.match(
        sitemap.xml,
        /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www\.sitemaps\.org\/schemas\/sitemap\/0\.9" xmlns:xhtml="http:\/\/www\.w3\.org\/1999\/xhtml">/,
      );
      assert.ok(sitemap.urls.length > 0);
    });

    it("lists exactly the pages that answer 200 and may be indexed, each once, the home page at / and /de/", async () => {
      const locs = await site.locs();
      assert.deepEqual(locs, Object.keys(listed()).sort());
      for (const loc of locs) {
        const answer = await site.get(new URL(loc).pathname);
        assert.equal(answer.status, 200, `${loc} is listed, so it answers 200`);
      }
      assert.equal(
        (await site.get("/home/")).status,
        301,
        "the home page's own path is not its address (it redirects to /)",
      );
    });

    it("leaves out a draft, a trashed page, a page without a frame, a page under an unpublished parent and a draft translation (each answers 404)", async () => {
      const locs = await site.locs();
      for (const name of ["draft", "trashed", "frameless", "hidden", "hiddenChild", "contactDe"]) {
        const path = new URL(pages[name].url).pathname;
        assert.equal((await site.get(path)).status, 404, `${path} answers 404`);
        assert.ok(!locs.includes(`${site.origin}${path}`), `${path} is not listed`);
      }
    });

    it("leaves out a page with seo.noindex and a page whose seo.canonical names another address, though they answer 200; a canonical naming itself is listed", async () => {
      const locs = await site.locs();
      for (const name of ["noindex", "elsewhere", "offsite"]) {
        const path = new URL(pages[name].url).pathname;
        assert.equal((await site.get(path)).status, 200, `${path} answers 200`);
        assert.ok(!locs.includes(`${site.origin}${path}`), `${path} is not listed`);
      }
      assert.ok(locs.includes(`${site.origin}/self/`), "a canonical naming the page's own address keeps it listed");
    });

    it("each <loc> is absolute on the site's domain and each <lastmod> is a W3C datetime", async () => {
      const { urls } = await site.sitemap();
      for (const url of urls) {
        const parsed = new URL(url.loc);
        assert.equal(parsed.origin, site.origin, `${url.loc} is on ${site.origin}`);
        assert.equal(url.loc, parsed.href, `${url.loc} is absolute and normalised`);
        assert.ok(url.lastmod !== undefined, `${url.loc} has a <lastmod>`);
        assert.match(url.lastmod!, W3C_DATETIME, `${url.loc}: <lastmod>${url.lastmod}</lastmod> is a W3C datetime`);
        assert.ok(!Number.isNaN(Date.parse(url.lastmod!)), `${url.lastmod} is a date`);
      }
    });

    it("each <url> has one xhtml:link rel=alternate per published translation, itself included, with only rel, hreflang and href", async () => {
      const { urls } = await site.sitemap();
      const expected = listed();
      const homes: Record<string, string> = { en: `${site.origin}/`, de: `${site.origin}/de/` };
      const pairs: Record<string, Record<string, string>> = {
        about: { en: `${site.origin}/about/`, de: `${site.origin}/de/ueber-uns/` },
        shoes: { en: `${site.origin}/products/shoes/`, de: `${site.origin}/de/schuhe/` },
      };
      const groupOf = (loc: string) =>
        [homes, ...Object.values(pairs)].find((group) => Object.values(group).includes(loc));
      for (const url of urls) {
        for (const link of url.alternates) {
          assert.deepEqual(
            Object.keys(link.attributes).sort(),
            ["href", "hreflang", "rel"],
            `${url.loc}: the link has only rel, hreflang and href`,
          );
          assert.equal(link.attributes.rel, "alternate");
        }
        assert.deepEqual(
          url.alternates.map((link) => link.attributes.hreflang),
          expected[url.loc],
          `${url.loc}: one link per published translation`,
        );
        const hrefs = Object.fromEntries(
          url.alternates.map((link) => [link.attributes.hreflang, link.attributes.href]),
        );
        assert.ok(Object.values(hrefs).includes(url.loc), `${url.loc}: itself among its alternates`);
        const group = groupOf(url.loc);
        if (group) assert.deepEqual(hrefs, group, `${url.loc}: its translations' addresses`);
        else assert.deepEqual(hrefs, { en: url.loc });
      }
    });
  });

  describe("kept current: the very next /sitemap.xml after a write shows it", () => {
    let site: Site;
    before(async () => {
      site = await newSite(["en", "de"]);
      await site.page({ title: "Start", lang: "en" });
    });

    /** Fetched twice, so the next fetch would come from the page cache unless the write flushed it. */
    async function cached(): Promise<void> {
      await site.sitemap();
      const again = await site.sitemap();
      // A site with nothing to list answers 404, which is not kept (nothing could go stale).
      if (again.urls.length > 0)
        assert.equal(again.printed, "cache", "the second /sitemap.xml is answered from the page cache");
    }

    it("publishing a new page lists it", async () => {
      await cached();
      await site.page({ title: "Fresh", lang: "en" });
      assert.ok((await site.locs()).includes(`${site.origin}/fresh/`));
    });

    it("drafting a page removes it; publishing it again lists it", async () => {
      const p = await site.page({ title: "Toggled", lang: "en" });
      await cached();
      assert.ok((await site.locs()).includes(`${site.origin}/toggled/`));
      await cached();
      await site.api("PATCH", `/pages/${p.id}`, { status: "draft" });
      assert.ok(!(await site.locs()).includes(`${site.origin}/toggled/`));
      await cached();
      await site.api("PATCH", `/pages/${p.id}`, { status: "publish" });
      assert.ok((await site.locs()).includes(`${site.origin}/toggled/`));
    });

    it("changing a slug lists the new address instead of the old one, its children's too", async () => {
      const parent = await site.page({ title: "Old name", lang: "en" });
      await site.page({ title: "Kid", lang: "en", parent: parent.id });
      await cached();
      await site.api("PATCH", `/pages/${parent.id}`, { slug: "new-name" });
      const locs = await site.locs();
      assert.ok(
        locs.includes(`${site.origin}/new-name/`) && locs.includes(`${site.origin}/new-name/kid/`),
        locs.join(" "),
      );
      assert.ok(!locs.some((loc) => loc.includes("/old-name/")), locs.join(" "));
    });

    it("a page's seo.noindex (PATCH /seo/pages and PATCH /pages) removes it; false lists it again", async () => {
      const p = await site.page({ title: "Shy", lang: "en" });
      await cached();
      await site.api("PATCH", `/seo/pages/${p.id}`, { noindex: true });
      assert.ok(!(await site.locs()).includes(`${site.origin}/shy/`), "gone after PATCH /seo/pages");
      await cached();
      await site.api("PATCH", `/pages/${p.id}`, { seo: { noindex: false } });
      assert.ok((await site.locs()).includes(`${site.origin}/shy/`), "back after PATCH /pages seo");
    });

    it("PATCH /seo {noindex: true} empties it; {noindex: false} lists the pages again", async () => {
      const before = await site.locs();
      assert.ok(before.length > 0);
      await cached();
      await site.api("PATCH", "/seo", { noindex: true });
      assert.deepEqual(await site.locs(), []);
      await cached();
      await site.api("PATCH", "/seo", { noindex: false });
      assert.deepEqual(await site.locs(), before);
    });

    it("a new translation adds its address and an alternate to both entries; assigning a frame lists a frameless page", async () => {
      const p = await site.page({ title: "Menu", lang: "en" });
      await cached();
      await site.translate({ page: p.id, lang: "de", title: "Speisekarte" });
      const { urls } = await site.sitemap();
      const en = urls.find((url) => url.loc === `${site.origin}/menu/`);
      const de = urls.find((url) => url.loc === `${site.origin}/de/speisekarte/`);
      assert.ok(en && de, "both addresses listed");
      for (const url of [en, de])
        assert.deepEqual(
          url.alternates.map((link) => link.attributes.href),
          [`${site.origin}/menu/`, `${site.origin}/de/speisekarte/`],
        );
      const bare = await site.page({ title: "Bare", lang: "en", frame: null });
      await cached();
      assert.ok(!(await site.locs()).includes(`${site.origin}/bare/`));
      await site.api("POST", "/frames/layout/assign", { page: bare.id });
      assert.ok((await site.locs()).includes(`${site.origin}/bare/`), "listed once it has a frame");
    });

    it("setting home_page lists the page at / instead of its own path", async () => {
      const p = await site.page({ title: "Welcome", lang: "en" });
      await cached();
      await site.api("PATCH", "/settings", { home_page: p.id });
      const locs = await site.locs();
      assert.ok(locs.includes(`${site.origin}/`), locs.join(" "));
      assert.ok(!locs.includes(`${site.origin}/welcome/`), locs.join(" "));
    });
  });

  describe("robots.txt", () => {
    it("a noindex site lists nothing (no sitemap) and its robots.txt (text/plain) has User-agent: * and Disallow: /", async () => {
      const site = await newSite();
      await site.page({ title: "Anything" });
      await site.get("/robots.txt");
      await site.api("PATCH", "/seo", { noindex: true });
      const sitemap = await site.sitemap();
      assert.deepEqual(sitemap.urls, []);
      const robots = await site.get("/robots.txt");
      assert.equal(robots.status, 200);
      assert.match(robots.type, /^text\/plain(;|$)/);
      const lines = robots.body.split("\n").map((line) => line.trim());
      assert.ok(lines.includes("User-agent: *"), robots.body);
      assert.ok(lines.includes("Disallow: /"), robots.body);
      assert.ok(lines.includes(`Sitemap: ${site.origin}/sitemap.xml`), robots.body);
    });

    it("a site with nothing to list has no sitemap: a noindex site and a site without pages answer 404 at /sitemap.xml (the schema wants at least one address), and a published page brings it back", async () => {
      const empty = await newSite();
      assert.equal((await empty.get("/sitemap.xml")).status, 404);
      await empty.page({ title: "First" });
      assert.equal((await empty.get("/sitemap.xml")).status, 200);
      await empty.api("PATCH", "/seo", { noindex: true });
      assert.equal((await empty.get("/sitemap.xml")).status, 404);
      await empty.api("PATCH", "/seo", { noindex: false });
      assert.equal((await empty.get("/sitemap.xml")).status, 200);
    });

    it("robots.txt of an indexed site does not disallow / and names the absolute sitemap address on the site's domain", async () => {
      const site = await newSite();
      const robots = await site.get("/robots.txt");
      assert.equal(robots.status, 200);
      assert.match(robots.type, /^text\/plain(;|$)/);
      const lines = robots.body.split("\n").map((line) => line.trim());
      assert.ok(!lines.some((line) => /^disallow:\s*\/\s*$/i.test(line)), robots.body);
      assert.deepEqual(
        lines.filter((line) => line.startsWith("Sitemap:")),
        [`Sitemap: ${site.origin}/sitemap.xml`],
      );
      assert.equal((await site.get("/sitemap.xml")).status, 404, "no page yet: nothing to list");
      await site.page({ title: "Listed" });
      assert.equal((await site.get("/sitemap.xml")).status, 200, "the address it names answers once a page does");
    });

    it("robots_extra's lines are appended, and follow PATCH /seo on the next request; noindex toggles Disallow: / the same way", async () => {
      const site = await newSite();
      await site.get("/robots.txt");
      await site.get("/robots.txt");
      const extra = "User-agent: BadBot\nDisallow: /private/\nCrawl-delay: 5";
      await site.api("PATCH", "/seo", { robots_extra: extra });
      const robots = await site.get("/robots.txt");
      assert.ok(robots.body.endsWith(`${extra}\n`), robots.body);
      assert.ok(robots.body.includes(`Sitemap: ${site.origin}/sitemap.xml`), robots.body);
      await site.api("PATCH", "/seo", { noindex: true });
      const closed = await site.get("/robots.txt");
      assert.ok(closed.body.split("\n").includes("Disallow: /"), closed.body);
      assert.ok(closed.body.endsWith(`${extra}\n`), closed.body);
      await site.api("PATCH", "/seo", { noindex: false, robots_extra: null });
      const open = await site.get("/robots.txt");
      assert.ok(!open.body.split("\n").includes("Disallow: /"), open.body);
      assert.ok(!open.body.includes("BadBot"), open.body);
    });
  });

  describe("past maxUrls addresses the sitemap is an index of parts", () => {
    it("sitemapXml(…, null, 2) over 5 pages is a valid index of /sitemap-1.xml … /sitemap-3.xml; each part valid with at most 2 <url>; together each address once; part 4 is null", async () => {
      const site = await newSite();
      for (const title of ["One", "Two", "Three", "Four", "Five"]) await site.page({ title });
      const row = await t.store.db.selectFrom("sites").selectAll().where("id", "=", site.id).executeTakeFirstOrThrow();
      const front = t.config;
      const index = await sitemapXml(t.store.db, row, front, null, 2);
      assert.ok(index !== null);
      assertValid(index, INDEX_XSD, "the sitemap index");
      const parsedIndex = parse(index);
      assert.equal(parsedIndex.root, "sitemapindex");
      assert.deepEqual(
        parsedIndex.sitemaps,
        [1, 2, 3].map((i) => `${site.origin}/sitemap-${i}.xml`),
      );
      const all: string[] = [];
      for (const i of [1, 2, 3]) {
        const part = await sitemapXml(t.store.db, row, front, i, 2);
        assert.ok(part !== null, `part ${i}`);
        assertValid(part, URLSET_XSD, `part ${i}`);
        const parsed = parse(part);
        assert.equal(parsed.root, "urlset");
        assert.ok(parsed.urls.length >= 1 && parsed.urls.length <= 2, `part ${i} holds ${parsed.urls.length}`);
        all.push(...parsed.urls.map((url) => url.loc));
      }
      assert.deepEqual(
        all.sort(),
        ["five", "four", "one", "three", "two"].map((slug) => `${site.origin}/${slug}/`),
      );
      assert.equal(await sitemapXml(t.store.db, row, front, 4, 2), null, "a part past the last");
      assert.equal(await sitemapXml(t.store.db, row, front, 0, 2), null, "part 0");
      // Under the limit: one urlset, and no parts.
      assert.equal(parse((await sitemapXml(t.store.db, row, front, null, 5))!).root, "urlset");
      assert.equal(await sitemapXml(t.store.db, row, front, 1, 5), null);
    });

    it("over HTTP a small site has a single file: /sitemap-1.xml answers 404", async () => {
      const site = await newSite();
      await site.page({ title: "Only" });
      assert.deepEqual(await site.locs(), [`${site.origin}/only/`]);
      assert.equal((await site.get("/sitemap-1.xml")).status, 404);
      assert.equal((await site.get("/sitemap-2.xml")).status, 404);
    });
  });

  it("isolation: another site's domain gets that site's own sitemap and robots.txt", async () => {
    const a = await newSite();
    const b = await newSite(["en", "fr"]);
    await a.page({ title: "Alpha" });
    await b.page({ title: "Beta", lang: "en" });
    await a.api("PATCH", "/seo", { robots_extra: "# site a" });
    await b.api("PATCH", "/seo", { noindex: true, robots_extra: "# site b" });
    assert.deepEqual(await a.locs(), [`${a.origin}/alpha/`]);
    assert.deepEqual(await b.locs(), []);
    await b.api("PATCH", "/seo", { noindex: false });
    assert.deepEqual(await b.locs(), [`${b.origin}/beta/`]);
    assert.deepEqual(await a.locs(), [`${a.origin}/alpha/`], "a's sitemap is unchanged by b's writes");
    const robotsA = (await a.get("/robots.txt")).body;
    const robotsB = (await b.get("/robots.txt")).body;
    assert.ok(
      robotsA.includes(`Sitemap: ${a.origin}/sitemap.xml`) &&
        robotsA.includes("# site a") &&
        !robotsA.includes("# site b"),
      robotsA,
    );
    assert.ok(
      robotsB.includes(`Sitemap: ${b.origin}/sitemap.xml`) &&
        robotsB.includes("# site b") &&
        !robotsB.includes("# site a"),
      robotsB,
    );
    // The main site (localhost) lists neither: it has no page, so no sitemap.
    const main = await t.app.inject({ method: "GET", url: "/sitemap.xml", headers: { host: "localhost" } });
    assert.equal(main.statusCode, 404);
    assert.ok(!main.body.includes(a.domain) && !main.body.includes(b.domain), main.body);
  });
});
