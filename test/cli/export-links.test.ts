// The link rewriting of `svc export-static` (src/cli/export/, docs/cli.md "svc export-static"),
// pure: which addresses are the site's own, how each mode writes them, and that a page keeps every
// byte but its links' values.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { fileOf } from "../../src/cli/export/document.ts";
import { rewriteCss } from "../../src/cli/export/css-links.ts";
import { rewriteHtml } from "../../src/cli/export/html-links.ts";
import { relativePath, rewriteLink, type Linking } from "../../src/cli/export/links.ts";
import { redirectsFile } from "../../src/cli/export/redirects-file.ts";
import { refetchOf } from "../../src/cli/export/since.ts";
import { rewriteXml } from "../../src/cli/export/xml-links.ts";

const SITE = "https://example.org";
const linking = (mode: Linking["mode"], base = SITE): Linking => ({
  mode,
  siteOrigin: SITE,
  hosts: new Set(["example.org", "127.0.0.1:8080"]),
  base,
});

describe("own addresses and the three ways of writing them", () => {
  it("takes root-relative addresses and absolute ones on the site's or the service's host, in either scheme", () => {
    for (const value of ["/about/", "https://example.org/about/", "http://example.org/about/", "//example.org/about/"])
      assert.equal(rewriteLink(value, "/", linking("root")), "/about/", value);
    assert.equal(rewriteLink("http://127.0.0.1:8080/about/?x=1#top", "/", linking("root")), "/about/?x=1#top");
    assert.equal(rewriteLink("https://example.org", "/", linking("root")), "/");
    for (const value of ["https://other.org/", "mailto:a@example.org", "#top", "contact/", "", "javascript:void 0"])
      assert.equal(rewriteLink(value, "/", linking("root")), null, value);
  });

  it("relative to the file: directories keep their slash, the file's own folder is ./", () => {
    const cases: Array<[string, string, string]> = [
      ["/about/", "/", "../"],
      ["/", "/about/", "about/"],
      ["/", "/", "./"],
      ["/news/page/2/", "/news/feed.xml", "../../feed.xml"],
      ["/styles/main.css", "/media/ab/x.png", "../media/ab/x.png"],
      ["/styles/main.css", "/styles/main.css", "main.css"],
      ["/de/", "/de/", "./"],
      ["/a/", "/a:b/", "../a:b/"],
      ["/", "/a:b/", "./a:b/"],
    ];
    for (const [from, to, expected] of cases) assert.equal(relativePath(from, to), expected, `${from} → ${to}`);
  });

  it("absolute on the base URL, under its path; root-relative under that path too", () => {
    const based = linking("absolute", "https://cdn.example.net/site");
    assert.equal(rewriteLink("/about/", "/", based), "https://cdn.example.net/site/about/");
    assert.equal(rewriteLink("/about/", "/", based, "root"), "/site/about/");
    assert.equal(rewriteLink("/about/", "/news/", linking("relative"), "absolute"), "https://example.org/about/");
  });
});

describe("pages keep every byte but their links", () => {
  const page = [
    `<!DOCTYPE html><html lang="en"><head><link rel="canonical" href="https://example.org/about/">`,
    `<link rel="alternate" hreflang="de" href="https://example.org/de/ueber-uns/">`,
    `<link rel=stylesheet href=/styles/main.abc.css><meta property="og:url" content="https://example.org/about/">`,
    `<meta name="viewport" content="width=device-width">`,
    `<script type="application/ld+json">{"url":"https://example.org/about/","name":"x"}</script>`,
    `<style>.a{background:url(/media/ab/x.png)}</style></head>`,
    `<body><a href="/news/?a=1&amp;b=2" class='x'>News</a> <a href="https://other.org/">Other</a>`,
    `<img src="/media/ab/x.png" srcset="/media/ab/x-320w.webp 320w, /media/ab/x.png 900w" alt="">`,
    `<div style="background: url('/media/ab/x.png')"></div>`,
    `<form method="post" action="/_forms/contact"><button>Send</button></form></body></html>`,
  ].join("\n");

  it("relative: links relative to the file; canonical, hreflang, Open Graph and JSON-LD absolute", () => {
    const out = rewriteHtml(page, "/about/", linking("relative"));
    const expected = page
      .replace(`href=/styles/main.abc.css`, `href=../styles/main.abc.css`)
      .replace(`url(/media/ab/x.png)`, `url(../media/ab/x.png)`)
      .replace(`href="/news/?a=1&amp;b=2"`, `href="../news/?a=1&amp;b=2"`)
      .replace(`src="/media/ab/x.png"`, `src="../media/ab/x.png"`)
      .replace(
        `"/media/ab/x-320w.webp 320w, /media/ab/x.png 900w"`,
        `"../media/ab/x-320w.webp 320w, ../media/ab/x.png 900w"`,
      )
      .replace(`url('/media/ab/x.png')`, `url('../media/ab/x.png')`)
      .replace(`action="/_forms/contact"`, `action="../_forms/contact"`);
    assert.equal(out.text, expected);
    assert.deepEqual(out.endpoints, ["/_forms/contact"]);
    assert.deepEqual(out.links.sort(), [
      "/about/",
      "/de/ueber-uns/",
      "/media/ab/x-320w.webp",
      "/media/ab/x.png",
      "/news/",
      "/styles/main.abc.css",
    ]);
  });

  it("on a base URL: every own address absolute, JSON-LD included; the rest as it was", () => {
    const out = rewriteHtml(page, "/about/", linking("absolute", "http://127.0.0.1:9000"));
    assert.ok(!out.text.includes("example.org"), out.text);
    assert.match(out.text, /"url":"http:\/\/127\.0\.0\.1:9000\/about\/"/);
    assert.match(out.text, /href="https:\/\/other\.org\/"/);
    assert.match(out.text, /content="width=device-width"/);
  });

  it("a stylesheet's url()s and imports, in place", () => {
    const css = `@import url("/styles/x.css");\n.a { background: url( "/media/ab/x.png" ) } .b{background:url(https://other.org/y.png)}`;
    const out = rewriteCss(css, "/styles/main.css", linking("relative"));
    assert.equal(
      out.text,
      `@import url("x.css");\n.a { background: url( "../media/ab/x.png" ) } .b{background:url(https://other.org/y.png)}`,
    );
    assert.deepEqual(out.links, ["/styles/x.css", "/media/ab/x.png"]);
  });

  it("sitemaps and feeds: own absolute addresses on the base URL, their <loc>s and links followed", () => {
    const xml = `<urlset><url><loc>https://example.org/about/</loc><xhtml:link rel="alternate" hreflang="de" href="https://example.org/de/"/></url></urlset>`;
    const out = rewriteXml(xml, linking("root", "http://127.0.0.1:9000"));
    assert.equal(out.text, xml.replaceAll("https://example.org", "http://127.0.0.1:9000"));
    assert.deepEqual(out.links, ["/about/", "/de/"]);
  });
});

describe("files, redirects and events", () => {
  it("maps addresses to files as a static server does, and refuses names that leave the folder", () => {
    assert.equal(fileOf("/", true), "index.html");
    assert.equal(fileOf("/de/ueber-uns/", true), "de/ueber-uns/index.html");
    assert.equal(fileOf("/media/ab/my%20photo.png", false), "media/ab/my photo.png");
    for (const address of ["/a/%2e%2e/b.png", "/media/..%2F..%2Fx", "/a//b.png", "/x/", "/%5c.png"])
      assert.equal(fileOf(address, false), null, address);
  });

  it("_redirects: one line per redirect, targets on the site root-relative, query redirects reported", () => {
    const file = redirectsFile(
      [
        { from: "/old/", to: "https://example.org/new/", status: 301 },
        { from: "/go/", to: "https://other.org/", status: 302 },
        { from: "/?p=1", to: "/new/", status: 301 },
      ],
      linking("absolute", "https://cdn.example.net/site"),
    );
    assert.equal(file.text, "/site/old/ /site/new/ 301\n/site/go/ https://other.org/ 302\n");
    assert.deepEqual(file.skipped, ["/?p=1"]);
    assert.equal(redirectsFile([], linking("root")).text, "");
  });

  it("--since: the addresses the events name; a write of the site's whole or a run not over fetches everything", () => {
    const event = (type: string, urls: string[] | null) => ({ type, published: urls && { rebaked: 1, urls } });
    const named = refetchOf(
      [event("page.updated", ["https://example.org/about/"]), event("site.changed", ["https://example.org/about/"])],
      linking("root"),
    );
    assert.deepEqual([named.everything, [...named.addresses]], [false, ["/about/"]]);
    assert.equal(refetchOf([event("settings.updated", [])], linking("root")).everything, true);
    assert.equal(refetchOf([event("page.updated", null)], linking("root")).everything, true);
  });
});
