// The SEO calls (docs/seo.md): the site's defaults (GET/PATCH /seo), a page's own
// fields (GET/PATCH /seo/pages/{ref}, `seo` in POST and PATCH /pages), per translation, and the
// redirects calls (GET/POST /seo/redirects, DELETE /seo/redirects/{id}).
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { TestApp } from "../support/app.ts";
import { ok, seoSite, startTestApp } from "./helpers.ts";

describe("SEO: site defaults, page fields and redirects through the API", () => {
  let t: TestApp;
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  it("GET /seo answers every default: title_template '%s — <site name>', no description, no image, indexed, no Twitter handle, no extra robots lines", async () => {
    const site = await seoSite(t);
    const body = ok(await site.api("GET", "/seo"), "GET /seo");
    assert.deepEqual(body, {
      success: true,
      site_id: site.id,
      seo: {
        title_template: `%s — ${site.name}`,
        description: "",
        og_image: null,
        noindex: false,
        twitter_site: "",
        robots_extra: "",
        languages: {},
      },
      warnings: [],
    });
  });

  it("PATCH /seo writes the keys given and leaves the others; null restores a default; the answer names what changed; the default template follows the site's name", async () => {
    const site = await seoSite(t);
    const first = ok(
      await site.api("PATCH", "/seo", {
        title_template: "%s | Acme",
        description: "We make things.",
        twitter_site: "acme",
      }),
      "PATCH",
    );
    assert.deepEqual(first.seo, {
      title_template: "%s | Acme",
      description: "We make things.",
      og_image: null,
      noindex: false,
      twitter_site: "@acme",
      robots_extra: "",
      languages: {},
    });
    assert.deepEqual(first.changed, ["title_template", "description", "twitter_site"]);
    assert.equal(typeof first.rebaked.status, "string");
    const second = ok(
      await site.api("PATCH", "/seo", { noindex: true, robots_extra: "Disallow: /private/\r\nCrawl-delay: 5\n" }),
      "PATCH again",
    );
    assert.deepEqual(second.seo, {
      title_template: "%s | Acme",
      description: "We make things.",
      og_image: null,
      noindex: true,
      twitter_site: "@acme",
      robots_extra: "Disallow: /private/\nCrawl-delay: 5",
      languages: {},
    });
    const reset = ok(await site.api("PATCH", "/seo", { title_template: null }), "reset");
    assert.equal(reset.seo.title_template, `%s — ${site.name}`);
    ok(await site.api("PATCH", "/settings", { name: "Renamed Co" }), "rename the site");
    assert.equal(ok(await site.api("GET", "/seo"), "GET").seo.title_template, "%s — Renamed Co");
  });

  it("PATCH /seo refuses wrong types (400 invalid_field naming the field), an image that names no media file (404 media_not_found), an empty body (400 nothing_to_update); unknown keys are warnings; nothing is written on a refusal", async () => {
    const site = await seoSite(t);
    for (const [body, field] of [
      [{ noindex: "yes" }, "noindex"],
      [{ description: 5 }, "description"],
      [{ title_template: "x".repeat(301) }, "title_template"],
      [{ twitter_site: "not a handle!" }, "twitter_site"],
      [{ og_image: [1] }, "og_image"],
    ] as const) {
      const refused = await site.api("PATCH", "/seo", {
        ...body,
        description: typeof (body as Record<string, unknown>).description === "number" ? 5 : "should not be kept",
      });
      assert.equal(refused.status, 400, JSON.stringify(body));
      assert.equal(refused.body.error, "invalid_field");
      assert.equal(refused.body.field, field);
    }
    const missing = await site.api("PATCH", "/seo", { og_image: "no-such-file" });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error, "media_not_found");
    assert.equal(missing.body.field, "og_image");
    assert.equal((await site.api("PATCH", "/seo", {})).body.error, "nothing_to_update");
    assert.equal(
      ok(await site.api("GET", "/seo"), "GET").seo.description,
      "",
      "nothing of the refused writes was kept",
    );
    const warned = ok(await site.api("PATCH", "/seo", { description: "d", colour: "red" }), "unknown key");
    assert.deepEqual(
      warned.warnings.map((w: { code: string; field: string }) => [w.code, w.field]),
      [["unknown_field", "colour"]],
    );
  });

  it("the legacy address reaches the same defaults (blog_id), and another site's defaults are its own", async () => {
    const one = await seoSite(t);
    const two = await seoSite(t);
    ok(await t.call("PATCH", `/api/seo?blog_id=${one.id}`, { body: { description: "legacy" } }), "legacy PATCH");
    assert.equal(ok(await one.api("GET", "/seo"), "one").seo.description, "legacy");
    assert.equal(ok(await two.api("GET", "/seo"), "two").seo.description, "");
  });

  it("page SEO: seo in POST /pages and PATCH /pages, GET/PATCH /seo/pages/{ref}, per translation; null restores a default; records carry seo", async () => {
    const site = await seoSite(t, { languages: true });
    await site.frame("plain", "<p>plain</p>");
    const id = await site.page("About", "plain", {
      lang: "en",
      seo: { title: "About Acme", description: "Who we are", canonical: "/about/", noindex: false },
    });
    const translation = ok(
      await site.api("POST", "/pages/language", { page: id, lang: "de", title: "Über uns" }),
      "translation",
      201,
    ).page.id as number;
    assert.deepEqual(ok(await site.api("GET", `/seo/pages/${id}`), "GET").seo, {
      title: "About Acme",
      description: "Who we are",
      canonical: "/about/",
      noindex: false,
      og_image: null,
    });
    assert.deepEqual(
      ok(await site.api("GET", `/seo/pages/${translation}`), "translation GET").seo,
      { title: null, description: null, canonical: null, noindex: false, og_image: null },
      "a translation has fields of its own",
    );
    const patched = ok(
      await site.api("PATCH", `/seo/pages/${translation}`, { description: "Wer wir sind", noindex: true }),
      "PATCH translation",
    );
    assert.deepEqual(patched.seo, {
      title: null,
      description: "Wer wir sind",
      canonical: null,
      noindex: true,
      og_image: null,
    });
    assert.equal(patched.page, translation);
    assert.ok("rebaked" in patched);
    const record = ok(await site.api("GET", `/pages/${translation}`), "page record").page;
    assert.deepEqual(record.seo, patched.seo);
    const viaPages = ok(
      await site.api("PATCH", `/pages/${id}`, { seo: { title: null, canonical: "https://example.com/about" } }),
      "PATCH /pages seo",
    ).page;
    assert.deepEqual(viaPages.seo, {
      title: null,
      description: "Who we are",
      canonical: "https://example.com/about",
      noindex: false,
      og_image: null,
    });
    const cleared = ok(await site.api("PATCH", `/pages/${id}`, { seo: null }), "seo: null").page;
    assert.deepEqual(cleared.seo, { title: null, description: null, canonical: null, noindex: false, og_image: null });
  });

  it("page SEO refuses a canonical that is neither a site path nor an http(s) URL, an unknown image and a non-object seo (400/404, nothing written); unknown keys are warnings", async () => {
    const site = await seoSite(t);
    await site.frame("plain", "<p>plain</p>");
    const id = await site.page("Team", "plain", { seo: { description: "kept" } });
    for (const canonical of ["javascript:alert(1)", "//evil.example/x", "about", "ftp://x.example/", "/a b"]) {
      const refused = await site.api("PATCH", `/seo/pages/${id}`, { canonical, description: "lost" });
      assert.equal(refused.status, 400, canonical);
      assert.equal(refused.body.field, "seo.canonical");
    }
    const image = await site.api("PATCH", `/seo/pages/${id}`, { og_image: 999999 });
    assert.equal(image.status, 404);
    assert.equal(image.body.error, "media_not_found");
    const notObject = await site.api("PATCH", `/pages/${id}`, { seo: "yes" });
    assert.equal(notObject.status, 400);
    assert.equal(notObject.body.field, "seo");
    assert.equal((await site.api("PATCH", `/seo/pages/${id}`, {})).body.error, "nothing_to_update");
    assert.equal(ok(await site.api("GET", `/seo/pages/${id}`), "GET").seo.description, "kept");
    const warned = ok(await site.api("PATCH", `/seo/pages/${id}`, { keywords: "a,b" }), "unknown key");
    assert.ok(
      warned.warnings.some(
        (w: { code: string; field: string }) => w.code === "unknown_field" && w.field === "seo.keywords",
      ),
    );
    assert.equal((await site.api("GET", "/seo/pages/no-such-page")).body.error, "page_not_found");
  });

  it("redirects: POST answers 201 with the record (from written as the canonical address, status 301 by default), 200 when it replaces the one at from; GET lists them; DELETE removes one; an unknown id is 404 redirect_not_found", async () => {
    const site = await seoSite(t);
    const made = ok(
      await site.api("POST", "/seo/redirects", { from: "/Old-Page", to: "/new-page/" }),
      "POST",
      201,
    ).redirect;
    assert.deepEqual(
      { from: made.from, to: made.to, status: made.status, auto: made.auto },
      { from: "/old-page/", to: "/new-page/", status: 301, auto: false },
    );
    const external = ok(
      await site.api("POST", "/seo/redirects", {
        from: "/shop/",
        to: "https://shop.example.com/?a=1&b=2",
        status: 302,
      }),
      "external",
      201,
    ).redirect;
    assert.equal(external.to, "https://shop.example.com/?a=1&b=2");
    const replaced = ok(
      await site.api("POST", "/seo/redirects", { from: "/old-page/", to: "/newer/", status: 308 }),
      "replace",
      200,
    ).redirect;
    assert.equal(replaced.id, made.id);
    const list = ok(await site.api("GET", "/seo/redirects"), "GET").redirects;
    assert.deepEqual(
      list.map((r: { from: string; to: string; status: number }) => [r.from, r.to, r.status]),
      [
        ["/old-page/", "/newer/", 308],
        ["/shop/", "https://shop.example.com/?a=1&b=2", 302],
      ],
    );
    const deleted = ok(await site.api("DELETE", `/seo/redirects/${external.id}`), "DELETE").deleted;
    assert.equal(deleted.from, "/shop/");
    assert.equal((await site.api("DELETE", `/seo/redirects/${external.id}`)).body.error, "redirect_not_found");
    assert.equal((await site.api("DELETE", "/seo/redirects/abc")).status, 404);
    const other = await seoSite(t);
    assert.equal(
      (await other.api("DELETE", `/seo/redirects/${made.id}`)).status,
      404,
      "another site's redirect is not found",
    );
  });

  it("redirects refuse: a status other than 301, 302, 307, 308 (400 invalid_redirect_status); a from at a live page's address (409 redirect_shadows_page); a from that is no site path (a fragment, malformed percent-encoding), a to that is neither a path nor an http(s) URL, a redirect to itself (400 invalid_field)", async () => {
    const site = await seoSite(t);
    await site.frame("plain", "<p>plain</p>");
    const live = await site.page("Pricing", "plain");
    for (const status of [200, 300, 303, 404, "301"]) {
      const refused = await site.api("POST", "/seo/redirects", { from: "/a/", to: "/b/", status });
      assert.equal(refused.status, 400, String(status));
      assert.equal(refused.body.error, "invalid_redirect_status");
    }
    const shadow = await site.api("POST", "/seo/redirects", { from: "/pricing/", to: "/b/" });
    assert.equal(shadow.status, 409);
    assert.equal(shadow.body.error, "redirect_shadows_page");
    assert.equal(shadow.body.page, live);
    for (const body of [
      { from: "pricing", to: "/b/" },
      { from: "//x", to: "/b/" },
      { from: "/a#x", to: "/b/" },
      { from: "/a?x=%zz", to: "/b/" },
      { from: "/a?x=1", to: "/a/?x=1" },
      { from: "/a", to: "/a/?x=1" },
      { from: "/a/", to: "javascript:alert(1)" },
      { from: "/a/", to: "b" },
      { from: "/a/", to: "/A" },
    ]) {
      const refused = await site.api("POST", "/seo/redirects", body);
      assert.equal(refused.status, 400, JSON.stringify(body));
      assert.equal(refused.body.error, "invalid_field", JSON.stringify(body));
    }
    assert.deepEqual(ok(await site.api("GET", "/seo/redirects"), "GET").redirects, [], "nothing was written");
  });
});
