// Effect table, revisions and the trash (docs/publishing.md): every restore of a revision
// (`POST /{frames|pages|menus|data|styles|sidebars}/{ref}/revisions/{n}/restore`) and every object
// brought back from the trash (`POST /trash/{kind}/{id}/restore`) is a write of its kind, so it
// reaches the public site on the next request as that kind's ordinary write does
// (docs/publishing.md, docs/revisions.md; pattern in effects-helpers.ts). Each test writes the
// object more than once or deletes it, fetches the addresses twice (static copy table and memory),
// restores, and reads the restored state through the reading process (on PostgreSQL the other
// one of two).
import { before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { bind, effects, gone, linkTitles, linkUrls, ok, redirected, served, suite } from "./effects-helpers.ts";

const embed = (name: string) => `<!-- svc/frame {"name": "${name}"} /-->`;
const menuAt = (location: string) => `<nav class="${location}"><!-- svc/menu {"location": "${location}"} /--></nav>`;
/** The titles of the links the menu at `location` prints on a page. */
const printed = (html: string, location: string) =>
  linkTitles(new RegExp(`<nav class="${location}">(.*?)</nav>`, "s").exec(html)?.[1] ?? "");
const link = `<a data-op-bind='{"href": "item.url", "text": "item.title"}'></a>`;
const repeat = (source: string, cls: string) =>
  `<ul class="${cls}"><!-- svc/repeat {"source": "${source}"} --><li>${link}</li><!-- /svc/repeat --></ul>`;
/** The titles a `<ul class>` repeat prints. */
const listed = (html: string, cls: string) =>
  linkTitles(new RegExp(`<ul class="${cls}">(.*?)</ul>`, "s").exec(html)?.[1] ?? "");
/** The sidebar's link labels and the pager's neighbours (`rel` and label), from a frame printing svc/sidebar and svc/pager. */
const sidebarOf = (html: string) => ({
  items: linkTitles(/<nav class="sidebar">(.*?)<\/nav>/s.exec(html)?.[1] ?? ""),
  pager: [
    ...(/<nav class="pager">(.*?)<\/nav>/s
      .exec(html)?.[1]
      ?.matchAll(/<a rel="(prev|next)" href="[^"]*">([^<]*)<\/a>/g) ?? []),
  ].map((m) => `${m[1]}: ${m[2]}`),
});
/** The stylesheet addresses a page links, in order. */
const styleLinks = (html: string) => [...html.matchAll(/<link rel="stylesheet" href="([^"]*)">/g)].map((m) => m[1]!);
const linking = (...names: string[]) =>
  `<!DOCTYPE html><html><head><!-- svc/styles {"names": ${JSON.stringify(names)}} /--></head><body><p>styled</p></body></html>`;

describe(suite("revisions"), () => {
  const fx = effects();

  /** A restore of revision n of the object at `path` (`/frames/x`, with `?lang=…`), on site 1 or `site`; answers the body after checking `restored`. */
  const restore = async (path: string, n: number, revision: number, query = "", site?: number) => {
    const body = ok(
      await fx.api("POST", `${path}/revisions/${n}/restore${query}`, undefined, site),
      `restore ${path} revision ${n}${query}`,
    );
    assert.deepEqual(
      { from: body.restored.from_revision, revision: body.restored.revision },
      { from: n, revision },
      `${path}: restored`,
    );
    return body;
  };
  /** The trash entry of `kind` deleted under `slug`, brought back; answers the body. */
  const undelete = async (kind: string, slug: string) => {
    const items = ok(await fx.api("GET", "/trash"), "GET /trash").items as Array<{
      kind: string;
      id: string;
      slug: string;
    }>;
    const entry = items.find((item) => item.kind === kind && item.slug === slug);
    assert.ok(entry, `${kind} ${slug} in the trash: ${JSON.stringify(items)}`);
    const body = ok(
      await fx.api("POST", `/trash/${kind}/${encodeURIComponent(entry.id)}/restore`),
      `POST /trash/${kind}/${entry.id}/restore`,
    );
    assert.equal(body.restored.id, entry.id);
    const left = ok(await fx.api("GET", "/trash"), "GET /trash").items as Array<{ kind: string; id: string }>;
    assert.ok(!left.some((item) => item.kind === kind && item.id === entry.id), "it left the trash");
    return body;
  };
  const rebakedSlugs = (body: any): string[] => body.rebaked.frames.map((frame: { slug: string }) => frame.slug).sort();
  /** A 404 fetched twice (a second request answers from whatever was kept). */
  const goneTwice = async (path: string, reason?: string) => {
    for (let i = 0; i < 2; i++) gone(await fx.visit(path), `${path} before the restore`, reason);
  };

  describe("frames", () => {
    it("POST /frames/{ref}/revisions/{n}/restore: its pages and the pages of frames embedding it print revision n's markup from their static copies", async () => {
      const path = await fx.shown("rx-frame", "<p>version 1</p>");
      await fx.frame("rx-frame-outer", `<main>${embed("rx-frame")}</main>`);
      await fx.page("rx-frame-outer-page", "rx-frame-outer");
      for (const html of ["<p>version 2</p>", "<p>version 3</p>"])
        ok(await fx.api("PUT", "/frames/rx-frame", { html }), "PUT frame");
      assert.equal((await fx.primed(path)).text, "<p>version 3</p>");
      assert.match((await fx.primed("/rx-frame-outer-page/")).text, /version 3/);

      const answer = await restore("/frames/rx-frame", 1, 4);
      assert.deepEqual(rebakedSlugs(answer), ["rx-frame-outer"], "the embedder rebaked (its own bake in bake)");
      assert.equal(answer.bake.status, "ok");
      assert.equal(served(await fx.visit(path), path, "static"), "<p>version 1</p>");
      const outer = served(await fx.visit("/rx-frame-outer-page/"), "embedder's page", "static");
      assert.match(outer, /<main><!-- op\/frame [^>]*--><p>version 1<\/p><!-- \/op\/frame --><\/main>/);
      assert.doesNotMatch(outer, /version 3/);
    });

    it("POST /trash/frames/{id}/restore: the pages that stood on it answer 200 again with its markup; a page given another frame meanwhile keeps it; frames embedding it print it again", async () => {
      await fx.frame("rx-trashed", "<b>trashed frame</b>");
      await fx.frame("rx-elsewhere", "<b>another frame</b>");
      await fx.frame("rx-trashed-outer", `<div>${embed("rx-trashed")}</div>`);
      const kept = await fx.page("rx-trashed-a", "rx-trashed");
      const moved = await fx.page("rx-trashed-b", "rx-trashed");
      await fx.page("rx-trashed-outer-page", "rx-trashed-outer");
      for (const path of ["/rx-trashed-a/", "/rx-trashed-b/", "/rx-trashed-outer-page/"])
        assert.match((await fx.primed(path)).text, /trashed frame/);
      const deleted = ok(await fx.api("DELETE", "/frames/rx-trashed"), "DELETE frame");
      assert.deepEqual([...deleted.unbound_pages].sort(), [kept, moved].sort());
      await goneTwice("/rx-trashed-a/", "no_frame");
      ok(await fx.api("POST", "/frames/rx-elsewhere/assign", { page: moved }), "assign another frame");
      assert.match((await fx.primed("/rx-trashed-b/")).text, /another frame/);
      assert.doesNotMatch((await fx.primed("/rx-trashed-outer-page/")).text, /trashed frame/);

      const answer = await undelete("frames", "rx-trashed");
      assert.deepEqual(answer.pages_restored, [kept]);
      assert.deepEqual(answer.frame.slug, "rx-trashed");
      assert.equal(served(await fx.visit("/rx-trashed-a/"), "page put back", "static"), "<b>trashed frame</b>");
      assert.equal(served(await fx.visit("/rx-trashed-b/"), "page on another frame", "static"), "<b>another frame</b>");
      assert.match(
        served(await fx.visit("/rx-trashed-outer-page/"), "embedder's page", "static"),
        /<div><!-- op\/frame [^>]*--><b>trashed frame<\/b><!-- \/op\/frame --><\/div>/,
      );
    });
  });

  describe("pages", () => {
    before(async () => {
      // On request: the page's own title and content. Baked: the site's page list and each menu location.
      await fx.frame(
        "rx-self",
        `<h1 ${bind("text", "page.title")}></h1><div class="body" ${bind("html", "page.content")}></div>`,
      );
      await fx.frame("rx-list", repeat("pages", "all"));
      await fx.frame("rx-menus", `${menuAt("header")}${menuAt("footer_1")}`);
      // On request: sidebar rx-pages and its pager.
      await fx.frame(
        "rx-side-pages",
        `<h1 ${bind("text", "page.title")}></h1><!-- svc/sidebar {"name": "rx-pages"} /--><!-- svc/pager {"name": "rx-pages"} /-->`,
      );
      await fx.page("rx-all", "rx-list");
      await fx.page("rx-menus-page", "rx-menus");
    });

    it("POST /pages/{ref}/revisions/{n}/restore: the page prints revision n's title and content; page lists and the menus showing it print the old title", async () => {
      const id = await fx.page("rx-titled", "rx-self", { title: "First title", content: "<em>first body</em>" });
      ok(await fx.api("POST", "/menus", { name: "Header", location: "header", items: [{ page: id }] }), "menu", 201);
      ok(
        await fx.api("PATCH", `/pages/${id}`, { title: "Second title", content: "<em>second body</em>" }),
        "PATCH page",
      );
      assert.match((await fx.primed("/rx-titled/")).text, /<h1>Second title<\/h1>/);
      assert.deepEqual(printed((await fx.primed("/rx-menus-page/")).text, "header"), ["Second title"]);
      assert.ok(listed((await fx.primed("/rx-all/")).text, "all").includes("Second title"));

      const answer = await restore(`/pages/${id}`, 1, 3);
      assert.equal(answer.page.title, "First title");
      const html = served(await fx.visit("/rx-titled/"), "the page", "on_request");
      assert.match(html, /<h1>First title<\/h1><div class="body"><em>first body<\/em><\/div>/);
      assert.deepEqual(printed(served(await fx.visit("/rx-menus-page/"), "menu", "static"), "header"), ["First title"]);
      const titles = listed(served(await fx.visit("/rx-all/"), "page list", "static"), "all");
      assert.ok(titles.includes("First title") && !titles.includes("Second title"), titles.join(" "));
    });

    it("POST /trash/pages/{id}/restore: a page deleted for good answers at its address again, its children under it; page lists, menus and sidebars with an item on it show it again", async () => {
      const id = await fx.page("rx-gone", "rx-self", { title: "Gone and back", content: "<p>kept body</p>" });
      await fx.page("rx-gone-kid", "rx-self", { title: "Kid", parent: id });
      const neighbour = await fx.page("rx-neighbour", "rx-side-pages", { title: "Neighbour" });
      ok(
        await fx.api("POST", "/menus", {
          name: "Footer",
          location: "footer_1",
          items: [{ page: id }, { url: "/elsewhere", title: "Elsewhere" }],
        }),
        "menu",
        201,
      );
      ok(await fx.api("PUT", "/sidebars/rx-pages", { items: [{ page: neighbour }, { page: id }] }), "sidebar", 201);
      assert.deepEqual(sidebarOf((await fx.primed("/rx-neighbour/")).text), {
        items: ["Neighbour", "Gone and back"],
        pager: ["next: Gone and back"],
      });
      await fx.primed("/rx-gone/rx-gone-kid/");

      const deleted = ok(await fx.api("DELETE", `/pages/${id}?force=true`), "DELETE force");
      assert.equal(deleted.menu_items_orphaned.length, 1);
      await goneTwice("/rx-gone/", "no_page");
      served(await fx.visit("/rx-gone-kid/"), "the child moved up");
      assert.deepEqual(printed((await fx.primed("/rx-menus-page/")).text, "footer_1"), ["Elsewhere"]);
      assert.ok(!listed((await fx.primed("/rx-all/")).text, "all").includes("Gone and back"));
      assert.deepEqual(sidebarOf((await fx.primed("/rx-neighbour/")).text), { items: ["Neighbour"], pager: [] });
      await fx.primed("/rx-gone-kid/");

      const answer = await undelete("pages", "rx-gone");
      assert.equal(answer.page.id, id);
      assert.equal(answer.children_restored.length, 1);
      assert.match(
        served(await fx.visit("/rx-gone/"), "the page", "on_request"),
        /<h1>Gone and back<\/h1><div class="body"><p>kept body<\/p><\/div>/,
      );
      assert.match(
        served(await fx.visit("/rx-gone/rx-gone-kid/"), "its child, under it again", "on_request"),
        /<h1>Kid<\/h1>/,
      );
      redirected(
        await fx.visit("/rx-gone-kid/"),
        "the child's address while it stood at the top",
        "/rx-gone/rx-gone-kid/",
      );
      assert.deepEqual(printed(served(await fx.visit("/rx-menus-page/"), "menu", "static"), "footer_1"), [
        "Gone and back",
        "Elsewhere",
      ]);
      assert.ok(listed(served(await fx.visit("/rx-all/"), "page list", "static"), "all").includes("Gone and back"));
      assert.deepEqual(sidebarOf(served(await fx.visit("/rx-neighbour/"), "sidebar", "on_request")), {
        items: ["Neighbour", "Gone and back"],
        pager: ["next: Gone and back"],
      });
      const footer =
        /<nav class="footer_1">(.*?)<\/nav>/s.exec(served(await fx.visit("/rx-menus-page/"), "menu", "static"))?.[1] ??
        "";
      assert.match(linkUrls(footer)[0] ?? "", /\/rx-gone\/$/, "the menu links its address");
    });
  });

  describe("menus", () => {
    before(async () => {
      await fx.frame("rx-navs", `${menuAt("footer_2")}${menuAt("footer_3")}`);
      await fx.page("rx-navs-page", "rx-navs");
    });
    const nav = async (location: string) =>
      printed(served(await fx.visit("/rx-navs-page/"), "/rx-navs-page/", "static"), location);
    const primedNav = async (location: string) => printed((await fx.primed("/rx-navs-page/")).text, location);

    it("POST /menus/{ref}/revisions/{n}/restore: the location the revision held prints its tree again, also after the menu had left it; a location it took since prints nothing", async () => {
      ok(
        await fx.api("POST", "/menus", {
          name: "Restored",
          location: "footer_2",
          items: [
            { url: "/one", title: "One" },
            { url: "/two", title: "Two" },
          ],
        }),
        "menu",
        201,
      );
      ok(await fx.api("PUT", "/menus/restored/items", { items: [{ url: "/three", title: "Three" }] }), "PUT items");
      ok(await fx.api("DELETE", "/menus/restored/location?location=footer_2"), "DELETE location footer_2");
      ok(await fx.api("PUT", "/menus/restored/location", { location: "footer_3" }), "PUT location footer_3");
      assert.deepEqual(await primedNav("footer_2"), []);
      assert.deepEqual(await primedNav("footer_3"), ["Three"]);

      const answer = await restore("/menus/restored", 1, 5);
      assert.deepEqual(answer.menu.assigned, [{ location: "footer_2", lang: null }]);
      assert.deepEqual(rebakedSlugs(answer), ["rx-navs"]);
      assert.deepEqual(await nav("footer_2"), ["One", "Two"]);
      assert.deepEqual(await nav("footer_3"), []);
      await primedNav("footer_2");
      await restore("/menus/restored", 2, 6);
      assert.deepEqual(await nav("footer_2"), ["Three"]);
    });

    it("POST /trash/menus/{id}/restore: the location it held prints it again", async () => {
      ok(
        await fx.api("POST", "/menus", {
          name: "Trashed",
          location: "footer_3",
          items: [{ url: "/t", title: "Trashed link", children: [{ url: "/t/kid", title: "Kid link" }] }],
        }),
        "menu",
        201,
      );
      assert.deepEqual(await primedNav("footer_3"), ["Trashed link", "Kid link"]);
      ok(await fx.api("DELETE", "/menus/trashed"), "DELETE menu");
      assert.deepEqual(await primedNav("footer_3"), []);

      const answer = await undelete("menus", "trashed");
      assert.deepEqual(answer.menu.assigned, [{ location: "footer_3", lang: null }]);
      assert.deepEqual(rebakedSlugs(answer), ["rx-navs"]);
      assert.deepEqual(await nav("footer_3"), ["Trashed link", "Kid link"]);
    });
  });

  describe("data sets", () => {
    const teamFrame = `<ul><!-- svc/repeat {"source": "rx-team"} --><li class="member" ${bind("text", "item.name")}></li><!-- /svc/repeat --></ul>`;
    const members = (html: string) => [...html.matchAll(/<li class="member">([^<]*)<\/li>/g)].map((m) => m[1]);
    before(async () => {
      await fx.frame("rx-team", teamFrame);
      await fx.page("rx-team-page", "rx-team");
    });
    const team = async () => members(served(await fx.visit("/rx-team-page/"), "/rx-team-page/", "static"));

    it("POST /data/{name}/revisions/{n}/restore: a repeat over the set prints revision n's items; with ?lang, pages in that language print the variant's revision, the others the shared set", async () => {
      ok(await fx.api("PUT", "/data/rx-team", { items: [{ name: "Ann" }, { name: "Bob" }] }), "PUT data", 201);
      ok(await fx.api("PUT", "/data/rx-team", { items: [{ name: "Carl" }] }), "PUT data again");
      assert.deepEqual(members((await fx.primed("/rx-team-page/")).text), ["Carl"]);
      const answer = await restore("/data/rx-team", 1, 3);
      assert.deepEqual(rebakedSlugs(answer), ["rx-team"]);
      assert.deepEqual(await team(), ["Ann", "Bob"]);

      // A language variant (?lang): pages in that language print its revision, the others the shared set.
      const host = "rx-data.localhost";
      const site = await fx.site("Revisions data", host);
      for (const code of ["en", "de"]) ok(await fx.api("POST", "/languages", { code }, site), `language ${code}`, 201);
      await fx.frame("rx-team", teamFrame, site);
      await fx.page("rx-team-en", "rx-team", { lang: "en" }, site);
      await fx.page("rx-team-de", "rx-team", { lang: "de" }, site);
      ok(await fx.api("PUT", "/data/rx-team", { items: [{ name: "Ann" }] }, site), "PUT shared", 201);
      ok(await fx.api("PUT", "/data/rx-team", { lang: "de", items: [{ name: "Anke" }] }, site), "PUT de", 201);
      ok(await fx.api("PUT", "/data/rx-team", { lang: "de", items: [{ name: "Berta" }] }, site), "PUT de again");
      assert.deepEqual(members((await fx.primed("/de/rx-team-de/", host)).text), ["Berta"]);
      assert.deepEqual(members((await fx.primed("/rx-team-en/", host)).text), ["Ann"]);
      await restore("/data/rx-team", 1, 3, "?lang=de", site);
      assert.deepEqual(members(served(await fx.visit("/de/rx-team-de/", host), "de", "static")), ["Anke"]);
      assert.deepEqual(members(served(await fx.visit("/rx-team-en/", host), "en", "static")), ["Ann"]);
    });

    it("POST /trash/data/{id}/restore: a repeat over the set prints its items again", async () => {
      assert.deepEqual(members((await fx.primed("/rx-team-page/")).text), ["Ann", "Bob"]);
      ok(await fx.api("DELETE", "/data/rx-team"), "DELETE data");
      assert.deepEqual(members((await fx.primed("/rx-team-page/")).text), []);
      const answer = await undelete("data", "rx-team");
      assert.deepEqual(rebakedSlugs(answer), ["rx-team"]);
      assert.deepEqual(await team(), ["Ann", "Bob"]);
    });
  });

  describe("stylesheets", () => {
    const put = async (name: string, css: string) => {
      const reply = await fx.api("PUT", `/styles/${name}`, { css });
      assert.ok(
        reply.status === 200 || reply.status === 201,
        `PUT ${name}: ${reply.status} ${reply.text.slice(0, 300)}`,
      );
      return reply.body;
    };
    const urlOf = async (name: string) => ok(await fx.api("GET", `/styles/${name}`), `GET ${name}`).style.url as string;
    /** A stylesheet address fetched through the reading process: its bytes. */
    const sheet = async (url: string) => {
      const reply = await fx.visit(url);
      assert.equal(reply.status, 200, `${url}: ${reply.status}`);
      assert.equal(reply.headers["content-type"], "text/css; charset=utf-8");
      return reply.text;
    };
    const linksOn = async (path: string) => styleLinks(served(await fx.visit(path), path, "static"));

    it("POST /styles/{name}/revisions/{n}/restore: the pages linking it, or a stylesheet importing it, link new addresses that serve revision n's CSS", async () => {
      await put("rx-base", "p { color: red }");
      await put("rx-importer", `@import "rx-base";\nh1 { margin: 0 }`);
      await put("rx-base", "p { color: blue }");
      const direct = await fx.shown("rx-linking", linking("rx-base"));
      const imported = await fx.shown("rx-linking-importer", linking("rx-importer"));
      const was = { base: await urlOf("rx-base"), importer: await urlOf("rx-importer") };
      assert.deepEqual(styleLinks((await fx.primed(direct)).text), [was.base]);
      assert.deepEqual(styleLinks((await fx.primed(imported)).text), [was.importer]);

      const answer = await restore("/styles/rx-base", 1, 3);
      assert.deepEqual(rebakedSlugs(answer), ["rx-linking", "rx-linking-importer"]);
      const now = { base: await urlOf("rx-base"), importer: await urlOf("rx-importer") };
      assert.notEqual(now.base, was.base);
      assert.notEqual(now.importer, was.importer);
      assert.deepEqual(await linksOn(direct), [now.base]);
      assert.deepEqual(await linksOn(imported), [now.importer]);
      assert.equal(await sheet(now.base), "p{color:red}");
      assert.equal(await sheet(now.importer), "p{color:red}h1{margin:0}");
      assert.equal(await sheet(was.base), "p{color:#00f}", "the replaced address keeps its own bytes");
    });

    it("POST /trash/styles/{id}/restore: the pages linking it link it again, and a stylesheet importing it bundles it again, at addresses that serve its CSS", async () => {
      await put("rx-gone", "b { color: red }");
      await put("rx-gone-importer", `@import "rx-gone";\ni { color: blue }`);
      const direct = await fx.shown("rx-gone-linking", linking("rx-gone"));
      const imported = await fx.shown("rx-gone-linking-importer", linking("rx-gone-importer"));
      ok(await fx.api("DELETE", "/styles/rx-gone?force=1"), "DELETE force");
      assert.deepEqual(styleLinks((await fx.primed(direct)).text), []);
      const without = await urlOf("rx-gone-importer");
      assert.deepEqual(styleLinks((await fx.primed(imported)).text), [without]);
      assert.equal(await sheet(without), "i{color:#00f}");

      const answer = await undelete("styles", "rx-gone");
      assert.deepEqual(rebakedSlugs(answer), ["rx-gone-linking", "rx-gone-linking-importer"]);
      const now = { gone: await urlOf("rx-gone"), importer: await urlOf("rx-gone-importer") };
      assert.notEqual(now.importer, without);
      assert.deepEqual(await linksOn(direct), [now.gone]);
      assert.deepEqual(await linksOn(imported), [now.importer]);
      assert.equal(await sheet(now.gone), "b{color:red}");
      assert.equal(await sheet(now.importer), "b{color:red}i{color:#00f}");
    });
  });

  describe("sidebars", () => {
    before(async () => {
      await fx.frame(
        "rx-side",
        `<h1 ${bind("text", "page.title")}></h1><!-- svc/sidebar {"name": "rx-side"} /--><!-- svc/pager {"name": "rx-side"} /-->`,
      );
    });
    const next = async (path: string) => sidebarOf(served(await fx.visit(path), path, "on_request"));
    const primed = async (path: string) =>
      sidebarOf(served(await fx.primed(path), `${path} before the write`, "cache"));

    it("POST /sidebars/{name}/revisions/{n}/restore: the pages printing it print revision n's tree and pager", async () => {
      const a = await fx.page("rx-side-a", "rx-side", { title: "Alpha" });
      const b = await fx.page("rx-side-b", "rx-side", { title: "Beta" });
      const c = await fx.page("rx-side-c", "rx-side", { title: "Gamma" });
      ok(
        await fx.api("PUT", "/sidebars/rx-side", { items: [{ page: a }, { page: b }, { page: c }] }),
        "PUT sidebar",
        201,
      );
      ok(
        await fx.api("PUT", "/sidebars/rx-side", { items: [{ page: c }, { page: a, label: "Start" }] }),
        "PUT sidebar again",
      );
      assert.deepEqual(await primed("/rx-side-a/"), { items: ["Gamma", "Start"], pager: ["prev: Gamma"] });

      await restore("/sidebars/rx-side", 1, 3);
      assert.deepEqual(await next("/rx-side-a/"), { items: ["Alpha", "Beta", "Gamma"], pager: ["next: Beta"] });
      assert.deepEqual(await next("/rx-side-b/"), {
        items: ["Alpha", "Beta", "Gamma"],
        pager: ["prev: Alpha", "next: Gamma"],
      });
    });

    it("POST /trash/sidebars/{name}/restore: the pages printing it print its tree and pager again", async () => {
      assert.deepEqual(await primed("/rx-side-b/"), {
        items: ["Alpha", "Beta", "Gamma"],
        pager: ["prev: Alpha", "next: Gamma"],
      });
      ok(await fx.api("DELETE", "/sidebars/rx-side"), "DELETE sidebar");
      assert.deepEqual(await primed("/rx-side-b/"), { items: [], pager: [] });

      const answer = await undelete("sidebars", "rx-side");
      assert.equal(answer.sidebar.name, "rx-side");
      assert.deepEqual(await next("/rx-side-b/"), {
        items: ["Alpha", "Beta", "Gamma"],
        pager: ["prev: Alpha", "next: Gamma"],
      });
      assert.deepEqual(await next("/rx-side-c/"), { items: ["Alpha", "Beta", "Gamma"], pager: ["prev: Beta"] });
    });
  });
});
