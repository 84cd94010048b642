// Redirects of one query string and of addresses the public site writes another way (docs/seo.md,
// "Redirects"): `/?page_id=12` redirects that exact query only (order and case matter, percent-
// encoding is compared written one way), before any page; `/company-info.html` reaches its target
// in one hop, whatever spelling of it is asked.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { Answer, TestApp } from "../support/app.ts";
import { ok, seoSite, startTestApp, type SeoSite } from "./helpers.ts";

function redirected(answer: Answer, what: string, location: string, status = 301): void {
  assert.equal(answer.status, status, `${what}: ${answer.status} ${answer.text.slice(0, 200)}`);
  assert.equal(answer.headers.location, location, `${what}: Location`);
}

describe("SEO: redirects of a query string, and in one hop", () => {
  let t: TestApp;
  let site: SeoSite;
  before(async () => {
    t = await startTestApp();
    site = await seoSite(t);
    await site.frame("plain", "<p>plain</p>");
    const home = await site.page("Home", "plain");
    ok(await site.api("PATCH", "/settings", { home_page: home }), "home page");
    await site.page("Team", "plain");
  });
  after(() => t.close());

  it("a from with a query string redirects that exact query; the page answers without it and with any other; the request's query is not carried on", async () => {
    const made = ok(
      await site.api("POST", "/seo/redirects", { from: "/?page_id=12", to: "/team/" }),
      "query redirect at the home page's address",
      201,
    ).redirect;
    assert.equal(made.from, "/?page_id=12");
    // Answered twice: the second from memory.
    for (const round of [1, 2]) {
      redirected(await site.visit("/?page_id=12"), `exact query, round ${round}`, "/team/");
      assert.equal((await site.visit("/")).status, 200, `no query: the home page, round ${round}`);
      assert.equal((await site.visit("/?page_id=13")).status, 200, `another value, round ${round}`);
      assert.equal((await site.visit("/?page_id=12&x=1")).status, 200, `another query, round ${round}`);
      assert.equal((await site.visit("/?PAGE_ID=12")).status, 200, `case matters, round ${round}`);
    }
    redirected(await site.visit("/?page_id=1%32"), "an escaped digit is the digit", "/team/");
    redirected(await site.visit("/?page_id=12#top"), "a fragment is no part of it", "/team/");
  });

  it("parameter order is significant; percent-encoding is compared written one way; a path other than / works, in any spelling", async () => {
    ok(
      await site.api("POST", "/seo/redirects", { from: "/index.php?p=5&lang=de", to: "/team/", status: 302 }),
      "p",
      201,
    );
    ok(await site.api("POST", "/seo/redirects", { from: "/search?q=caf%c3%a9", to: "/team/" }), "q", 201);
    const listed = ok(await site.api("GET", "/seo/redirects"), "GET").redirects.map((r: { from: string }) => r.from);
    assert.ok(listed.includes("/index.php/?p=5&lang=de") && listed.includes("/search/?q=caf%C3%A9"), listed.join(" "));
    redirected(await site.visit("/index.php?p=5&lang=de"), "as posted", "/team/", 302);
    redirected(await site.visit("/Index.php/?p=5&lang=de"), "another spelling of the path", "/team/", 302);
    assert.equal((await site.visit("/index.php?lang=de&p=5")).status, 404, "the other order is another query");
    redirected(await site.visit("/search/?q=caf%C3%A9"), "hex case", "/team/");
  });

  it("a query redirect shadows no page: one from a live page's address with a query is made; the page still answers there", async () => {
    const made = await site.api("POST", "/seo/redirects", { from: "/team/?old=1", to: "/" });
    assert.equal(made.status, 201, made.text);
    redirected(await site.visit("/team/?old=1"), "query redirect", "/");
    assert.equal((await site.visit("/team/")).status, 200);
    ok(await site.api("DELETE", `/seo/redirects/${made.body.redirect.id}`), "delete");
    assert.equal((await site.visit("/team/?old=1")).status, 200, "deleted: the page again");
  });

  it("a redirect of every query at an address yields to one of its exact query", async () => {
    ok(await site.api("POST", "/seo/redirects", { from: "/old-shop/", to: "/team/" }), "whole address", 201);
    ok(await site.api("POST", "/seo/redirects", { from: "/old-shop/?item=3", to: "/" }), "one query", 201);
    redirected(await site.visit("/old-shop/?item=3"), "the exact query's", "/");
    redirected(await site.visit("/old-shop/?item=4"), "any other query: the address's, query carried", "/team/?item=4");
  });

  it("a from ending in .html (or written any other way) answers in one hop, from every spelling; the query is carried on", async () => {
    const made = ok(
      await site.api("POST", "/seo/redirects", { from: "/company-info.html", to: "/team/" }),
      "html",
      201,
    ).redirect;
    assert.equal(made.from, "/company-info.html/");
    for (const path of ["/company-info.html", "/company-info.html/", "/Company-Info.HTML", "//company-info.html"])
      redirected(await site.visit(path), path, "/team/");
    redirected(await site.visit("/company-info.html?utm=x"), "query carried", "/team/?utm=x");
    // The home page's own path, asked another way, goes to `/` in one hop too.
    redirected(await site.visit("/Home"), "home page's own path", "/");
  });
});
